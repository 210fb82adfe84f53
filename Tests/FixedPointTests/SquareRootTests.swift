import FixedPoint
import Testing
import TestSupport

@Suite struct SquareRootTests {
    @Test func integerSquareRootIsExactFloorOverEvery16BitValueAndEdges() {
        for value in UInt64(0)...UInt64(1 << 16) {
            let root = value.integerSquareRoot
            #expect(root * root <= value && (root + 1) * (root + 1) > value, "⌊√\(value)⌋ = \(root)")
        }
        #expect(UInt64.max.integerSquareRoot == 0xFFFF_FFFF)
        #expect((UInt64(1) << 62).integerSquareRoot == 1 << 31)
    }

    @Test func integerSquareRootOnSeededRandom64BitValues() {
        var random = SeededRandom(seed: 7)
        for _ in 0..<100_000 {
            let value = random.next() >> (random.next() % 64)
            let root = value.integerSquareRoot
            // (root + 1)² may overflow only for root = 2³² − 1, where it exceeds every UInt64.
            let next = root + 1
            let nextSquareExceeds = next.multipliedReportingOverflow(by: next).overflow || next * next > value
            #expect(root * root <= value && nextSquareExceeds, "⌊√0x\(String(value, radix: 16))⌋ = 0x\(String(root, radix: 16))")
        }
    }

    @Test func q16SquareRootIsWithinHalfAnLSBOverEvery16BitRawValueAndSeededRandom() {
        // Oracle: Double's correctly rounded sqrt of the exact value; error in LSB must be ≤ ½
        // (+ 2⁻²⁰ for Double's own rounding of the oracle).
        var worst = 0.0
        var random = SeededRandom(seed: 11)
        var raws = Array(Int32(0)...Int32(65536))
        for _ in 0..<100_000 { raws.append(Int32(truncatingIfNeeded: random.next() & 0x7FFF_FFFF)) }
        raws.append(.max)
        for raw in raws {
            let exact = (Double(raw) / 65536).squareRoot() * 65536
            let error = abs(Double(Q16_16(rawValue: raw).squareRoot.rawValue) - exact)
            worst = max(worst, error)
        }
        #expect(worst <= 0.5 + 1e-6, "worst error \(worst) LSB")
        #expect(Q16_16(-4.0).squareRoot == .zero)
    }

    @Test func vectorLengthIsCorrectlyRounded() {
        var random = SeededRandom(seed: 13)
        var worst = 0.0
        for _ in 0..<100_000 {
            let v = Vector3(x: Q16_16(rawValue: Int32(truncatingIfNeeded: random.next()) >> 8),
                            y: Q16_16(rawValue: Int32(truncatingIfNeeded: random.next()) >> 8),
                            z: Q16_16(rawValue: Int32(truncatingIfNeeded: random.next()) >> 8))
            let x = Double(v.x.rawValue), y = Double(v.y.rawValue), z = Double(v.z.rawValue)
            worst = max(worst, abs(Double(v.length.rawValue) - (x * x + y * y + z * z).squareRoot()))
        }
        #expect(worst <= 0.5 + 1e-6, "worst error \(worst) LSB")
        // 3-4-12-13 exactly; saturating beyond range.
        #expect(Vector3(x: Q16_16(3.0), y: Q16_16(4.0), z: Q16_16(12.0)).length == Q16_16(13.0))
        #expect(Vector3(x: .max, y: .max, z: .max).length == .max)
    }
}
