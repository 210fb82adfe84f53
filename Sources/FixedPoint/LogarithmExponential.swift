/// Natural logarithm and exponential in Q32.32, for the barometric formula's power
/// (p/p₀)^0.190263 = exp(0.190263 ln(p/p₀)). Integer shifts, multiplies and a few divisions;
/// no table, no allocation. Accuracy (LogarithmExponentialTests): within 2 × 10⁻⁹ absolute
/// (8 units of 2⁻³², from rounding z and the series' terms) for ln over 2⁻¹⁶…2³¹, and 2 × 10⁻⁹
/// relative or 2 units of 2⁻³² for exp over −20…21: for the barometric formula, 10⁻⁵ m.
extension Q32_32 {
    /// ln 2 × 2⁶⁴, split into Q32.32's raw value (the high word) and 32 more bits (the low
    /// word), so that n ln 2 keeps 2⁻³² accuracy for every exponent n a Q32.32 value has.
    @usableFromInline static let ln2High: Int64 = 0xB172_17F7
    @usableFromInline static let ln2Low: Int64 = 0xD1CF_79AB

    /// n × ln 2, rounded to 2⁻³².
    @inlinable static func timesLn2(_ n: Int64) -> Q32_32 {
        Q32_32(rawValue: n * ln2High + ((n * ln2Low + (1 << 31)) >> 32))
    }

    /// ln x for x > 0 (the most negative representable value for x ≤ 0, as ln 0 = −∞).
    ///
    /// x = m × 2ⁿ with m in [1, 2): ln x = n ln 2 + ln m, and ln m = 2 atanh z = 2 (z + z³/3 +
    /// z⁵/5 + …) with z = (m − 1)/(m + 1) ≤ 1/3: eleven terms leave under 10⁻¹¹.
    public var naturalLogarithm: Q32_32 {
        guard rawValue > 0 else { return Q32_32(rawValue: .min) }
        let topBit = 63 - rawValue.leadingZeroBitCount          // x's raw value in [2^topBit, 2^(topBit+1))
        let n = topBit - Self.fractionBits
        let mantissa = n >= 0 ? rawValue >> n : rawValue << -n   // m in Q32.32, in [1, 2)
        let numerator = UInt64(mantissa - Q32_32.one.rawValue)   // < 2³²
        let denominator = UInt64(mantissa + Q32_32.one.rawValue) // < 3 × 2³²
        // z = (m − 1)/(m + 1) in Q32.32, rounded: the numerator shifted by 32 still fits 64 bits
        // (adding half the denominator first might not).
        let (quotient, remainder) = (numerator << 32).quotientAndRemainder(dividingBy: denominator)
        let z = Q32_32(rawValue: Int64(quotient + (remainder >= denominator - remainder ? 1 : 0)))
        let zSquared = z * z
        var power = z
        var sum = z
        for k in 1...11 {
            power = power * zSquared
            let divisor = Int64(2 * k + 1)
            sum = sum + Q32_32(rawValue: (power.rawValue + divisor / 2) / divisor)  // rounded (terms are ≥ 0)
        }
        return Self.timesLn2(Int64(n)) + sum.timesPowerOfTwo(1)
    }

    /// eˣ, saturating at the largest Q32.32 value above x ≈ 21.1 and 0 below x ≈ −22.2.
    ///
    /// x = n ln 2 + r with |r| ≤ ln 2 / 2: eˣ = 2ⁿ eʳ, eʳ by its Taylor series (14 terms: under
    /// 10⁻¹⁵ for |r| ≤ 0.35), then a shift.
    public var exponential: Q32_32 {
        let ln2 = Q32_32(rawValue: Self.ln2High)
        // n = round(x / ln 2).
        let n = (rawValue + (rawValue >= 0 ? ln2.rawValue / 2 : -ln2.rawValue / 2)) / ln2.rawValue
        if n > 30 { return Q32_32(rawValue: .max) }
        if n < -33 { return .zero }
        let r = self - Self.timesLn2(n)
        var term = Q32_32.one
        var sum = Q32_32.one
        for k in 1...14 {
            let product = (term * r).rawValue
            term = Q32_32(rawValue: (product + (product >= 0 ? Int64(k) / 2 : -Int64(k) / 2)) / Int64(k))  // rounded
            sum = sum + term
        }
        return sum.timesPowerOfTwo(Int(n))
    }
}
