import FixedPoint
import MotionAlgorithms
import MotionEngine
import Testing

/// A stored magnetometer offset that no longer gives back the field strength it left when it was
/// saved has moved (a phone's offset between uses, a board put in a case): the next start
/// relearns it as a new device's instead of trusting it to 5 µT (`DeviceMotionEstimator`).
@Suite struct StoredOffsetCheckTests {
    /// The board's own hard iron today, µT, device axes, and the Earth's field where it is used
    /// (device lying flat, x north: 20 µT north, 44 µT down; 48.3 µT).
    static let hardIron = (x: 100.0, y: 50.0, z: -30.0)
    static let earth = (x: 20.0, y: 0.0, z: -44.0)
    static let strength = (20.0 * 20 + 44 * 44).squareRoot()

    /// The estimator's offset uncertainty (1σ, µT) after the first samples of a device lying
    /// still, started from `calibration`.
    static func uncertaintyAfterStart(_ calibration: BoardCalibration) -> Double {
        var estimator = DeviceMotionEstimator(frame: .xMagneticNorthZVertical, calibration: calibration)
        let readings: [SensorValue] = [
            .acceleration(Vector3(x: Q16_16(0.0), y: Q16_16(0.0), z: Q16_16(9.81))),
            .angularVelocity(Vector3(x: Q16_16(0.0), y: Q16_16(0.0), z: Q16_16(0.0))),
            .magneticField(Vector3(x: Q16_16(earth.x + hardIron.x), y: Q16_16(earth.y + hardIron.y), z: Q16_16(earth.z + hardIron.z))),
        ]
        for (index, value) in readings.enumerated() {
            _ = estimator.process(SensorReading(timestampNanoseconds: Int64(index) * 1_000_000, value: value))
        }
        return estimator.filter.magnetometerOffsetUncertainty
    }

    @Test func anOffsetThatStillGivesTheFieldBackIsTrustedAsStored() {
        // 2 µT off today's: the field it leaves is within a few per cent of the stored strength.
        let stored = BoardCalibration(magnetometerOffset: [Self.hardIron.x + 2, Self.hardIron.y - 1, Self.hardIron.z + 1], magneticFieldStrength: Self.strength)
        #expect(abs(Self.uncertaintyAfterStart(stored) - 5) < 0.01)
    }

    @Test func anOffsetThatHasMovedIsRelearnedAsANewDevicesOffset() {
        // 45 µT off today's (phone_attitude's iPhone 5 between two trials): the field it leaves is
        // 30 µT, not 48.
        let stored = BoardCalibration(magnetometerOffset: [Self.hardIron.x + 25, Self.hardIron.y - 25, Self.hardIron.z - 28], magneticFieldStrength: Self.strength)
        #expect(Self.uncertaintyAfterStart(stored) > 250)
        // Without a stored strength (files written before it was kept) nothing is checked.
        let unchecked = BoardCalibration(magnetometerOffset: [Self.hardIron.x + 25, Self.hardIron.y - 25, Self.hardIron.z - 28])
        #expect(abs(Self.uncertaintyAfterStart(unchecked) - 5) < 0.01)
    }
}
