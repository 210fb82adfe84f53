public import FixedPoint

/// Whether the device's rotation repeats at the step candidates' interval: a pedalling limb,
/// not a walking one.
///
/// A limb that carries the device (a thigh with a trouser pocket, an arm with the hand) swings
/// once per stride: one leg's heel strike, then the other's, so its rotation repeats every two
/// steps and after one step it is mirrored (the thigh flexes, then extends). Over the walks and
/// runs of every dev set with a gyroscope (WeAllWalk's pockets, IPOL's lower back, Brajdic's and
/// phone_attitude's hands and pockets), where the rotation's rms over 2 s exceeds 1 rad/s, its
/// correlation at one step's lag has a median of −0.26 and exceeds 0.5 for 0.45 % of the
/// candidates, never for long. A thigh on a bicycle turns once per crank revolution, and |a|
/// (the knee's up-and-down, 5–6 m/s² at 75 rpm) peaks once per revolution too: the candidates
/// then come once per revolution and the rotation repeats at their interval (correlation 0.99
/// at 60–90 rpm with the phone in a trouser pocket, simulated). Those are pedal strokes.
///
/// The rotation rate is resampled at 25 Hz (`ResamplingClock`, like `GaitPeriodicity`) and kept as
/// Int16 in mrad/s (±32.767 rad/s: more than BROAD's fastest hand, 25 rad/s; a faster one is
/// clamped) in a 5.12 s ring of three axes (768 bytes); nothing is allocated. Only where there is
/// a gyroscope: the firmware's step stage has none (and no RAM for this).
public struct RotationRhythm: Sendable {
    private static let window = 50                    // 2 s of values correlated
    private static let maximumLag = 32                // 1.28 s: a slow walker's step, 47 rpm
    private var ring = InlineArray<384, Int16>(repeating: 0)  // ResamplingClock.capacity × (x, y, z)
    private var clock = ResamplingClock()

    public init() {}

    /// One rotation-rate sample (rad/s, device axes) at `time` (ns).
    public mutating func update(rotationRate: FusionVector<Q32_32>, timeNanoseconds time: Int64) {
        let ticks = clock.ticks(until: time)
        guard ticks > 0 else { return }
        let thousand = Q32_32(integer: 1000)
        let x = Int16(clamping: (rotationRate.x * thousand).rawValue >> 32)
        let y = Int16(clamping: (rotationRate.y * thousand).rawValue >> 32)
        let z = Int16(clamping: (rotationRate.z * thousand).rawValue >> 32)
        for _ in 0..<ticks {
            let index = clock.push()
            ring[3 * index] = x
            ring[3 * index + 1] = y
            ring[3 * index + 2] = z
        }
    }

    /// Whether, over the last 2 s, the rotation's rms exceeds 1 rad/s (a limb's swing, not the
    /// wobble of a device held or carried on the trunk) and its correlation with itself
    /// `interval` ns earlier exceeds 0.5 (the vector form of Pearson's r: the axes' sums of
    /// products over the axes' sums of squares). False until the ring holds the window and the lag.
    public func repeats(every interval: Int64) -> Bool {
        let tick = ResamplingClock.tick
        guard interval <= Int64(Self.maximumLag) * tick else { return false }
        let lag = Int((interval + tick / 2) / tick)
        guard lag >= 1, lag <= Self.maximumLag, clock.count >= Self.window + lag else { return false }
        let values = ring.span
        var sx = (Int64(0), Int64(0), Int64(0)), sy = (Int64(0), Int64(0), Int64(0))
        var sxx: Int64 = 0, syy: Int64 = 0, sxy: Int64 = 0
        // Wrapping operators: |values| ≤ 2¹⁵, so each product is ≤ 2³⁰ and each sum of 150 below
        // 2³⁸; n times a sum, and the squared sums, stay below 2⁴⁶.
        for index in 0..<Self.window {
            let now = clock.index(back: index), then = clock.index(back: index + lag)
            let x0 = Int64(values[3 * now]), x1 = Int64(values[3 * now + 1]), x2 = Int64(values[3 * now + 2])
            let y0 = Int64(values[3 * then]), y1 = Int64(values[3 * then + 1]), y2 = Int64(values[3 * then + 2])
            sx.0 &+= x0; sx.1 &+= x1; sx.2 &+= x2
            sy.0 &+= y0; sy.1 &+= y1; sy.2 &+= y2
            sxx &+= x0 &* x0 &+ x1 &* x1 &+ x2 &* x2
            syy &+= y0 &* y0 &+ y1 &* y1 &+ y2 &* y2
            sxy &+= x0 &* y0 &+ x1 &* y1 &+ x2 &* y2
        }
        let n = Int64(Self.window)
        // n² × the variances and the covariance (summed over the axes), (mrad/s)².
        let varianceX = n &* sxx &- (sx.0 &* sx.0 &+ sx.1 &* sx.1 &+ sx.2 &* sx.2)
        let varianceY = n &* syy &- (sy.0 &* sy.0 &+ sy.1 &* sy.1 &+ sy.2 &* sy.2)
        let covariance = n &* sxy &- (sx.0 &* sy.0 &+ sx.1 &* sy.1 &+ sx.2 &* sy.2)
        // rms over 1 rad/s: n² × variance > (1000 mrad/s × n)².
        guard varianceX > 1_000_000 &* n &* n, varianceY > 0, covariance > 0 else { return false }
        // r > 0.5 ⇔ 2 cov > σx σy (each square root ≤ 2²³: the product fits).
        let deviationX = Int64(UInt64(varianceX).integerSquareRoot)
        let deviationY = Int64(UInt64(varianceY).integerSquareRoot)
        return 2 &* covariance > deviationX &* deviationY
    }
}
