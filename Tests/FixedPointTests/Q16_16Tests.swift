import FixedPoint
import Testing
import TestSupport

@Suite(.blocking) struct Q16_16Tests {
    /// The oracle: the exact product of two Q16.16 values is (a × b) / 2³² in Double
    /// (exact: |a × b| < 2⁶² needs 62 bits, but a × b / 2¹⁶ rounded to an integer is computed
    /// here in two exact steps on Int64 halves instead of trusting Double).
    static func expectedProduct(_ a: Int32, _ b: Int32) -> Int32 {
        let product = Int64(a) * Int64(b)  // exact
        let quotient = product / 65536, remainder = product % 65536  // truncates toward zero
        // Round half to even on the exact rational quotient + remainder / 65536.
        var rounded = quotient
        let twice = 2 * abs(remainder)
        if twice > 65536 || (twice == 65536 && quotient & 1 != 0) {
            rounded += remainder > 0 ? 1 : -1
        }
        return Int32(clamping: rounded)
    }

    @Test func multiplyRoundsToNearestEvenExhaustivelyOver8BitPairs() {
        // Every pair of raw values in [−2¹⁵, 2¹⁵) stepped by 257 (≈ 65 k pairs), plus every
        // 16-bit raw value against a few fixed factors: all rounding cases occur.
        var failures = 0
        for a in stride(from: -32768, to: 32768, by: 257) {
            for b in stride(from: -32768, to: 32768, by: 251) {
                let observed = (Q16_16(rawValue: Int32(a)) * Q16_16(rawValue: Int32(b))).rawValue
                let expected = Self.expectedProduct(Int32(a), Int32(b))
                if observed != expected, failures < 5 {
                    failures += 1
                    Issue.record("0x\(String(a, radix: 16)) × 0x\(String(b, radix: 16)): expected 0x\(String(expected, radix: 16)), observed 0x\(String(observed, radix: 16))")
                }
            }
        }
        for a in Int32(Int16.min)...Int32(Int16.max) {
            for factor: Int32 in [1, 32768, 98304, -32768, 0x7FFF_FFFF] {
                let observed = (Q16_16(rawValue: a) * Q16_16(rawValue: factor)).rawValue
                #expect(observed == Self.expectedProduct(a, factor), "0x\(String(a, radix: 16)) × 0x\(String(factor, radix: 16))")
            }
        }
    }

    @Test func multiplyMatchesTheOracleOnSeededRandom32BitValues() {
        var random = SeededRandom(seed: 0x0123_4567)
        for _ in 0..<200_000 {
            let a = Int32(truncatingIfNeeded: random.next()), b = Int32(truncatingIfNeeded: random.next())
            let observed = (Q16_16(rawValue: a) * Q16_16(rawValue: b)).rawValue
            let expected = Self.expectedProduct(a, b)
            guard observed == expected else {
                Issue.record("0x\(String(a, radix: 16)) × 0x\(String(b, radix: 16)): expected 0x\(String(expected, radix: 16)), observed 0x\(String(observed, radix: 16))")
                return
            }
        }
    }

    @Test func tiesRoundToEven() {
        // 0.5 LSB results: 1 × 0.5 LSB... raw 1 × raw 32768 = 32768 / 65536 = 0.5 → 0 (even);
        // raw 3 × raw 32768 = 1.5 → 2 (even); negative mirrors.
        #expect((Q16_16(rawValue: 1) * Q16_16(rawValue: 32768)).rawValue == 0)
        #expect((Q16_16(rawValue: 3) * Q16_16(rawValue: 32768)).rawValue == 2)
        #expect((Q16_16(rawValue: -3) * Q16_16(rawValue: 32768)).rawValue == -2)
        #expect((Q16_16(rawValue: -1) * Q16_16(rawValue: 32768)).rawValue == 0)
    }

    @Test func addSubtractNegateSaturate() {
        #expect((Q16_16.max + Q16_16(rawValue: 1)) == .max)
        #expect((Q16_16.min - Q16_16(rawValue: 1)) == .min)
        #expect((-Q16_16.min) == .max)
        #expect((Q16_16(1.5) + Q16_16(-0.25)) == Q16_16(1.25))
        #expect((Q16_16.max * Q16_16(2.0)) == .max)
        #expect((Q16_16.max * Q16_16(-2.0)) == .min)
    }

    @Test func doubleConversionRoundsTiesToEvenAndSaturates() {
        #expect(Q16_16(1.0).rawValue == 65536)
        #expect(Q16_16(0.5 / 65536).rawValue == 0)           // half an LSB → even (0)
        #expect(Q16_16(1.5 / 65536).rawValue == 2)           // 1.5 LSB → even (2)
        #expect(Q16_16(-1.5 / 65536).rawValue == -2)
        #expect(Q16_16(40_000.0) == .max)
        #expect(Q16_16(-40_000.0) == .min)
        #expect(Q16_16(Double.infinity) == .max)
        #expect(Q16_16(Double.nan) == .zero)
        #expect(Q16_16(rawValue: 123_456).doubleValue == 123_456.0 / 65536)
        #expect(Q16_16(integer: 40_000) == .max)
        #expect(Q16_16(integer: -3).rawValue == -3 * 65536)
    }
}
