public import FixedPoint

/// Whether |a| bounces at a gait's step rate, and at what cadence: the activity classifier's own
/// "is this a gait?" evidence, independent of the pedometer's step detector (whose gates may
/// reject a hand-held walk or run; a walk must not vanish from the activity because one gate
/// disagrees).
///
/// Why |a|: to first order |a| = g + the vertical acceleration, whatever the device's
/// orientation (pocket, hand, AR, bag), and every gait moves the body's centre of mass up and
/// down once per step. A hand-held phone damps the heel strikes' high frequencies, but not the
/// 1.4–3.2 Hz bounce of the body that carries the hand.
///
/// |a| is band-passed (first-order high-pass at about 0.7 Hz: a moving mean with τ = 0.23 s
/// removed; first-order low-pass at 5 Hz) and sampled at 25 Hz into a 4 s ring (Q16.16, Int32:
/// 400 bytes). Every 0.5 s (`evaluate`) the normalised autocorrelation r(k) is taken at lags of
/// 0.24–1.32 s (one step at 45–250 steps/min, or one stride of a walk). A peak counts only after
/// a dip at least 0.5 below it (a periodic signal anti-correlates between its repeats; a slow
/// drift or a damped random bounce — a car on its suspension, r(T) = e^(−2πζ) ≈ 0.2 — does not
/// repeat). `correlation` is the best such peak, or r at twice the step period if that is less
/// (a rhythm repeats twice, a damped resonance does not); the step period is the first peak unless a
/// later one that is not its double is more than 0.25 higher (a walk or run from a pocket repeats
/// best per stride, but its steps repeat too; the step period, not the stride's, gives the
/// cadence).
///
/// A ring still filling (the first 4 s after a start) is read already, at the lags that leave as
/// many samples in the overlap as a full ring leaves at its longest check (twice 1.32 s: 34
/// samples, 1.36 s), with the step period's double among them: a device started on a walker (a
/// recording begun mid-walk) sees the rhythm as soon as two steps and that overlap are in, not
/// only once 4 s are (phone_attitude's swinging hand: from 3.5 s instead of 4 s). No
/// correlation is computed on fewer samples than a full ring already accepts.
///
/// Q32.32 arithmetic, no allocation; builds as Embedded Swift.
public struct GaitRhythm: Sendable {
    static let length = 100
    /// 25 Hz: 40 ms a sample (Nyquist 12.5 Hz, well above a run's 3.2 Hz step rate).
    static let sampleNanoseconds: Int64 = 40_000_000
    static let shortestLag = 6    // 0.24 s: 250 steps/min
    static let longestLag = 33    // 1.32 s: a stride at 91 steps/min, a step at 45
    /// 34 samples (1.36 s): the least overlap a full ring leaves for a check (at twice the
    /// longest lag); a ring still filling is read at the lags that leave at least as much.
    static let shortestOverlap = length - 2 * longestLag

    private var ring = InlineArray<100, Int32>(repeating: 0)  // band-passed |a|, m/s² Q16.16
    private var next = 0
    private var filled = 0
    private var lowPass = Q32_32.zero  // |a| low-passed at 5 Hz, m/s²
    private var mean = Q32_32.zero     // its moving mean (τ ≈ 0.23 s), m/s²
    private var nextSample: Int64 = 0
    private var previousTime: Int64 = 0
    private var started = false
    /// 2π × 5 Hz, 1/s: round(10π × 2³²).
    static let twoPi5 = Q32_32(rawValue: 134_930_377_045)
    /// 512 m/s² in Q16.16 (see `update`).
    private static var largestValue: Int64 { 1 << 25 }
    /// 2π × 0.7 Hz ≈ 4.4, 1/s: the rate the moving mean follows |a| (below a slow walk's 1.4 Hz
    /// steps and half its 0.7 Hz stride: both pass; posture changes and a car's slow pitch do not).
    private static var meanRate: Q32_32 { Q32_32(numerator: 44, denominator: 10) }
    private static var dipDepth: Q32_32 { Q32_32(numerator: 1, denominator: 2) }
    /// The step peak may be this much below the best (stride) peak.
    private static var stepPeakMargin: Q32_32 { Q32_32(numerator: 1, denominator: 4) }
    /// (0.02 m/s²)² of mean square: below it |a| is sensor noise, no rhythm to speak of.
    private static var noiseFloor: Q32_32 { Q32_32(numerator: 4, denominator: 10_000) }

    // Not inlined, like RhythmDetector's: inlined into the classifier's init it would put a
    // second copy of the ring on a Cortex-M0's 8 KB stack.
    @inline(never) public init() {}

