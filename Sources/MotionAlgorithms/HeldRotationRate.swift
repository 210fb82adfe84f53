public import FixedPoint

/// The latest gyroscope sample, held for the accelerometer samples after it (a gyroscope may run
/// slower than the accelerometer, or its samples come just after), but only while it is recent:
/// a gyroscope that stops while the accelerometer goes on (a failing chip, a bus that lost it)
/// must not have its last value taken as the device's rotation for ever. After `freshness`
/// without a sample there is no rotation rate, as on a board without a gyroscope.
public struct HeldRotationRate: Sendable {
    /// ns: 1 s, the gap after which the step detector's rhythm clock (`ResamplingClock`) starts
    /// again; at 25 Hz, 25 samples missed.
    public static var freshness: Int64 { 1_000_000_000 }

    /// rad/s, device axes; nil: none yet.
    private var rate: FusionVector<Q32_32>?
    /// ns, when `rate` was sampled.
    private var time: Int64 = .min

    public init() {}

    /// A gyroscope sample (rad/s, device axes) at `time` (ns).
    public mutating func hold(_ rate: FusionVector<Q32_32>, at time: Int64) {
        self.rate = rate
        self.time = time
    }

    /// The held rate for a sample at `now` (ns), if it is within `freshness` of it.
    public func value(at now: Int64) -> FusionVector<Q32_32>? {
        guard let rate, now - time <= Self.freshness else { return nil }
        return rate
    }
}
