import FixedPoint

/// A second-order Butterworth low-pass filter on a 3-vector, with VQF's parametrisation by a
/// time constant τ: cutoff f_c = √2 / (2π τ) (Laidig & Seel 2023, §IV-B). Transposed direct
/// form II; the coefficients follow the average sample interval, recomputed when it drifts.
///
/// Coefficients (bilinear transform, prewarped): C = tan(π f_c dt), D = C² + √2 C + 1,
/// b₀ = C²/D, b₁ = 2b₀, b₂ = b₀, a₁ = 2(C² − 1)/D, a₂ = (C² − √2 C + 1)/D. Here C is a few
/// thousandths (f_c = 0.075 Hz at τ = 3 s, dt ≤ 20 ms), so tan C = C + C³/3 to 10⁻¹² and
/// 1/D = 1 − u + u² − u³ + u⁴ with u = D − 1 to 10⁻¹²: multiplications only, in either number
/// type. A short time constant at a low rate (u ≥ 0.25) takes the exact tan and 1/D instead.
struct ButterworthLowPass<Scalar: FusionScalar>: Sendable {
    typealias Vector = FusionVector<Scalar>

    private let piCutoff: Scalar  // π f_c, 1/s
    private var lastInterval = Scalar.zero
    /// The sample interval averaged over about 64 samples, s.
    private var averageInterval = Scalar.zero
    private var b0 = Scalar.zero, a1 = Scalar.zero, a2 = Scalar.zero
    private var state1 = Vector.zero, state2 = Vector.zero
    private(set) var output = Vector.zero

    /// The filter for a time constant τ (s): π f_c = π × √2 / (2π τ) = (√2 / 2) × (1/τ).
    init(timeConstant: Q32_32) {
        self.init(piCutoff: Q32_32.squareRootOfTwo.timesPowerOfTwo(-1) * timeConstant.reciprocal)
    }

    /// The filter for a cutoff f_c given as π f_c (1/s).
    init(piCutoff: Q32_32) {
        self.piCutoff = Scalar(piCutoff)
    }

    /// Starts in the steady state of a constant input `x` (no start-up transient).
    mutating func reset(to x: Vector, dt: Scalar) {
        averageInterval = dt
        setInterval(dt)
        output = x
        state1 = x - x * b0
        state2 = x * b0 - x * a2
    }

    @discardableResult
    mutating func update(_ x: Vector, dt: Scalar) -> Vector {
        // The coefficients follow the average interval, not each one: phones' timestamps
        // jitter by milliseconds, and a direct-form filter whose coefficients change every
        // step is no longer the filter it was designed as (its states do not carry over).
        averageInterval = averageInterval + (dt - averageInterval).timesPowerOfTwo(-6)
        let change = averageInterval - lastInterval
        let tolerance = lastInterval.timesPowerOfTwo(-6)
        if change > tolerance || -change > tolerance { setInterval(averageInterval) }
        let xb0 = x * b0  // b₁ = 2b₀, b₂ = b₀: one product for all three
        let y = xb0 + state1
        state1 = xb0 + xb0 - y * a1 + state2
        state2 = xb0 - y * a2
        output = y
        return y
    }

    /// Another signal's states under this filter's coefficients: for signals filtered beside
    /// this one at the same time constant and rate, so that the coefficients are kept once.
    struct Companion: Sendable {
        fileprivate var state1 = Vector.zero, state2 = Vector.zero
        fileprivate(set) var output = Vector.zero
    }

    /// A companion in the steady state of a constant input `x` (call after `reset`).
    func companion(at x: Vector) -> Companion {
        var companion = Companion()
        companion.output = x
        companion.state1 = x - x * b0
        companion.state2 = x * b0 - x * a2
        return companion
    }

    /// One step of `companion` with input `x` (call after this filter's `update` of the same step).
    func update(_ companion: inout Companion, with x: Vector) {
        let xb0 = x * b0
        let y = xb0 + companion.state1
        companion.state1 = xb0 + xb0 - y * a1 + companion.state2
        companion.state2 = xb0 - y * a2
        companion.output = y
    }

    private mutating func setInterval(_ dt: Scalar) {
        lastInterval = dt
        // A cutoff at or above a quarter of the sample rate (the step detector's 3 Hz on a
        // 12.5 Hz watch) is held just below it: the bilinear transform has no filter there.
        let angle = min(piCutoff * dt, Self.maximumAngle)
        var c = angle + angle * angle * angle * Self.oneThird
        var u = c * c + Self.squareRootOfTwo * c
        var inverseD: Scalar
        if u < Self.seriesLimit {
            let uSquared = u * u
            inverseD = Scalar.one - u + uSquared - uSquared * u + uSquared * uSquared
        } else {
            // A cutoff near the sample rate: the series no longer converge, so tan = sin / cos
            // and 1/D = (1/√D)², once per change of interval.
            let (sine, cosine) = Scalar.sineCosine(angle)
            let secant = cosine.reciprocalSquareRoot
            c = sine * secant * secant
            u = c * c + Self.squareRootOfTwo * c
            let root = (Scalar.one + u).reciprocalSquareRoot
            inverseD = root * root
        }
        let cSquared = c * c
        b0 = cSquared * inverseD
        a1 = (cSquared - Scalar.one).timesPowerOfTwo(1) * inverseD
        a2 = (cSquared - Self.squareRootOfTwo * c + Scalar.one) * inverseD
    }

    // Constants as computed properties, not stored: no bytes in each filter (the attitude
    // filter has four), and folded at compile time in fixed point.
    private static var squareRootOfTwo: Scalar { Scalar(Q32_32.squareRootOfTwo) }
    private static var oneThird: Scalar { Scalar(numerator: 1, denominator: 3) }
    /// Below u = 0.25 the fifth-order series for 1/D errs by under 10⁻³ (u⁵).
    private static var seriesLimit: Scalar { Scalar(numerator: 1, denominator: 4) }
    /// π f_c dt < 1.2 rad: f_c below 0.38 of the sample rate.
    private static var maximumAngle: Scalar { Scalar(numerator: 6, denominator: 5) }
}
