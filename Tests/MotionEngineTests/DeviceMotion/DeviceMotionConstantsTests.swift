import FixedPoint
@testable import MotionEngine
import Testing

/// The device-motion output's constants are raw literals (no lazy initialiser on the per-sample
/// path): they must be the values they stand for, rounded as `Q32_32(Double)` rounds.
@Suite struct DeviceMotionConstantsTests {
    @Test func outputConstantsAreTheRoundedValues() {
        #expect(DeviceMotionEstimator.minusInverseStandardGravity == Q32_32(-1 / 9.80665))
        #expect(DeviceMotionEstimator.degreesPerRadian == Q32_32(180 / Double.pi))
        #expect(DeviceMotionEstimator.fullTurnDegrees == Q32_32(360.0))
        #expect(DeviceMotionEstimator.noHeading == Q16_16(-1.0))
    }
}
