extension Angle {
    /// √(1 − x²) in Q30 for x in Q30 with |x| ≤ 1 (exact: 1 − x² is computed in Q60 without
    /// rounding, then correctly rounded by the integer square root).
    @inlinable
    static func complementQ30(_ x: Int64) -> Int64 {
        let one: Int64 = 1 << 60
        return Int64(UInt64(one - x * x).roundedSquareRoot)
    }
}

/// asin(x) in radians as Q16.16, in [−π/2, π/2]; x in [−1, 1] (beyond, clamped to ±1: a
/// rounding overshoot of a sine or matrix entry, not an error). Computed as
/// atan2(x, √(1 − x²)) with an exact root, so the bound is atan2's: ≤ 0.502 LSB
/// (7.7 × 10⁻⁶ rad), checked against mpmath golden vectors (ArcsineTests).
@inlinable
public func arcsine(_ x: Q2_30) -> Q16_16 {
    let clamped = min(max(Int64(x.rawValue), -(1 << 30)), 1 << 30)
    let angle = Angle.arctangent2Q30(y: clamped, x: Angle.complementQ30(clamped))
    return Q16_16(rawValue: Int32(angle.shiftedRightRoundingToNearestEven(by: 14)))
}

/// acos(x) in radians as Q16.16, in [0, π]; x clamped to [−1, 1]. Same bound as `arcsine`.
@inlinable
public func arccosine(_ x: Q2_30) -> Q16_16 {
    let clamped = min(max(Int64(x.rawValue), -(1 << 30)), 1 << 30)
    let angle = Angle.arctangent2Q30(y: Angle.complementQ30(clamped), x: clamped)
    return Q16_16(rawValue: Int32(angle.shiftedRightRoundingToNearestEven(by: 14)))
}

/// sin and cos of an angle in Q16.16 radians, in Q2.30 (see `Angle.sineCosine(of:)`).
@inlinable
public func sineCosine(_ angle: Q16_16) -> (sine: Q2_30, cosine: Q2_30) {
    Angle.sineCosine(of: angle)
}
