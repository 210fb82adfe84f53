import FixedPoint
import Testing

/// The FixedPoint functions against mpmath's correctly rounded results
/// (tools/golden/generate_fixed_point_golden.py). Tolerances follow from each function's
/// documented bound: a result within b LSB of the true value is within ⌊b + ½⌋ LSB of the
/// correctly rounded one.
@Suite struct GoldenVectorTests {
    static func hex(_ value: Int32) -> String { "0x" + String(UInt32(bitPattern: value), radix: 16) }

    @Test func arctangent2WithinOneLSB() {  // bound 0.502 LSB → ≤ 1
        for (y, x, expected) in GoldenVectors.arctangent2 {
            let observed = arctangent2(y: Q16_16(rawValue: y), x: Q16_16(rawValue: x)).rawValue
            #expect(abs(Int64(observed) - Int64(expected)) <= 1,
                    "atan2(\(Self.hex(y)), \(Self.hex(x))): expected \(Self.hex(expected)), observed \(Self.hex(observed))")
        }
    }

    @Test func arcsineWithinOneLSB() {  // bound 0.502 LSB → ≤ 1
        for (x, expected) in GoldenVectors.arcsine {
            let observed = arcsine(Q2_30(rawValue: x)).rawValue
            #expect(abs(Int64(observed) - Int64(expected)) <= 1,
                    "asin(\(Self.hex(x))): expected \(Self.hex(expected)), observed \(Self.hex(observed))")
        }
    }

    @Test func sineCosineWithinFourLSB() {  // bound 4 × 2⁻³⁰ → ≤ 4 LSB of Q2.30
        for (angle, expectedSine, expectedCosine) in GoldenVectors.sineCosine {
            let (sine, cosine) = sineCosine(Q16_16(rawValue: angle))
            #expect(abs(Int64(sine.rawValue) - Int64(expectedSine)) <= 4,
                    "sin(\(Self.hex(angle))): expected \(Self.hex(expectedSine)), observed \(Self.hex(sine.rawValue))")
            #expect(abs(Int64(cosine.rawValue) - Int64(expectedCosine)) <= 4,
                    "cos(\(Self.hex(angle))): expected \(Self.hex(expectedCosine)), observed \(Self.hex(cosine.rawValue))")
        }
    }

    @Test func squareRootExactAndReciprocalWithinOneLSB() {
        for (x, expectedRoot, expectedReciprocal) in GoldenVectors.squareRoots {
            let value = Q16_16(rawValue: x)
            #expect(value.squareRoot.rawValue == expectedRoot, "√\(Self.hex(x))")  // correctly rounded
            #expect(abs(Int64(value.reciprocalSquareRoot.rawValue) - Int64(expectedReciprocal)) <= 1,
                    "1/√\(Self.hex(x)): expected \(Self.hex(expectedReciprocal)), observed \(Self.hex(value.reciprocalSquareRoot.rawValue))")
        }
    }
}
