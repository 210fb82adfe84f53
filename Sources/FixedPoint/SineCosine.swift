extension Angle {
    /// π/2 in radians with 46 fraction bits, for exact argument reduction (error ≤ 2⁻⁴⁷ rad,
    /// so even k = 20 861 quarter turns (32768 rad) move the reduced angle by < 1.5 × 10⁻¹⁰).
    @usableFromInline static let halfPiQ46: Int64 = 110_534_964_875_444

    /// sin and cos of an angle in Q16.16 radians (any value in the Q16.16 range), both in Q2.30.
    ///
    /// Reduced exactly (Q46) to r in [−π/4, π/4] plus a quarter-turn count; there the Taylor
    /// series through r¹¹ (sin) and r¹² (cos) truncate below 0.786¹³/13! < 7 × 10⁻¹² and
    /// 0.786¹⁴/14! < 4 × 10⁻¹³. With ≤ 7 roundings of ½ × 2⁻³⁰ in Horner, results are within
    /// 4 × 2⁻³⁰ (3.7 × 10⁻⁹) of the true values, checked against mpmath (SineCosineTests).
    @inlinable
    public static func sineCosine(of angle: Q16_16) -> (sine: Q2_30, cosine: Q2_30) {
        let theta = Int64(angle.rawValue) << 30  // Q46, |θ| < 2⁶¹
        // k = round(θ / (π/2)): the nearest quarter turn.
        let k = (theta + (theta >= 0 ? halfPiQ46 / 2 : -halfPiQ46 / 2)) / halfPiQ46
        let reduced = (theta - k * halfPiQ46).shiftedRightRoundingToNearestEven(by: 16)  // Q30, |r| ≤ π/4
        let r2 = (reduced * reduced).shiftedRightRoundingToNearestEven(by: 30)
        func step(_ sum: Int64, _ coefficient: Int64) -> Int64 {
            (sum * r2).shiftedRightRoundingToNearestEven(by: 30) + coefficient
        }
        // sin r = r(1 − r²/3! + r⁴/5! − r⁶/7! + r⁸/9! − r¹⁰/11!), coefficients in Q30.
        let sinePolynomial = step(step(step(step(step(-27, 2_959), -213_044), 8_947_849), -178_956_971), 1 << 30)
        let sine = (sinePolynomial * reduced).shiftedRightRoundingToNearestEven(by: 30)
        // cos r = 1 − r²/2! + r⁴/4! − r⁶/6! + r⁸/8! − r¹⁰/10! + r¹²/12!.
        let cosine = step(step(step(step(step(step(2, -296), 26_631), -1_491_308), 44_739_243), -536_870_912), 1 << 30)
        let (s, c): (Int64, Int64)
        switch k & 3 {  // k mod 4, also for negative k (two's complement)
        case 0: (s, c) = (sine, cosine)
        case 1: (s, c) = (cosine, -sine)
        case 2: (s, c) = (-sine, -cosine)
        default: (s, c) = (-cosine, sine)
        }
        return (Q2_30(rawValue: Int32(s)), Q2_30(rawValue: Int32(c)))
    }
}
