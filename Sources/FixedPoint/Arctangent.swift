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
    /// |u| ≤ tan(π/8) ≈ 0.4142; there the Taylor series u − u³/3 + u⁵/5 − … through u¹⁵ leaves a
    /// truncation error below u¹⁷/17 < 2 × 10⁻⁸ rad. Each of the 8 Horner steps rounds once
    /// (≤ ½ × 2⁻³⁰), so the result is within about 3 × 10⁻⁸ rad of atan t.
    @inlinable
    public static func arctangentQ30(ofUnitRatio t: Int64) -> Int64 {
        let one: Int64 = 1 << 30
        var base: Int64 = 0
        var u = t
        if t > tanEighthPiQ30 {
            // u = (t − 1)/(t + 1) in Q30, rounded to nearest: |numerator| < 2³⁰, so the
            // shifted numerator is < 2⁶⁰; the divisor is in (2³⁰, 2³¹].
            let numerator = (t - one) << 30
            let denominator = t + one
            u = (numerator + (numerator >= 0 ? denominator / 2 : -denominator / 2)) / denominator
            base = quarterPiQ30
        }
        let u2 = (u * u).shiftedRightRoundingToNearestEven(by: 30)  // u² ≤ 0.18: < 2³⁰
        // Horner on 1 − u²/3 + u⁴/5 − … − u¹⁴/15, coefficients 1/(2k+1) in Q30.
        var sum: Int64 = -71_582_788  // −1/15
        sum = (sum * u2).shiftedRightRoundingToNearestEven(by: 30) + 82_595_525   // 1/13
        sum = (sum * u2).shiftedRightRoundingToNearestEven(by: 30) - 97_612_893   // 1/11
        sum = (sum * u2).shiftedRightRoundingToNearestEven(by: 30) + 119_304_647  // 1/9
        sum = (sum * u2).shiftedRightRoundingToNearestEven(by: 30) - 153_391_689  // 1/7
        sum = (sum * u2).shiftedRightRoundingToNearestEven(by: 30) + 214_748_365  // 1/5
        sum = (sum * u2).shiftedRightRoundingToNearestEven(by: 30) - 357_913_941  // 1/3
        sum = (sum * u2).shiftedRightRoundingToNearestEven(by: 30) + one
        return base + (sum * u).shiftedRightRoundingToNearestEven(by: 30)
    }

    /// atan2(y, x) in Q30 radians, in (−π, π], for any two integers at a common scale (the
    /// raw values of two Q16.16 or two Q2.30 numbers, or any Int64 up to ±2⁶²). atan2(0, 0) = 0.
    @inlinable
    public static func arctangent2Q30(y: Int64, x: Int64) -> Int64 {
        if x == 0 && y == 0 { return 0 }
        let ax = x.magnitude, ay = y.magnitude
        // The ratio of the smaller to the larger magnitude, in Q30, rounded to nearest. Both
        // are scaled down together first if shifting the numerator by 30 could overflow.
        var small = min(ax, ay), large = max(ax, ay)
        while large >= 1 << 33 { small >>= 1; large >>= 1 }
        let ratio = Int64((small << 30 + large / 2) / large)
        var angle = arctangentQ30(ofUnitRatio: ratio)
        if ay > ax { angle = halfPiQ30 - angle }
        if x < 0 { angle = piQ30 - angle }
        return y < 0 ? -angle : angle
    }
}

/// atan2(y, x) in radians as Q16.16, in [−π, π], rounded to nearest: error ≤ 0.5 LSB + 3 × 10⁻⁸
/// rad ≈ 0.502 LSB (7.7 × 10⁻⁶ rad, 0.00044°), checked against Double and mpmath golden
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
