public import FixedPoint

/// Cadence (steps/s, Q32.32) from the times of credited steps: the mean rate over the last
/// five steps, as long as the newest is recent. Steps may arrive late and in bursts (a bout is
/// credited from its first step once confirmed), which is fine: only their times are used.
public struct CadenceTracker: Sendable {
    private var times = InlineArray<5, Int64>(repeating: 0)
    private var count = 0
    private var newest = 0
    /// A step older than this no longer gives a cadence (the walk has stopped).
    public var staleAfterNanoseconds: Int64 = 2_000_000_000

    public init() {}

    /// A step credited at `time` (ns), in the order they are credited.
    public mutating func credit(_ time: Int64) {
        if count > 0, time - times[newest] > staleAfterNanoseconds { count = 0 }
        newest = (newest + 1) % 5
        times[newest] = time
        if count < 5 { count += 1 }
    }

    /// Steps per second at `now` (ns), 0 when fewer than three recent steps.
    public func cadence(atNanoseconds now: Int64) -> Q32_32 {
        guard count >= 3, now - times[newest] <= staleAfterNanoseconds else { return .zero }
        let oldest = times[(newest + 5 - (count - 1)) % 5]
        let spanMicroseconds = (times[newest] - oldest) / 1000
        guard spanMicroseconds > 0 else { return .zero }
        // (count − 1) steps over the span: raw = (count − 1) · 2³² · 10⁶ / span µs (count ≤ 5:
        // the product is below 2⁵⁵, so a wrapping one, without a Cortex-M0's long overflow check).
        return Q32_32(rawValue: Int64(count - 1) &* 4_294_967_296_000_000 / spanMicroseconds)
    }
}
