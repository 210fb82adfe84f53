import FixedPoint
import Testing

@Suite struct Q32_32Tests {
    /// 1/√x over 2⁻³⁰ … 2³¹ (every binade, several mantissas): from x = 2⁻¹⁴ up within 10⁻⁸
    /// relative or 4 units of 2⁻³², whichever is larger (a Q32.32 result carries 2⁻³² absolute
    /// resolution); below, x itself has fewer than 17 significant bits and the bound is 10⁻⁵.
    @Test func reciprocalSquareRootAcrossTheRange() {
        for exponent in -30...29 {
            for mantissa in [1.0, 1.1, 1.5, 1.99, 2.0, 2.5, 3.3, 3.999] where exponent < 29 || mantissa < 2 {
                let x = mantissa * Double(sign: .plus, exponent: exponent, significand: 1)
                let got = Q32_32(x).reciprocalSquareRoot.doubleValue
                let exact = 1 / Q32_32(x).doubleValue.squareRoot()  // of the rounded input
                let bound = exponent >= -14 ? max(1e-8 * exact, 4 * 0x1p-32) : 1e-5 * exact
                #expect(abs(got - exact) <= bound, "x = \(x) (2^\(exponent) × \(mantissa)): \(got) vs \(exact)")
            }
        }
        #expect(Q32_32.zero.reciprocalSquareRoot == .zero)
        #expect(Q32_32(-1.0).reciprocalSquareRoot == .zero)
    }

    @Test func productsRoundThroughOneHundredTwentyEightBits() {
        #expect((Q32_32(1.5) * Q32_32(-2.25)).doubleValue == -3.375)
        #expect((Q32_32(30000.0) * Q32_32(30000.0)).doubleValue == 9e8)  // beyond 64 bits mid-product
    }

    /// numerator / denominator in integer arithmetic is the number the double quotient gives
    /// (`Q32_32(Double)`, as readings and the old constants were converted) wherever its
    /// documentation promises it: |n / d| < 2²⁰ / d, for the denominators of sensor readings
    /// and of the package's constants, across that range.
    @Test func ratioRoundsAsTheDoubleQuotient() {
        for denominator: Int64 in [1, 2, 3, 4, 5, 6, 9, 10, 20, 50, 60, 100, 10_000, 100_000, 200_000, 1_000_000, 100_000_000] {
            for numerator in stride(from: -(Int64(1) << 20) + 1, to: Int64(1) << 20, by: 997) {
                let exact = Q32_32(numerator: numerator, denominator: denominator)
                let viaDouble = Q32_32(Double(numerator) / Double(denominator))
                #expect(exact == viaDouble, "\(numerator)/\(denominator): \(exact.rawValue) vs \(viaDouble.rawValue)")
            }
        }
        // The package's settings and thresholds, some beyond that range.
        let constants: [(Int64, Int64, Double)] = [(1, 6, 1.0 / 6), (1, 3, 1.0 / 3), (6, 5, 1.2), (1, 10_000, 0.0001),
            (140, 60, 140.0 / 60), (980_665, 200_000, 0.5 * 9.80665), (4 * 980_665, 1_000_000, 0.4 * 9.80665),
            (95, 100, 0.95), (49, 100, 0.49), (1, 100_000_000, 1e-8), (1, 50, 0.02)]
        for (numerator, denominator, value) in constants {
            #expect(Q32_32(numerator: numerator, denominator: denominator) == Q32_32(value), "\(numerator)/\(denominator)")
        }
        #expect(Q32_32(numerator: -1, denominator: 2).rawValue == -(1 << 31))
        #expect(Q32_32(numerator: -5, denominator: 3).rawValue == -7_158_278_827)  // −1.666… × 2³², rounded
    }

    /// 1/x is 2⁶⁴ / raw correctly rounded (checked with 128-bit arithmetic), and the constants
    /// for π and √2 are the doubles' numbers.
    @Test func reciprocalIsExactAndConstantsMatchTheDoubles() {
        for raw: Int64 in [3, 7, 1 << 31, 3 << 31, 1 << 32, 9 << 32, 100 << 32, 123_456_789_012, Int64.max] {
            let reciprocal = Q32_32(rawValue: raw).reciprocal.rawValue
            let error = Int128(reciprocal) * Int128(raw) - (Int128(1) << 64)  // raw × (q − 2⁶⁴/raw)
            #expect(2 * error <= Int128(raw) && 2 * error > -Int128(raw), "1/\(raw): \(reciprocal)")
        }
        #expect(Q32_32(integer: 9).reciprocal == Q32_32(1 / 9.0))
        #expect(Q32_32(integer: 100).reciprocal == Q32_32(1 / 100.0))
        #expect(Q32_32.zero.reciprocal.rawValue == .max)
        #expect(Q32_32.pi == Q32_32(Double.pi))
        #expect(Q32_32.squareRootOfTwo == Q32_32(2.0.squareRoot()))
        #expect(Q32_32(integer: -3) == Q32_32(-3.0))
    }
}
