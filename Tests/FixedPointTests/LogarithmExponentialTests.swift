import FixedPoint
import Foundation
import Testing
import TestSupport

/// Q32.32's ln and exp against Double's, over the ranges the barometric formula uses and beyond.
@Suite struct LogarithmExponentialTests {
    @Test func logarithmIsWithinEightUnitsOfTwoToTheMinus32() {
        var worst = 0.0
        var random = SeededRandom(seed: 23)
        var values: [Int64] = [1 << 16, 1 << 32, (1 << 32) + 1, (1 << 33) - 1, 101_325 << 32, 22_632 << 32, Int64.max]
        for _ in 0..<100_000 { values.append(Int64(random.next() >> (1 + random.next() % 48)) | 1 << 16) }
        for raw in values {
            let exact = log(Double(raw) * 0x1p-32)
            let error = abs(Q32_32(rawValue: raw).naturalLogarithm.doubleValue - exact)
            worst = max(worst, error)
        }
        #expect(worst <= 2e-9, "worst error \(worst)")
    }

    @Test func logarithmOfGoldenValues() {
        #expect(Q32_32.one.naturalLogarithm == .zero)
        #expect(abs(Q32_32(2.0).naturalLogarithm.doubleValue - 0.693_147_180_56) < 2e-9)
        #expect(abs(Q32_32(101_325.0).naturalLogarithm.doubleValue - 11.526_088_451_497) < 2e-9)
        // ln of zero or a negative number: the most negative value, never a crash.
        #expect(Q32_32.zero.naturalLogarithm.rawValue == .min)
        #expect(Q32_32(-3.0).naturalLogarithm.rawValue == .min)
    }

    @Test func exponentialIsWithinTwoPartsInABillionOrTwoUnits() {
        var worst = 0.0
        var random = SeededRandom(seed: 29)
        var values: [Double] = [0, 1, -1, 0.5, -0.5, 20, -20, 21]
        for _ in 0..<100_000 { values.append((Double(random.next() % 4_000_001) / 100_000) - 20) }
        for x in values {
            let exact = exp(Q32_32(x).doubleValue)  // of the argument as Q32.32 holds it
            let got = Q32_32(x).exponential.doubleValue
            // Relative 2 × 10⁻⁹, or two units of 2⁻³² where the result itself has few bits.
            let error = abs(got - exact) / max(exact * 2e-9, 2 * 0x1p-32)
            worst = max(worst, error)
        }
        #expect(worst <= 1, "worst error \(worst) of the bound")
    }

    @Test func exponentialSaturatesInsteadOfOverflowing() {
        #expect(Q32_32(25.0).exponential.rawValue == .max)
        #expect(Q32_32(-30.0).exponential == .zero)
        #expect(Q32_32.zero.exponential == .one)
    }
}
