/// Arctangent in integer arithmetic. Angles are computed internally as Int64 radians with 30
/// fraction bits ("Q30 radians": π = 3 373 259 426) and rounded once at the end.
public enum Angle {
    /// π/4, π/2 and π in Q30 radians, rounded to nearest (error ≤ ½ × 2⁻³⁰ rad each).
    public static let quarterPiQ30: Int64 = 843_314_857
    public static let halfPiQ30: Int64 = 1_686_629_713
    public static let piQ30: Int64 = 3_373_259_426
    /// tan(π/8) = √2 − 1 in Q30: above it the argument is reduced (see `arctangentQ30`).
    @usableFromInline static let tanEighthPiQ30: Int64 = 444_758_426

    /// atan(t) for t in [0, 1] given in Q30 (0...2³⁰), result in Q30 radians.
    ///
    /// For t > tan(π/8), atan t = π/4 + atan((t − 1)/(t + 1)) brings the argument to
    /// |u| ≤ tan(π/8) ≈ 0.4142; there `seriesQ30` finishes (within 6 × 10⁻⁹ rad of atan t, the reduction's rounding included).
    @inlinable
    public static func arctangentQ30(ofUnitRatio t: Int64) -> Int64 {
        let one: Int64 = 1 << 30
        // u = (t − 1)/(t + 1) in Q30, rounded to nearest: |numerator| < 2³⁰, so the
        // shifted numerator is < 2⁶⁰; the divisor is in (2³⁰, 2³¹].
        let (base, u) = t > tanEighthPiQ30 ? (quarterPiQ30, roundedQuotient(t - one, t + one)) : (0, t)
        return base + seriesQ30(u)
    }

    /// atan(u) in Q30 radians for |u| ≤ tan(π/8) ≈ 0.4142 in Q30: u × P(u²), P of degree 4
    /// fitted minimax to atan(u)/u on that interval (Lawson's iteration, coefficients rounded to
    /// Q30): within 3.5 × 10⁻⁹ rad of atan u before rounding, where the Taylor series needs
    /// terms through u¹⁵ (8 Horner steps, not 5) to come within 2 × 10⁻⁸. Each step rounds
    /// once (half up, ≤ ½ × 2⁻³⁰: ties to even would cost four more instructions a step for a
    /// tie that comes once in 2³⁰); measured over 600 000 arguments of both signs against mpmath,
    /// the result is within 4.3 × 10⁻⁹ rad of atan u (the Taylor series' was 1.6 × 10⁻⁸).
    /// `tools/golden/fit_arctangent_series.py` reproduces the coefficients and that bound.
    // One copy, called once by each arctangent (a 32-bit core's 64-bit products make it large).
    @inlinable
    static func seriesQ30(_ u: Int64) -> Int64 {
        func rounded(_ product: Int64) -> Int64 { (product + (1 << 29)) >> 30 }
        let u2 = rounded(u * u)  // u² ≤ 0.18: < 2³⁰
        // Horner on P, its minimax coefficients in Q30 (near the Taylor series' 1/(2k+1)).
        var sum: Int64 = 83_049_219                // ≈ 1/9
        sum = rounded(sum * u2) - 147_691_190      // ≈ −1/7
        sum = rounded(sum * u2) + 214_339_979      // ≈ 1/5
        sum = rounded(sum * u2) - 357_901_817      // ≈ −1/3
        sum = rounded(sum * u2) + 1_073_741_723    // ≈ 1
        return rounded(sum * u)
    }

    /// numerator × 2³⁰ / denominator rounded to nearest (ties away from zero), for
    /// |numerator| < 2³³ and 0 < denominator.
    @inlinable @inline(__always)
    static func roundedQuotient(_ numerator: Int64, _ denominator: Int64) -> Int64 {
        let shifted = numerator << 30
        return (shifted + (shifted >= 0 ? denominator / 2 : -denominator / 2)) / denominator
    }

    /// atan2(y, x) in Q30 radians, in (−π, π], for any two integers at a common scale (the
    /// raw values of two Q16.16 or two Q2.30 numbers, or any Int64 up to ±2⁶²). atan2(0, 0) = 0.
    @inlinable
    public static func arctangent2Q30(y: Int64, x: Int64) -> Int64 {
        if x == 0 && y == 0 { return 0 }
        let ax = x.magnitude, ay = y.magnitude
        // atan of the smaller over the larger magnitude, in [0, π/4]. Both are scaled down
        // together first if shifting by 30 could overflow (below 2³³ each).
        var small = min(ax, ay), large = max(ax, ay)
        while large >= 1 << 33 { small >>= 1; large >>= 1 }
        // Above tan(π/8): π/4 + atan((s − l)/(s + l)), that argument from the magnitudes
        // directly (one division, not the ratio's and then the reduction's).
        let reduced = small << 30 > UInt64(tanEighthPiQ30) * large
        let (base, u) = reduced ? (quarterPiQ30, roundedQuotient(Int64(small) - Int64(large), Int64(small + large)))
                                : (0, roundedQuotient(Int64(small), Int64(large)))
        var angle = base + seriesQ30(u)
        if ay > ax { angle = halfPiQ30 - angle }
        if x < 0 { angle = piQ30 - angle }
        return y < 0 ? -angle : angle
    }
}

/// atan2(y, x) in radians as Q16.16, in [−π, π], rounded to nearest: error ≤ 0.5 LSB + 6 × 10⁻⁹
/// rad ≈ 0.5004 LSB (7.6 × 10⁻⁶ rad, 0.00044°), checked against Double and mpmath golden
/// vectors (ArctangentTests). `y` and `x` may be at any common scale.
@inlinable
public func arctangent2(y: Q16_16, x: Q16_16) -> Q16_16 {
    let angle = Angle.arctangent2Q30(y: Int64(y.rawValue), x: Int64(x.rawValue))
    return Q16_16(rawValue: Int32(angle.shiftedRightRoundingToNearestEven(by: 14)))
}

/// atan2 of two Q2.30 values (unit-vector or rotation-matrix components), same bound.
@inlinable
public func arctangent2(y: Q2_30, x: Q2_30) -> Q16_16 {
    let angle = Angle.arctangent2Q30(y: Int64(y.rawValue), x: Int64(x.rawValue))
    return Q16_16(rawValue: Int32(angle.shiftedRightRoundingToNearestEven(by: 14)))
}
