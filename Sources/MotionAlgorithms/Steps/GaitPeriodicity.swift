public import FixedPoint

/// "Is this walking?": how periodic the step signal is at the rhythm the step candidates claim,
/// by normalised autocorrelation (Pearson's r between the last 2.5 s and the same signal one
/// step or one stride earlier). Walking repeats itself every step (and, with a device off the
/// body's centre line, every stride of two steps); a device waved, tapped or handled makes
/// peaks at step-like intervals far less often than it repeats its whole waveform. The
/// windowed-autocorrelation test of Rai et al., "Zee" (MobiCom 2012), used by Brajdic & Harle
/// (UbiComp 2013) as the walking detector that most reduced false steps.
///
/// The signal is resampled at 25 Hz (every 40 ms by the clock, so any sensor rate gives the
/// same answer) and kept as Int16 in cm/s² in a 5.12 s ring (256 bytes): ±327.67 m/s² holds
/// any step signal (|a| minus its mean: within ±16 g × √3 = 272 m/s² for the ±16 g of phone
/// and board accelerometers; a larger one, from a high-g sensor, is clamped: no walk comes
/// near), sums of products stay exact in Int64 and nothing is allocated.
public struct GaitPeriodicity: Sendable {
    private static let window = 62                    // 2.5 s of values correlated
    private static let maximumLag = 64                // 2.56 s: a stride of 1.28 s steps
    /// ns: how long a sample stays in what `correlation` looks at (the window and its copy up
    /// to the longest lag earlier): 5.04 s.
    static let span = Int64(window + maximumLag) * ResamplingClock.tick
    private var ring = InlineArray<128, Int16>(repeating: 0)  // ResamplingClock.capacity ticks
    private var clock = ResamplingClock()

    public init() {}

    /// The step signal (m/s²) at `time` (ns).
    public mutating func update(signal: Q32_32, timeNanoseconds time: Int64) {
        let ticks = clock.ticks(until: time)
        guard ticks > 0 else { return }
        let value = Int16(clamping: (signal * Q32_32(integer: 100)).rawValue >> 32)
        for _ in 0..<ticks { ring[clock.push()] = value }
    }

    /// The best correlation, ‰ (−1000…1000), at lags within ±15 % of one step `period` (ns) or
    /// of two; 0 when the window is not full yet.
    public func correlation(period: Int64) -> Int {
        let step = Int((period + ResamplingClock.tick / 2) / ResamplingClock.tick)
        return max(best(around: step), best(around: 2 * step))
    }

    private func best(around lag: Int) -> Int {
        // ±15 % (at least ±1 tick): the candidates' rhythm is that good, and every lag tried
        // costs a pass over the window.
        let spread = max(1, (lag * 3 + 10) / 20)
        let low = max(2, lag - spread), high = min(Self.maximumLag, lag + spread)
        guard low <= high, clock.count >= Self.window + high else { return 0 }
        // A span reads the ring in place (passing the InlineArray along copied it).
        let values = ring.span
        var result = Int.min
        for candidate in low...high { result = max(result, Self.pearson(values, clock: clock, lag: candidate)) }
        return result
    }

    /// Pearson's r × 1000 between the newest `window` values and those `lag` ticks earlier.
    private static func pearson(_ ring: Span<Int16>, clock: ResamplingClock, lag: Int) -> Int {
        var sx: Int64 = 0, sy: Int64 = 0, sxx: Int64 = 0, syy: Int64 = 0, sxy: Int64 = 0
        // Wrapping operators: the bounds below hold for any Int16, so no overflow check is
        // needed (on a Cortex-M0 each checked 64-bit product is a long sequence of code).
        for index in 0..<window {
            let x = Int64(ring[clock.index(back: index)])
            let y = Int64(ring[clock.index(back: index + lag)])
            sx &+= x; sy &+= y; sxx &+= x &* x; syy &+= y &* y; sxy &+= x &* y
        }
        let n = Int64(window)
        // n·Σxy − ΣxΣy over √(n·Σx² − (Σx)²) √(n·Σy² − (Σy)²): |values| ≤ 2¹⁵ keep each
        // product ≤ 2³⁰, each sum of 62 below 2³⁶ and every term below 2⁴³.
        let covariance = n &* sxy &- sx &* sy
        let deviationX = Int64(UInt64(max(0, n &* sxx &- sx &* sx)).integerSquareRoot)
        let deviationY = Int64(UInt64(max(0, n &* syy &- sy &* sy)).integerSquareRoot)
        guard deviationX > 0, deviationY > 0 else { return 0 }
        return Int(covariance / deviationX * 1000 / deviationY)
    }
}
