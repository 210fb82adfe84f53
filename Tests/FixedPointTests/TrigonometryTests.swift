import FixedPoint
import Glibc
import Testing
import TestSupport

/// Dense sweeps against Double (53-bit, far finer than the LSBs measured here): the worst error
/// over the sweep must stay within the bound written in each function's doc comment.
@Suite(.blocking) struct TrigonometryTests {
    @Test func arctangent2WorstErrorMatchesItsDocumentedBound() {
        var worst = 0.0
        // Every direction on a circle of radius 2¹⁵ LSB at 2¹⁶ steps, plus seeded random pairs.
        for step in 0..<65536 {
            let angle = Double(step) / 65536 * 2 * .pi - .pi
            let y = Q16_16(rawValue: Int32((sin(angle) * 32768).rounded())), x = Q16_16(rawValue: Int32((cos(angle) * 32768).rounded()))
            let exact = atan2(Double(y.rawValue), Double(x.rawValue)) * 65536
            worst = max(worst, abs(Double(arctangent2(y: y, x: x).rawValue) - exact))
        }
        var random = SeededRandom(seed: 17)
        for _ in 0..<100_000 {
            let y = Int32(truncatingIfNeeded: random.next()), x = Int32(truncatingIfNeeded: random.next())
            let exact = atan2(Double(y), Double(x)) * 65536
            worst = max(worst, abs(Double(arctangent2(y: Q16_16(rawValue: y), x: Q16_16(rawValue: x)).rawValue) - exact))
        }
        #expect(worst <= 0.501, "worst atan2 error \(worst) LSB")
        #expect(arctangent2(y: Q16_16.zero, x: Q16_16.zero) == Q16_16.zero)
        #expect(arctangent2(y: .zero, x: Q16_16(-1.0)).rawValue == 205_887)  // π, rounded
    }

    /// The Q30 core before its rounding to Q16.16: the minimax series' bound (6 × 10⁻⁹ rad, the
    /// reduction's rounding included), which the Taylor series it replaced (1.6 × 10⁻⁸) fails.
    @Test func arctangent2Q30WorstErrorMatchesItsDocumentedBound() {
        var worst = 0.0
        func check(_ y: Int64, _ x: Int64) {
            let observed = Double(Angle.arctangent2Q30(y: y, x: x)) / 1_073_741_824
            worst = max(worst, abs(observed - atan2(Double(y), Double(x))))
        }
        for step in 0..<200_000 {  // every direction, at a radius where the inputs are exact
            let angle = Double(step) / 200_000 * 2 * .pi - .pi
            check(Int64((sin(angle) * 0x1p40).rounded()), Int64((cos(angle) * 0x1p40).rounded()))
        }
        var random = SeededRandom(seed: 29)
        for _ in 0..<100_000 { check(Int64(truncatingIfNeeded: random.next()) >> 8, Int64(truncatingIfNeeded: random.next()) >> 8) }
        #expect(worst <= 6e-9, "worst Q30 atan2 error \(worst) rad")
    }

    @Test func arcsineAndArccosineWorstErrorMatchTheirBound() {
        var worst = 0.0
        for raw in stride(from: -(1 << 30), through: 1 << 30, by: 4099) {
            let x = Double(raw) / 1_073_741_824
            worst = max(worst, abs(Double(arcsine(Q2_30(rawValue: Int32(raw))).rawValue) - asin(x) * 65536))
            worst = max(worst, abs(Double(arccosine(Q2_30(rawValue: Int32(raw))).rawValue) - acos(x) * 65536))
        }
        #expect(worst <= 0.502, "worst asin/acos error \(worst) LSB")
        // Beyond ±1 (rounding overshoot) clamps instead of failing.
        #expect(arcsine(Q2_30(1.5)) == arcsine(.one))
    }

    @Test func sineCosineWorstErrorMatchesItsBound() {
        var worst = 0.0
        for raw in stride(from: Int32.min, to: Int32.max - 9_000, by: 9_973) {
            let angle = Double(raw) / 65536
            let (sine, cosine) = sineCosine(Q16_16(rawValue: raw))
            worst = max(worst, abs(Double(sine.rawValue) - sin(angle) * 1_073_741_824))
            worst = max(worst, abs(Double(cosine.rawValue) - cos(angle) * 1_073_741_824))
        }
        #expect(worst <= 4, "worst sin/cos error \(worst) LSB of Q2.30")
    }

    @Test func reciprocalSquareRootWorstErrorOverEvery16BitValueAndRandom() {
        var worst = 0.0
        var random = SeededRandom(seed: 19)
        var raws = Array(Int32(1)...Int32(65536))
        for _ in 0..<100_000 { raws.append(Int32(truncatingIfNeeded: random.next() & 0x7FFF_FFFF) | 1) }
        for raw in raws {
            let exact = 16_777_216 / Double(raw).squareRoot()  // 2²⁴/√r
            worst = max(worst, abs(Double(Q16_16(rawValue: raw).reciprocalSquareRoot.rawValue) - exact))
        }
        #expect(worst <= 0.501, "worst rsqrt error \(worst) LSB")
        #expect(Q16_16(-1.0).reciprocalSquareRoot == .zero)
        #expect(Q16_16(4.0).reciprocalSquareRoot == Q16_16(0.5))
    }
}
