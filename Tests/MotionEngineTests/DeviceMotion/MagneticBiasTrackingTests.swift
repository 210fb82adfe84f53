import FixedPoint
import MotionAlgorithms
import Testing

/// The gyroscope bias the heading's corrections teach (`MagneticBiasTracking`): the heading rate
/// it gives back does not depend on how the device is held.
@Suite struct MagneticBiasTrackingTests {
    /// The heading change over 1 s (rad) after the same corrections along `vertical` (device axes).
    static func headingRate(vertical v: (Double, Double, Double)) -> Double {
        let length = (v.0 * v.0 + v.1 * v.1 + v.2 * v.2).squareRoot()
        let vertical = FusionVector(x: Q32_32(v.0 / length), y: Q32_32(v.1 / length), z: Q32_32(v.2 / length))
        var tracking = MagneticBiasTracking<Q32_32>(settings: AttitudeFilterSettings())
        // 60 s of corrections at 50 Hz, the heading 4° short with τ = 9 s: a bias about the
        // vertical of 4°/(4τ²) × 60 s ≈ 0.74 °/s, 0.24 °/s beyond the 0.5 °/s dead band.
        for _ in 0..<3000 {
            tracking.learn(headingError: Q32_32(4 * Double.pi / 180), vertical: vertical,
                           inverseTime: Q32_32(1.0 / 9), dt: Q32_32(0.02))
        }
        return tracking.headingChange(vertical: vertical, dt: Q32_32.one).doubleValue
    }

    @Test func aPhoneAtTheEarLearnsTheSameHeadingRateAsOneLyingFlat() {
        let flat = Self.headingRate(vertical: (0, 0, 1))
        // phone_attitude's iPhone 5 at the ear: the vertical between all three axes. With the
        // dead band taken off each axis it lost 0.83 °/s of the rate instead of 0.5.
        let atTheEar = Self.headingRate(vertical: (0.64, 0.66, -0.36))
        #expect(abs(flat * 180 / .pi - 0.24) < 0.02, "the rate beyond the dead band is given back: \(flat * 180 / .pi) °/s")
        #expect(abs(atTheEar - flat) * 180 / .pi < 0.01, "flat \(flat * 180 / .pi) °/s, at the ear \(atTheEar * 180 / .pi) °/s")
    }
}
