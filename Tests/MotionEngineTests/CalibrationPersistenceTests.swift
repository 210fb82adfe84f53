import Glibc
import MotionAlgorithms
@testable import MotionEngine
import Testing
import TestSupport

/// The online magnetometer calibration kept across starts (`OnlineCalibrationSaver`), on the
/// simulated MPU-9250 board (`boards/sim-mpu-9250.board`) given a hard-iron offset large enough
/// for the filter to apply (150, −90, 60 µT in the AK8963's axes), with `OCM_CALIBRATION_DIR`
/// pointing to a temporary folder, as the live engine (`EngineWorker`) runs it.
///
/// The board feels `synthetic:tumble` instead of its 20 s BROAD recording: that hand turns the
/// IMU mostly about one axis, which leaves one axis of the offset unobservable (its 1σ stays
/// above 80 µT after 120 s of the recording looped), so the calibration never reaches high
/// accuracy there, as it should not.
@Suite(.serialized, .blocking) struct CalibrationPersistenceTests {
    /// The injected hard iron in device axes: the board mounts the AK8963 as `y x -z`.
    static let hardIron = [-90.0, 150, -60]

    static func board() throws -> BoardDescription {
        let path = ProjectPaths.root + "/boards/sim-mpu-9250.board"
        // The magnetometer's section is the file's last: the key lands in it.
        let text = CalibrationFileTests.read(path).replacing("motion = Tests/Recordings/broad_01_slow_rotation.csv.gz",
                                                              with: "motion = synthetic:tumble") + "hard-iron = 150 -90 60\n"
        return try BoardFileParser.parse(text, path: path)
    }

    /// Runs device motion on the board for `seconds` of board time as fast as possible (a
    /// recording that ends starts over, as in the live engine), giving the saver every reading's
    /// estimator, then finishes the saver as a stopping stream does; returns the estimator.
    static func run(seconds: Double, saver: inout OnlineCalibrationSaver, calibration: BoardCalibration?,
                    until stop: (DeviceMotionEstimator) -> Bool = { _ in false }) throws -> DeviceMotionEstimator {
        let description = try board()
        var estimator = DeviceMotionEstimator(frame: .xMagneticNorthZVertical, calibration: calibration)
        var origin: Int64 = 0
        let end = Int64(seconds * 1e9)
        while origin < end {
            let runtime = try BoardRuntime(description, root: ProjectPaths.root, speed: 0)
            var stopped = false
            while !runtime.isFinished && !stopped && origin + runtime.nowNanoseconds < end {
                try runtime.step(notAfter: end - origin) { reading in
                    var stamped = reading
                    stamped.timestampNanoseconds += origin
                    _ = estimator.process(stamped)
                    saver.observe(estimator, at: stamped.timestampNanoseconds)
                }
                stopped = stop(estimator)
            }
            if stopped { break }
            origin += runtime.nowNanoseconds + 10_000_000
        }
        saver.finish(estimator)
        return estimator
    }

    static func withCalibrationFolder(_ body: (String) throws -> Void) throws {
        let folder = try CalibrationFileTests.temporaryFolder()
        defer { CalibrationFileTests.removeFolder(folder) }
        setenv("OCM_CALIBRATION_DIR", folder, 1)
        defer { unsetenv("OCM_CALIBRATION_DIR") }
        try body(folder)
    }

