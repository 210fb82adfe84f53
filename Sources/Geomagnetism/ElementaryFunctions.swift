// Sine, cosine and arctangent in Double from the Swift standard library alone (no Glibc, no
// Foundation), so the module also builds as Embedded Swift. Angles are in degrees: the model's
// inputs and outputs are, and reducing in degrees makes multiples of 90° exact (cos 90° is exactly
// 0, which the pole handling in WorldMagneticModel relies on).
//
// Accuracy, checked in GeomagnetismTests against Glibc in Float80 over dense sweeps: sin and cos
// within 4 × 10⁻¹⁶ absolute for |angle| ≤ 720° (measured 1.1 × 10⁻¹⁶); atan2 within 10⁻¹³ degrees
// (measured 2.8 × 10⁻¹⁴°). Both are far below what
// the model needs (its published values carry 0.01° and 10⁻⁶ nT).

/// π/180 to Double precision.
let radiansPerDegree = 0.017_453_292_519_943_295

/// sin and cos of an angle in degrees, |degrees| < 10¹⁵ (the callers pass at most 12 × 360°).
///
/// The angle is reduced to r in [−45°, 45°] around the nearest multiple k of 90°, exactly (the
/// difference lies on the input's ulp grid and is smaller than it), converted to radians with one
/// rounding; then sin r and cos r come from
/// their Taylor series to the x¹⁷ and x¹⁸ terms, whose truncation error at |r| = π/4 is below
/// 10⁻¹⁹; the quadrant k picks and signs them.
func sineCosine(degrees: Double) -> (sine: Double, cosine: Double) {
    // Rounding through Int (half away from zero) instead of `rounded()`, which would need libm's
    // rint on soft-float embedded targets.
    let quadrant = Int(degrees / 90 + (degrees < 0 ? -0.5 : 0.5))
    let r = (degrees - Double(quadrant) * 90) * radiansPerDegree
    let r2 = r * r
    // Horner form of r − r³/3! + … − r¹⁷/17! and 1 − r²/2! + … + r¹⁸/18! (coefficients 1/n!).
    var s = -1.0 / 355_687_428_096_000.0  // −1/17!
    s = s * r2 + 1.0 / 1_307_674_368_000.0
    s = s * r2 - 1.0 / 6_227_020_800.0
    s = s * r2 + 1.0 / 39_916_800.0
    s = s * r2 - 1.0 / 362_880.0
    s = s * r2 + 1.0 / 5_040.0
    s = s * r2 - 1.0 / 120.0
    s = s * r2 + 1.0 / 6.0
    let sine = r - r * r2 * s
    var c = 1.0 / 6_402_373_705_728_000.0  // 1/18!
    c = c * r2 - 1.0 / 20_922_789_888_000.0
    c = c * r2 + 1.0 / 87_178_291_200.0
    c = c * r2 - 1.0 / 479_001_600.0
    c = c * r2 + 1.0 / 3_628_800.0
    c = c * r2 - 1.0 / 40_320.0
    c = c * r2 + 1.0 / 720.0
    c = c * r2 - 1.0 / 24.0
    c = c * r2 + 1.0 / 2.0
    let cosine = 1 - r2 * c
    switch quadrant & 3 {
    case 0: return (sine, cosine)
    case 1: return (cosine, -sine)
    case 2: return (-sine, -cosine)
    default: return (-cosine, sine)
    }
}

/// atan(x) in radians for |x| ≤ 1.
///
/// Three halvings, atan x = 2 atan(x / (1 + √(1 + x²))), bring |x| ≤ 1 down to at most
/// tan(π/32) ≈ 0.0985, where the series x − x³/3 + … − x¹⁹/19 stops short by less than 10⁻²⁰.
/// Each halving costs about one rounding of x.
func arctangentOfUnitRange(_ x: Double) -> Double {
    var u = x
    for _ in 0..<3 { u = u / (1 + (1 + u * u).squareRoot()) }
    let u2 = u * u
    var series = -1.0 / 19
    var k = 17.0
    while k >= 3 {
        series = series * u2 + (Int(k) & 2 == 0 ? 1 : -1) / k
        k -= 2
    }
    // series = −1/3 + u²/5 − …; atan u = u + u³ × series.
    return 8 * (u + u * u2 * series)
}

/// The angle of the vector (x, y) from the x axis in degrees, in (−180°, 180°]; 0 for (0, 0).
func arctangent2Degrees(y: Double, x: Double) -> Double {
    if x == 0 && y == 0 { return 0 }
    if abs(y) <= abs(x) {
        let angle = arctangentOfUnitRange(y / x) / radiansPerDegree
        if x > 0 { return angle }
        return y < 0 ? angle - 180 : angle + 180
    }
    let angle = arctangentOfUnitRange(x / y) / radiansPerDegree
    return y > 0 ? 90 - angle : -90 - angle
}
