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
}