    @Test func aConvergedOffsetIsSavedAndTheNextStartBeginsWithIt() throws {
        try Self.withCalibrationFolder { folder in
            let path = BoardCalibration.path(forBoard: "boards/sim-mpu-9250.board")
            #expect(path == folder + "/sim-mpu-9250.calibration")
            // A file with an earlier run's gyroscope bias: replaced by the one this run learned
            // (the tumble's gyroscope has none).
            try BoardCalibration(gyroscopeBias: [0.001, 0, 0]).save(path: path, board: "sim-mpu-9250.board")
            var saver = OnlineCalibrationSaver(path: path, board: "sim-mpu-9250.board", intervalNanoseconds: 30_000_000_000)
            let first = try Self.run(seconds: 120, saver: &saver, calibration: nil)
            #expect(first.filter.magnetometerAccuracy == 2, "offset known to \(first.filter.magnetometerOffsetUncertainty) µT")
            #expect(saver.failure == nil && saver.saves >= 1 && saver.saves <= 5, "\(saver.saves) saves in 120 s at most every 30 s")
            let stored = try #require(try BoardCalibration.load(path: path))
            let bias = try #require(stored.gyroscopeBias)
            #expect(bias != [0.001, 0, 0] && bias.allSatisfy { abs($0) < 0.01 }, "stored gyroscope bias \(bias) rad/s")
            let offset = try #require(stored.magnetometerOffset)
            let uncertainty = try #require(stored.magnetometerOffsetUncertainty)
            #expect(uncertainty < 1)
            for axis in 0..<3 { #expect(abs(offset[axis] - Self.hardIron[axis]) < 3, "stored \(offset) vs \(Self.hardIron)") }
            // The field strength it left, for the next start's check: the tumble's 19 µT north,
            // 46 µT down (49.8 µT).
            let strength = try #require(stored.magneticFieldStrength)
            #expect(abs(strength - 49.77) < 2, "stored field strength \(strength) µT")
            // The next start: the offset applied from the first sample.
            let next = DeviceMotionEstimator(frame: .xMagneticNorthZVertical, calibration: stored)
            #expect(next.filter.filter.calibration.isApplied)
            #expect(next.filter.magnetometerAccuracy >= 0, "starts calibrated (low: a stored offset counts as known to 5 µT)")
        }
    }

    @Test func aBetterStoredEstimateIsNeverOverwritten() throws {
        try Self.withCalibrationFolder { folder in
            let path = folder + "/sim-mpu-9250.calibration"
            let better = BoardCalibration(magnetometerOffset: [-90.2, 150.1, -59.9], magnetometerOffsetUncertainty: 0.01)
            try better.save(path: path, board: "sim-mpu-9250.board")
            var saver = OnlineCalibrationSaver(path: path, board: "sim-mpu-9250.board", intervalNanoseconds: 10_000_000_000)
            _ = try Self.run(seconds: 60, saver: &saver, calibration: nil)
            #expect(saver.saves == 0 && saver.failure == nil)
            #expect(try BoardCalibration.load(path: path) == better)
        }
    }

    @Test func anOffsetThatHasMovedReplacesTheStoredOneHoweverWellThatWasKnown() throws {
        // The stored offset is 40 µT off the board's own now (a magnetic case since, a new
        // mount), and was known to 0.01 µT: the relearned one, known to about 1 µT, replaces it.
        try Self.withCalibrationFolder { folder in
            let path = folder + "/sim-mpu-9250.calibration"
            let stale = BoardCalibration(magnetometerOffset: [-50, 150, -60], magnetometerOffsetUncertainty: 0.01)
            try stale.save(path: path, board: "sim-mpu-9250.board")
            var saver = OnlineCalibrationSaver(path: path, board: "sim-mpu-9250.board", intervalNanoseconds: 10_000_000_000)
            // Started from the stale file, as the next run on the board is.
            _ = try Self.run(seconds: 120, saver: &saver, calibration: stale)
            #expect(saver.saves >= 1 && saver.failure == nil)
            let offset = try #require(try BoardCalibration.load(path: path)?.magnetometerOffset)
            for axis in 0..<3 { #expect(abs(offset[axis] - Self.hardIron[axis]) < 3, "stored \(offset) vs \(Self.hardIron)") }
        }
    }

    @Test func nothingIsSavedBeforeMediumAccuracy() throws {
        try Self.withCalibrationFolder { folder in
            let path = folder + "/sim-mpu-9250.calibration"
            var saver = OnlineCalibrationSaver(path: path, board: "sim-mpu-9250.board")
            let estimator = try Self.run(seconds: 1, saver: &saver, calibration: nil)
            #expect(estimator.filter.magnetometerAccuracy < 1)
            #expect(saver.saves == 0 && access(path, F_OK) != 0)
        }
    }

    @Test func aMediumAccuracyOffsetIsSavedWhereNoneIsStored() throws {
        // A device never turned about one of its axes (a phone held flat or upright in a walk)
        // does not learn that axis to 1 µT; known to 3 µT, its offset is still a better start
        // than none (the next start takes it as known to 5 µT).
        try Self.withCalibrationFolder { folder in
            let path = folder + "/sim-mpu-9250.calibration"
            var saver = OnlineCalibrationSaver(path: path, board: "sim-mpu-9250.board")
            let estimator = try Self.run(seconds: 120, saver: &saver, calibration: nil) { $0.filter.magnetometerAccuracy >= 1 }
            #expect(estimator.filter.magnetometerAccuracy == 1, "stopped at medium accuracy")
            let stored = try #require(try BoardCalibration.load(path: path))
            let uncertainty = try #require(stored.magnetometerOffsetUncertainty)
            #expect(uncertainty >= 1 && uncertainty < 3, "stored as known to \(uncertainty) µT")
            let offset = try #require(stored.magnetometerOffset)
            for axis in 0..<3 { #expect(abs(offset[axis] - Self.hardIron[axis]) < 10, "stored \(offset) vs \(Self.hardIron)") }
        }
    }

    @Test func anUnwritableFolderIsReportedAndTheStreamGoesOn() throws {
        var saver = OnlineCalibrationSaver(path: "/proc/ocm-no-such-folder/x.calibration", board: "x.board", intervalNanoseconds: 10_000_000_000)
        let estimator = try Self.run(seconds: 120, saver: &saver, calibration: nil) { $0.filter.magnetometerAccuracy == 2 }
        #expect(estimator.filter.magnetometerAccuracy == 2)
        #expect(saver.saves == 0)
        #expect(saver.failure.map { "\($0)".contains("could not create /proc/ocm-no-such-folder") } == true, "\(String(describing: saver.failure))")
    }
}
