public import FixedPoint

/// How periodic the device's low-frequency motion is at a pedalling cadence, from the
/// normalised autocorrelation of the three acceleration axes (a periodicity measure as in
/// step detection by autocorrelation: Rai et al., "Zee", MobiCom 2012; here at a cycling
/// cadence instead of a step's).
///
/// Each axis is low-passed at 4 Hz (first order), its 0.5 s mean removed, and sampled at 10 Hz
/// into a 4 s ring. Every 0.5 s (`evaluate`) the summed autocorrelation of the three axes,
/// r(k) = Σ⟨x(n), x(n−k)⟩ / √(Σ|x(n)|² · Σ|x(n−k)|²), is taken at lags of 0.1–1.2 s; the
/// rhythm is the best r at 0.5–1.2 s (one pedal revolution at 50–120 rpm) that comes after a
/// dip at least 0.5 below it (a periodic signal anti-correlates at half its period; a slow
/// drift does not dip at all). Summing the axes makes it independent of how the device is
/// held; a thigh-pocket device swings at the revolution rate, a torso-worn one bounces at twice
/// it (and so also correlates at one revolution). r near 1: a steady rhythm; near 0: none.
///
/// Q32.32 throughout; sums are divided by the overlap length before they are multiplied, so
/// |x| up to 100 m/s² stays in range. No allocation: the ring is an InlineArray.
public struct RhythmDetector: Sendable {
    static let length = 40
    static let sampleNanoseconds: Int64 = 100_000_000
    static let shortestLag = 5    // 0.5 s: 120 rpm
    static let longestLag = 12    // 1.2 s: 50 rpm

    private var ring = InlineArray<40, FusionVector<Q32_32>>(repeating: .zero)
    private var next = 0
    private var filled = 0
    private var lowPass = FusionVector<Q32_32>.zero
    private var mean = FusionVector<Q32_32>.zero
    private var nextSample: Int64 = 0
    private var previousTime: Int64 = 0
    private var started = false
    static let twoPi4 = Q32_32(rawValue: 107_944_301_636)  // 2π × 4 Hz: round(8π × 2³²)
    private static var dipDepth: Q32_32 { Q32_32(numerator: 1, denominator: 2) }
    /// 1/τ of the mean removed (τ = 0.5 s: a high-pass near 0.3 Hz, below 50 rpm).
    private static var meanRate: Q32_32 { Q32_32(integer: 2) }
    /// 10⁻⁸ (m/s²)⁴: round(10⁻⁸ × 2³²).
    private static var noiseFloor: Q32_32 { Q32_32(numerator: 1, denominator: 100_000_000) }

    // Not inlined: inlined into `ActivityClassifier.init` it made the classifier's
    // construction hold a second copy of the ring on the stack (+560 bytes of peak stack on a
    // Cortex-M0, whose whole pipeline has 8 KB of RAM; tools/test-firmware-qemu.sh).
    @inline(never) public init() {}

    public mutating func update(acceleration a: FusionVector<Q32_32>, timeNanoseconds time: Int64) {
        if !started {
            started = true
            lowPass = a
            mean = a
            previousTime = time
            nextSample = time
        }
        let dt = Q32_32(nanoseconds: time - previousTime)
        previousTime = time
        lowPass = lowPass.approaching(a, by: min(Q32_32.one, Self.twoPi4 * dt))
        mean = mean.approaching(lowPass, by: min(Q32_32.one, Self.meanRate * dt))
        guard time >= nextSample else { return }
        // Fixed 10 Hz sample times (not "100 ms after the last sample"), so the lags are true.
        nextSample += Self.sampleNanoseconds
        if time - nextSample > Self.sampleNanoseconds { nextSample = time + Self.sampleNanoseconds }
        ring[next] = lowPass - mean
        next = next &+ 1 == Self.length ? 0 : next &+ 1  // < length: wrapping adds
        if filled < Self.length { filled &+= 1 }
    }

    /// The strongest normalised autocorrelation at a pedalling lag and that lag (s); 0 until
    /// the ring is full or when the device does not move. Changes nothing: `mutating` only so
    /// that the ring is read in place (a non-mutating call copies this 1 KB struct onto the
    /// stack, twice: a Cortex-M0 has 8 KB).
    public mutating func evaluate() -> (correlation: Q32_32, periodSeconds: Q32_32) {
        guard filled == Self.length else { return (.zero, .zero) }
        // The ring read in place, in age order (0: oldest), through a span (no copy of its
        // 960 bytes); the energies Σ|x|² of the two overlapping parts are the total less what
        // each lag drops at either end. Q32.32 sums wrap exactly, so the order of the terms
        // does not change a bit.
        let ring = ring.span, next = next
        func sample(_ age: Int) -> FusionVector<Q32_32> { ring[next + age < Self.length ? next + age : next + age - Self.length] }
        var total = Q32_32.zero
        for age in 0..<Self.length { total = total + sample(age).squaredLength }
        var energyNow = total, energyThen = total  // Σ|x|² of the newest and the oldest length − lag samples
        var best = Q32_32.zero, bestLag = 0
        var lowest = Q32_32.one  // the lowest r at a shorter lag: the dip before a true peak
        for lag in 1...Self.longestLag {
            let overlap = Int64(Self.length - lag)
            energyNow = energyNow - sample(lag - 1).squaredLength
            energyThen = energyThen - sample(Self.length - lag).squaredLength
            var cross = Q32_32.zero
            for age in lag..<Self.length { cross = cross + sample(age).dot(sample(age - lag)) }
            let c = Q32_32(rawValue: cross.rawValue / overlap)
            let product = Q32_32(rawValue: energyNow.rawValue / overlap) * Q32_32(rawValue: energyThen.rawValue / overlap)
            // Below (0.01 m/s²)² per axis the signal is sensor noise: no rhythm to speak of.
            guard product > Self.noiseFloor else { continue }
            let r = c * product.reciprocalSquareRoot
            // A rhythm dips before it repeats; a slow drift (a car speeding up) correlates at
            // every short lag without a dip, and is no rhythm.
            if lag >= Self.shortestLag, r > best, lowest <= r - Self.dipDepth { best = r; bestLag = lag }
            lowest = min(lowest, r)
        }
        return (best, Q32_32(rawValue: Int64(bestLag) * Q32_32.one.rawValue / 10))
    }
}