    /// One accelerometer sample (m/s², any axes) at `time` (ns).
    // Not inlined (nor `evaluate`): inlined into the classifier's update they grew the
    // Cortex-M0 image's code and its peak stack (tools/test-firmware-qemu.sh).
    @inline(never)
    public mutating func update(acceleration a: FusionVector<Q32_32>, timeNanoseconds time: Int64) {
        let magnitude = a.squaredLength.squareRoot
        if !started {
            started = true
            lowPass = magnitude
            mean = magnitude
            previousTime = time
            nextSample = time
        }
        let dt = Q32_32(nanoseconds: time - previousTime)
        previousTime = time
        lowPass = lowPass + (magnitude - lowPass) * min(Q32_32.one, Self.twoPi5 * dt)
        mean = mean + (lowPass - mean) * min(Q32_32.one, Self.meanRate * dt)
        guard time >= nextSample else { return }
        // Fixed sample times (not "40 ms after the last sample"), so the lags are true.
        nextSample += Self.sampleNanoseconds
        if time - nextSample > Self.sampleNanoseconds { nextSample = time + Self.sampleNanoseconds }
        // Q32.32 → Q16.16, clamped to ±512 m/s² (2²⁵: |a| of a ±16 g accelerometer, 272 m/s²,
        // stays inside), which bounds `correlation`'s sums.
        let value = (lowPass - mean).rawValue >> 16
        ring[next] = Int32(min(max(value, -Self.largestValue), Self.largestValue))
        next = next &+ 1 == Self.length ? 0 : next &+ 1  // < length: wrapping adds
        if filled < Self.length { filled &+= 1 }
    }

    /// The best normalised autocorrelation at a gait lag (0…1; 0 while the ring holds too few
    /// samples for two step periods and the shortest overlap, or when |a| holds still) and the
    /// step period (s; 0 without a rhythm). Changes nothing: `mutating` only so the ring is read
    /// in place (no copy on the stack).
    @inline(never)
    public mutating func evaluate() -> (correlation: Q32_32, stepPeriodSeconds: Q32_32) {
        // The longest lag read: its overlap is at least what a full ring leaves at its longest
        // check (full: 66, twice the longest lag; every lag as before).
        let lastLag = filled - Self.shortestOverlap
        guard lastLag >= 2 * Self.shortestLag else { return (.zero, .zero) }
        var best = Q32_32.zero, lowest = Q32_32.one
        // The step peak: the first peak, replaced by a later one only when that is clearly
        // (more than the margin) higher: a stride's repeat a little better than a step's keeps
        // the step.
        var stepLag = 0, stepValue = Q32_32.zero
        var previous = Q32_32.zero, beforePrevious = Q32_32.zero, lowestBeforePrevious = Q32_32.one
        for lag in 1...min(Self.longestLag + 1, lastLag) {
            let r = correlation(atLag: lag)
            // `previous` (at lag − 1) is a local peak when it is at least its neighbours.
            let peakLag = lag - 1
            if peakLag >= Self.shortestLag, previous >= beforePrevious, previous >= r,
               lowestBeforePrevious <= previous - Self.dipDepth {
                // A peak at about twice the step's lag (±2 samples, ±80 ms) is the same
                // rhythm's stride, however much higher (a pocket swings once per stride).
                let isStride = stepLag > 0 && abs(peakLag - 2 * stepLag) <= 2
                if stepLag == 0 || (!isStride && previous > stepValue + Self.stepPeakMargin) {
                    stepLag = peakLag
                    stepValue = previous
                }
                best = max(best, previous)
            }
            lowestBeforePrevious = lowest
            lowest = min(lowest, r)
            beforePrevious = previous
            previous = r
        }
        guard stepLag > 0, 2 * stepLag <= lastLag else { return (.zero, .zero) }
        // A rhythm repeats at two periods as well as at one; a damped random bounce (a car on
        // its suspension) does not: its sample correlation at one period may reach 0.6 over a
        // few seconds, at two it has decayed (e^(−4πζ) ≈ 0.02 for ζ = 0.3). The rhythm's
        // strength is the lesser of the two.
        best = min(best, correlation(atLag: 2 * stepLag))
        return (best, Q32_32(rawValue: Int64(stepLag) &* Self.sampleNanoseconds &* 4_294_967_296 / 1_000_000_000))
    }

    /// r(lag) = Σ x(n)·x(n−lag) / √(Σ x(n)² · Σ x(n−lag)²) over the overlap, 0 below the noise
    /// floor. Q16.16 × Q16.16 = Q32.32: |x| ≤ 2²⁵ keeps each product ≤ 2⁵⁰ and each sum of 100
    /// below 2⁵⁷, exact in Int64, so the sums use wrapping operators (no overflow checks: on a
    /// Cortex-M0 each checked 64-bit product is a long sequence of code). One loop for every lag (three products a sample, a few
    /// thousand every 0.5 s): on a Cortex-M0 code size matters more than those cycles.
    @inline(never)
    private mutating func correlation(atLag lag: Int) -> Q32_32 {
        let ring = ring.span
        // The oldest sample: `next` once the ring is full, else the first slot.
        var delayed = filled == Self.length ? next : 0                                   // lag older
        var index = delayed + lag < Self.length ? delayed + lag : delayed + lag - Self.length  // newer sample
        var cross: Int64 = 0, energyNow: Int64 = 0, energyThen: Int64 = 0
        for _ in lag..<filled {
            let x = Int64(ring[index]), y = Int64(ring[delayed])
            cross &+= x &* y
            energyNow &+= x &* x
            energyThen &+= y &* y
            index = index + 1 == Self.length ? 0 : index + 1
            delayed = delayed + 1 == Self.length ? 0 : delayed + 1
        }
        let overlap = Int64(filled - lag)
        let product = Q32_32(rawValue: energyNow / overlap) * Q32_32(rawValue: energyThen / overlap)
        guard product > Self.noiseFloor * Self.noiseFloor else { return .zero }
        return Q32_32(rawValue: cross / overlap) * product.reciprocalSquareRoot
    }
}
