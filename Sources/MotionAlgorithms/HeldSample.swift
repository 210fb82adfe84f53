/// The latest sample of a sensor, held for the samples of another that come after it (a
/// gyroscope may run slower than the accelerometer, or an accelerometer slower than the
/// gyroscope that fusion follows), but only while it is recent: a sensor that stops while the
/// other goes on (a failing chip, a bus that lost it, a chip reset) must not have its last value
/// taken as the device's state for ever. After `freshness` without a sample there is none, as on
/// a board without that sensor.
///
/// Inlinable: a generic type's methods called from another module are otherwise not
/// specialised, and each call went through value witnesses (measured: 600 instructions more
/// per fused sample, a third of the fusion's).
public struct HeldSample<Value: Sendable>: Sendable {
    /// ns: 1 s, the gap after which the step detector's rhythm clock (`ResamplingClock`) starts
    /// again; at 25 Hz, 25 samples missed. What the step and activity stages hold the gyroscope
    /// for: their rules read averages over seconds.
    @inlinable public static var secondsFreshness: Int64 { 1_000_000_000 }

    /// ns a sample is held.
    public let freshness: Int64

    /// The sample; nil: none yet.
    @usableFromInline var value: Value?
    /// ns, when `value` was sampled.
    @usableFromInline var time: Int64 = .min

    @inlinable
    public init(freshness: Int64 = secondsFreshness) {
        self.freshness = freshness
    }

    /// A sample at `time` (ns).
    @inlinable
    public mutating func hold(_ value: Value, at time: Int64) {
        self.value = value
        self.time = time
    }

    /// The held sample for one at `now` (ns), if it is within `freshness` of it.
    @inlinable
    public func value(at now: Int64) -> Value? {
        guard let value, now - time <= freshness else { return nil }
        return value
    }
}
