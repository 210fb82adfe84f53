/// A 64-bit fixed-point number with 32 fraction bits (value = rawValue / 2³²): range ±2³¹,
/// resolution 2.3 × 10⁻¹⁰. For filter states and coefficients that the 32-bit formats cannot
/// hold: a low-pass filter with a 3 s time constant at 286 Hz moves its state by 0.1 % of the
/// input's difference per sample, far below one Q16.16 step for small differences, so a
/// 32-bit state would stall short of its input (a bias, not noise).
///
/// Products go through an exact 128-bit intermediate and round half up (add 2³¹, shift): a tie
/// is a 1-in-2³² event, so the bias is negligible. Sums wrap like Int64: callers keep values
/// far inside ±2³¹ (sensor values in SI units, unit quaternions, angles).
public struct Q32_32: Sendable, BitwiseCopyable, Hashable, Comparable {
    public static let fractionBits = 32
    public var rawValue: Int64

    @inlinable public init(rawValue: Int64) { self.rawValue = rawValue }

    public static let zero = Q32_32(rawValue: 0)
    public static let one = Q32_32(rawValue: 1 << 32)

    /// The nearest value to `value` (for constants and set-up, not the per-sample path).
    @inlinable
    public init(_ value: Double) {
        let scaled = (value * 4_294_967_296).rounded()
        rawValue = scaled.isNaN ? 0 : scaled >= 9.2e18 ? .max : scaled <= -9.2e18 ? .min : Int64(scaled)
    }

    /// Exact conversions from the 32-bit formats.
    @inlinable public init(_ value: Q16_16) { rawValue = Int64(value.rawValue) << 16 }
    @inlinable public init(_ value: Q2_30) { rawValue = Int64(value.rawValue) << 2 }
    @inlinable public init(_ value: Q24_8) { rawValue = Int64(value.rawValue) << 24 }

    /// Nearest Q16.16 / Q2.30, saturating.
    @inlinable public var q16_16: Q16_16 { Q16_16(rawValue: .saturating(rawValue.shiftedRightRoundingToNearestEven(by: 16))) }
    @inlinable public var q2_30: Q2_30 { Q2_30(rawValue: .saturating(rawValue.shiftedRightRoundingToNearestEven(by: 2))) }

    @inlinable
    public var doubleValue: Double { Double(rawValue) * 0x1p-32 }

    @inlinable public static func < (lhs: Q32_32, rhs: Q32_32) -> Bool { lhs.rawValue < rhs.rawValue }
    @inlinable public static func + (lhs: Q32_32, rhs: Q32_32) -> Q32_32 { Q32_32(rawValue: lhs.rawValue &+ rhs.rawValue) }
    @inlinable public static func - (lhs: Q32_32, rhs: Q32_32) -> Q32_32 { Q32_32(rawValue: lhs.rawValue &- rhs.rawValue) }
    @inlinable public static prefix func - (value: Q32_32) -> Q32_32 { Q32_32(rawValue: 0 &- value.rawValue) }

    /// `lhs × rhs`, rounded to nearest (ties up), through an exact 128-bit product.
    @inlinable
    public static func * (lhs: Q32_32, rhs: Q32_32) -> Q32_32 {
        let product = Int128(lhs.rawValue) * Int128(rhs.rawValue)
        return Q32_32(rawValue: Int64(truncatingIfNeeded: (product + (1 << 31)) >> 32))
    }

    /// × 2ⁿ / ÷ 2ⁿ, exact / rounded.
    @inlinable public func timesPowerOfTwo(_ exponent: Int) -> Q32_32 {
        exponent >= 0 ? Q32_32(rawValue: rawValue << exponent) : Q32_32(rawValue: rawValue.shiftedRightRoundingToNearestEven(by: Int64(-exponent)))
    }

    /// 1/√x for x > 0 (0 for x ≤ 0): Newton's iteration y ← y (3 − x y²) / 2 from a
    /// power-of-two seed within a factor √2 of the answer (relative error ≤ 0.42), six steps:
    /// the error squares each step (0.42 → 0.26 → 0.10 → 0.015 → 3 × 10⁻⁴ → 10⁻⁷ → 2 × 10⁻¹⁴),
    /// so what remains is rounding: a few units of 2⁻³² relative to y.
    @inlinable
    public var reciprocalSquareRoot: Q32_32 {
        guard rawValue > 0 else { return .zero }
        // x = raw × 2⁻³² lies in [2^e, 2^(e+1)) with e = ⌊log₂ x⌋; then 1/√x lies in
        // (2^(−(e+1)/2), 2^(−e/2)], and the seed 2^(−⌈e/2⌉) is within a factor √2 of it.
        let exponent = 63 - rawValue.leadingZeroBitCount - 32
        let seedExponent = -((exponent + 1) >> 1)
        var y = Q32_32(rawValue: seedExponent >= -32 && seedExponent <= 30 ? Int64(1) << (32 + seedExponent) : 1)
        let threeHalves = Q32_32(rawValue: 3 << 31)
        let half = Q32_32(rawValue: 1 << 31)
        for _ in 0..<6 { y = y * (threeHalves - half * self * y * y) }
        return y
    }

    /// √x for x ≥ 0 (0 otherwise), as x × (1/√x).
    @inlinable
    public var squareRoot: Q32_32 { self * reciprocalSquareRoot }

    /// atan2(y, x) in radians, in (−π, π] (within 3 × 10⁻⁸ rad; `Angle.arctangent2Q30`).
    @inlinable
    public static func arctangent2(y: Q32_32, x: Q32_32) -> Q32_32 {
        Q32_32(rawValue: Angle.arctangent2Q30(y: y.rawValue, x: x.rawValue) << 2)
    }

    /// sin and cos of an angle in radians (|angle| < 32768), within 4 × 10⁻⁹ plus the angle's
    /// rounding to Q16.16 (≤ 7.6 × 10⁻⁶ rad).
    @inlinable
    public static func sineCosine(_ angle: Q32_32) -> (sine: Q32_32, cosine: Q32_32) {
        let (sine, cosine) = Angle.sineCosine(of: angle.q16_16)
        return (Q32_32(sine), Q32_32(cosine))
    }
}
