@testable import Geomagnetism
import Glibc
import Testing
import TestSupport

/// The module's own sin, cos and atan2 (it may not use Glibc) against Glibc's, in Float80 where
/// the platform has it so that the reference's own rounding does not count.
@Suite(.blocking) struct ElementaryFunctionsTests {
    @Test func sineCosineOfDegrees() {
        var worst = 0.0
        var degrees = -720.0
        while degrees <= 720 {
            let (sine, cosine) = sineCosine(degrees: degrees)
            let (exactSine, exactCosine) = Self.reference(degrees: degrees)
            worst = max(worst, abs(sine - exactSine), abs(cosine - exactCosine))
            degrees += 0.012_345_678_9
        }
        #expect(worst <= 4e-16 + Self.referenceError, "worst sin/cos error \(worst)")
        // Multiples of 90° are exact: the pole handling relies on cos 90° == 0.
        #expect(sineCosine(degrees: 90) == (1, 0))
        #expect(sineCosine(degrees: -90) == (-1, 0))
        #expect(sineCosine(degrees: 180) == (0, -1))
        #expect(sineCosine(degrees: 0) == (0, 1))
    }

    @Test func arctangent2InDegrees() {
        var worst = 0.0
        for step in 0..<100_000 {
            let angle = Double(step) / 100_000 * 360 - 180
            let (sine, cosine) = Self.reference(degrees: angle)
            for scale in [1e-3, 1.0, 5e4] {
                let (y, x) = (sine * scale, cosine * scale)
                worst = max(worst, abs(arctangent2Degrees(y: y, x: x) - Self.referenceArctangent2Degrees(y: y, x: x)))
            }
        }
        #expect(worst <= 1e-13 + 100 * Self.referenceError, "worst atan2 error \(worst)°")
        #expect(arctangent2Degrees(y: 0, x: 0) == 0)
        #expect(arctangent2Degrees(y: 0, x: -1) == 180)
        #expect(arctangent2Degrees(y: 1, x: 0) == 90)
        #expect(arctangent2Degrees(y: -1, x: 0) == -90)
    }

    #if arch(x86_64)
    /// Float80's 64-bit significand makes the reference exact at Double's precision.
    static let referenceError = 0.0

    static func reference(degrees: Double) -> (Double, Double) {
        let radians = Float80(degrees) * Float80.pi / 180
        return (Double(sinl(radians)), Double(cosl(radians)))
    }

    static func referenceArctangent2Degrees(y: Double, x: Double) -> Double {
        Double(atan2l(Float80(y), Float80(x)) * 180 / Float80.pi)
    }
    #else
    /// In Double, converting degrees to radians alone costs up to about 2 × 10⁻¹⁵ at 720°.
    static let referenceError = 2e-15

    static func reference(degrees: Double) -> (Double, Double) {
        let radians = degrees * .pi / 180
        return (sin(radians), cos(radians))
    }

    static func referenceArctangent2Degrees(y: Double, x: Double) -> Double { atan2(y, x) * 180 / .pi }
    #endif
}
