import FixedPoint
import Glibc
import MotionAlgorithms
@testable import MotionEngine
import Testing

/// The gyroscope's bias kept across starts (`OnlineCalibrationSaver`): learned at rest, written
/// to the board's calibration file, and the next start begins with it.
@Suite struct GyroscopeBiasPersistenceTests {
    /// A gyroscope's zero-rate offset, rad/s, device axes (3.4, −2.3, 1.1 °/s: an MPU-6050's are
    /// up to 20 °/s).
    static let bias = (x: 0.06, y: -0.04, z: 0.02)

    /// `seconds` of a device lying still, face up, at 100 Hz: gravity on z, the gyroscope reading
    /// its bias, the magnetometer a steady field (no offset to learn).
    static func still(seconds: Double) -> [SensorReading] {
        (0..<Int(seconds * 100)).flatMap { index -> [SensorReading] in
            let time = Int64(index) * 10_000_000
            return [
                SensorReading(timestampNanoseconds: time, value: .acceleration(Vector3(x: Q16_16(0.0), y: Q16_16(0.0), z: Q16_16(9.81)))),
                SensorReading(timestampNanoseconds: time, value: .angularVelocity(Vector3(x: Q16_16(bias.x), y: Q16_16(bias.y), z: Q16_16(bias.z)))),
                SensorReading(timestampNanoseconds: time, value: .magneticField(Vector3(x: Q16_16(20.0), y: Q16_16(0.0), z: Q16_16(-40.0)))),
            ]
        }
    }

    /// Runs `readings` through an estimator started from `calibration`, a saver watching it as
    /// the live engine does, and finishes the saver; returns the estimator.
    static func run(_ readings: [SensorReading], saver: inout OnlineCalibrationSaver, calibration: BoardCalibration?) -> DeviceMotionEstimator {
        var estimator = DeviceMotionEstimator(frame: .xArbitraryZVertical, calibration: calibration)
        for reading in readings {
            if estimator.process(reading) != nil { saver.observe(estimator, at: reading.timestampNanoseconds) }
        }
        saver.finish(estimator)
        return estimator
    }

    static func withFile(_ body: (String) throws -> Void) throws {
        let folder = try CalibrationFileTests.temporaryFolder()
        defer { CalibrationFileTests.removeFolder(folder) }
        try body(folder + "/board.calibration")
    }

    @Test func aBiasLearnedAtRestIsSavedAndTheNextStartBeginsWithIt() throws {
        try Self.withFile { path in
            // A stale bias in the file (an earlier, colder run): replaced.
            try BoardCalibration(gyroscopeBias: [0.001, 0, 0]).save(path: path, board: "board")
            var saver = OnlineCalibrationSaver(path: path, board: "board")
            _ = Self.run(Self.still(seconds: 20), saver: &saver, calibration: try BoardCalibration.load(path: path))
            #expect(saver.failure == nil && saver.saves == 1)
            let stored = try #require(try BoardCalibration.load(path: path)?.gyroscopeBias)
            for (axis, truth) in zip(stored, [Self.bias.x, Self.bias.y, Self.bias.z]) {
                #expect(abs(axis - truth) < 0.002, "stored \(stored), the gyroscope's \(Self.bias)")
            }
            // The next start: the filter's bias is the stored one from the first sample on, so the
            // first seconds' rotation rate is the device's (still), not its offset.
            let next = DeviceMotionEstimator(frame: .xArbitraryZVertical, calibration: BoardCalibration(gyroscopeBias: stored))
            #expect(abs(next.filter.bias.x.doubleValue - stored[0]) < 1e-6 && abs(next.filter.bias.y.doubleValue - stored[1]) < 1e-6)
        }
    }

    @Test func aBiasNotYetLearnedIsNotSaved() throws {
        // 5 s at rest: rest is detected after 1.5 s, and the rest estimate (time constant 2 s)
        // has not settled: nothing is written, and a file's bias stays.
        try Self.withFile { path in
            try BoardCalibration(gyroscopeBias: [0.001, 0, 0]).save(path: path, board: "board")
            var saver = OnlineCalibrationSaver(path: path, board: "board")
            _ = Self.run(Self.still(seconds: 5), saver: &saver, calibration: nil)
            #expect(saver.saves == 0 && saver.failure == nil)
            #expect(try BoardCalibration.load(path: path)?.gyroscopeBias == [0.001, 0, 0])
        }
    }

    @Test func aStoredBiasDoesNotSlowTheLearningOfTheRunsOwn() {
        // A stored bias 2 °/s off the gyroscope's today (another temperature): the filter learns
        // today's as fast as from zero (the motion bias loop starts at its start time constant).
        var saver = OnlineCalibrationSaver(path: "/dev/null/none", board: "board")
        let stale = BoardCalibration(gyroscopeBias: [Self.bias.x + 0.035, Self.bias.y, Self.bias.z])
        let fromStale = Self.run(Self.still(seconds: 1), saver: &saver, calibration: stale)
        let fromZero = Self.run(Self.still(seconds: 1), saver: &saver, calibration: nil)
        #expect(fromStale.filter.motionBiasTimeConstant == fromZero.filter.motionBiasTimeConstant)
        #expect(fromStale.filter.motionBiasTimeConstant.doubleValue < 13)
    }
}
