import ArgumentParser
import FixedPoint
import Foundation
import MotionAlgorithms
import MotionEngine

/// `motionctl calibrate gyroscope|accelerometer|magnetometer`: measures a board's gyroscope
/// bias (held still), accelerometer offset and scale (six still poses,
/// `CalibrateAccelerometer.swift`) or magnetometer hard and soft iron (turned every way,
/// `CalibrateMagnetometer.swift`) and stores it for the board, where device motion applies it
/// (`BoardCalibration`).
struct Calibrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure and store a board's gyroscope bias, accelerometer offset and scale, or magnetometer hard and soft iron.",
        discussion: """
            gyroscope: keep the board still for --duration seconds; the mean rate is its bias.
            accelerometer: lay the board still on a table in six poses, each axis pointing up
            and then down (any order, about 2 s each); a live line shows which poses are still
            missing. Offset (m/s²) and per-axis scale are fitted so that gravity reads 1 g in
            every pose; the residual (m/s²) is the quality figure.
            magnetometer: turn the board slowly through every orientation (figure eights) until
            the coverage reaches 100 % and the offset's uncertainty is below 1 µT; a live line
            shows both. An ellipsoid fit then gives the hard iron (offset, µT) and the soft
            iron (a symmetric matrix); the residual (µT) is the quality figure.
            stride: walk --distance metres at your usual pace, then stand still (or give a
            --recording of such a walk); distance by the stride model over the true distance is
            your stride scale, stored in the pedometer profile (CalibrateStride.swift).
            The result goes to $OCM_CALIBRATION_DIR or ~/.config/opencoremotion/calibration/.
            """)

    enum Sensor: String, ExpressibleByArgument, CaseIterable { case gyroscope, accelerometer, magnetometer, stride }

    @Argument(help: "gyroscope, accelerometer, magnetometer or stride.")
    var sensor: Sensor

    @Option(help: "A board file (see boards/README.md).")
    var board: String = BoardLocations.locate("boards/sim-mpu-9250.board")

    @OptionGroup var playback: PlaybackOptions

    @OptionGroup(title: "Stride") var stride: StrideOptions

    @Option(help: "magnetometer: also write the samples and the fit into this folder and draw the sphere's coverage, before and after, with the fitted ellipsoid (SVG, PNG; needs python3-matplotlib).")
    var plot: String?

    @Option(help: "The Python interpreter --plot runs.")
    var python = "python3"

    func validate() throws {
        if sensor == .stride { try stride.check() }
    }

    func run() throws {
        if sensor == .stride { return try StrideCalibration(options: stride, board: board, speed: playback.speed ?? 1).run() }
        let description = try BoardDescription.load(path: board)
        let runtime = try BoardRuntime(description, root: BoardLocations.dataRoot(forBoardFile: board), speed: playback.speed ?? 1)
        runtime.printWarningsToStandardError()
        let path = BoardCalibration.path(forBoard: board)
        var calibration = try BoardCalibration.load(path: path) ?? BoardCalibration()
        switch sensor {
        case .gyroscope:
            guard description.channels.contains(.gyroscope) else { throw ValidationError("\(board) has no gyroscope") }
            calibration.gyroscopeBias = try measureGyroscopeBias(runtime)
        case .accelerometer:
            guard description.channels.contains(.accelerometer) else { throw ValidationError("\(board) has no accelerometer") }
            let fit = try measureAccelerometer(runtime)
            calibration.accelerometerOffset = fit.offset
            calibration.accelerometerScale = fit.scale
        case .magnetometer:
            guard description.channels.contains(.magnetometer) else { throw ValidationError("\(board) has no magnetometer") }
            let result = try measureMagnetometer(runtime)
            calibration.magnetometerOffset = result.offset
            calibration.magnetometerOffsetUncertainty = result.uncertainty
            calibration.magnetometerSoftIron = result.softIron
            if let plot { try MagnetometerPicture(result: result).draw(folder: plot, python: python) }
        case .stride:
            return  // ran above
        }
        try calibration.save(path: path, board: (board as NSString).lastPathComponent)
        print("stored in \(path)")
    }

    /// Mean and spread of the gyroscope over the run; refuses a board that moved.
    private func measureGyroscopeBias(_ runtime: BoardRuntime) throws -> [Double] {
        var sum = [0.0, 0.0, 0.0], squares = [0.0, 0.0, 0.0], count = 0.0
        try runtime.run(untilNanoseconds: (playback.duration.map { Int64($0 * 1e9) }) ?? 5_000_000_000) { reading in
            guard case .angularVelocity(let v) = reading.value else { return }
            for (axis, value) in [v.x.doubleValue, v.y.doubleValue, v.z.doubleValue].enumerated() {
                sum[axis] += value
                squares[axis] += value * value
            }
            count += 1
        }
        guard count >= 10 else { throw CalibrationFailure(description: "only \(Int(count)) gyroscope samples: run longer (--duration)") }
        let mean = sum.map { $0 / count }
        let spread = zip(squares, mean).map { ($0 / count - $1 * $1).squareRoot() }
        // A still MEMS gyroscope's noise is well below 0.5 °/s; more is motion.
        guard spread.allSatisfy({ $0 < 0.5 * .pi / 180 }) else {
            throw CalibrationFailure(description: String(format: "the board moved (spread %.2f, %.2f, %.2f °/s): keep it still on a table and run again",
                                                         spread[0] * 180 / .pi, spread[1] * 180 / .pi, spread[2] * 180 / .pi))
        }
        print(String(format: "gyroscope bias %.4f %.4f %.4f rad/s (%.2f %.2f %.2f °/s) from %d samples",
                     mean[0], mean[1], mean[2], mean[0] * 180 / .pi, mean[1] * 180 / .pi, mean[2] * 180 / .pi, Int(count)))
        return mean
    }
}

struct CalibrationFailure: Error, CustomStringConvertible {
    var description: String
}
