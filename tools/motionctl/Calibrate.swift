import ArgumentParser
import FixedPoint
import Foundation
import MotionAlgorithms
import MotionEngine

/// `motionctl calibrate gyroscope|magnetometer`: measures a board's gyroscope bias (held still)
/// or magnetometer hard-iron offset (turned every way) and stores it for the board, where
/// device motion starts from it (`BoardCalibration`).
struct Calibrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure and store a board's gyroscope bias or magnetometer offset.",
        discussion: """
            gyroscope: keep the board still for --duration seconds; the mean rate is its bias.
            magnetometer: turn the board slowly through every orientation (figure eights) until
            the coverage reaches 100 % and the offset's uncertainty is below 1 µT; a live line
            shows both. The result goes to $OCM_CALIBRATION_DIR or ~/.config/opencoremotion/calibration/.
            """)

    enum Sensor: String, ExpressibleByArgument, CaseIterable { case gyroscope, magnetometer }

    @Argument(help: "gyroscope or magnetometer.")
    var sensor: Sensor

    @Option(help: "A board file (see boards/README.md).")
    var board: String = BoardDescription.boardsFolder + "/sim-mpu-9250.board"

    @OptionGroup var playback: PlaybackOptions

    func run() throws {
        let description = try BoardDescription.load(path: board)
        let runtime = try BoardRuntime(description, root: BoardDescription.repositoryRoot, speed: playback.speed ?? 1)
        runtime.printWarningsToStandardError()
        let path = BoardCalibration.path(forBoard: board)
        var calibration = try BoardCalibration.load(path: path) ?? BoardCalibration()
        switch sensor {
        case .gyroscope:
            guard description.channels.contains(.gyroscope) else { throw ValidationError("\(board) has no gyroscope") }
            calibration.gyroscopeBias = try measureGyroscopeBias(runtime)
        case .magnetometer:
            guard description.channels.contains(.magnetometer) else { throw ValidationError("\(board) has no magnetometer") }
            calibration.magnetometerOffset = try measureMagnetometerOffset(runtime)
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

    /// The online calibration run until it has seen the field from every side (14 directions:
    /// the 6 axes and 8 diagonals, each within 35° of a sample) and knows the offset to 1 µT.
    private func measureMagnetometerOffset(_ runtime: BoardRuntime) throws -> [Double] {
        var estimator = DeviceMotionEstimator(frame: .xMagneticNorthZVertical)
        let directions: [(Double, Double, Double)] = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
            + [(1, 1, 1), (1, 1, -1), (1, -1, 1), (1, -1, -1), (-1, 1, 1), (-1, 1, -1), (-1, -1, 1), (-1, -1, -1)].map { d in
                let n = 3.0.squareRoot()
                return (d.0 / n, d.1 / n, d.2 / n)
            }
        var seen = [Bool](repeating: false, count: directions.count)
        var nextLine: Int64 = 0
        var done = false
        let end = playback.duration.map { Int64($0 * 1e9) } ?? 120_000_000_000
        while !done && !runtime.isFinished && runtime.nowNanoseconds < end - 1 {
            try runtime.step(notAfter: end - 1) { reading in
                if case .magneticField(let raw) = reading.value {
                    let offset = estimator.filter.magnetometerOffset
                    let field = (raw.x.doubleValue - offset.x.doubleValue, raw.y.doubleValue - offset.y.doubleValue, raw.z.doubleValue - offset.z.doubleValue)
                    let norm = (field.0 * field.0 + field.1 * field.1 + field.2 * field.2).squareRoot()
                    if norm > 1 {
                        for (index, d) in directions.enumerated() where (field.0 * d.0 + field.1 * d.1 + field.2 * d.2) / norm > 0.82 { seen[index] = true }
                    }
                }
                _ = estimator.process(reading)
            }
            let coverage = Double(seen.filter { $0 }.count) / Double(seen.count)
            let uncertainty = estimator.filter.magnetometerOffsetUncertainty
            if runtime.nowNanoseconds >= nextLine {
                nextLine = runtime.nowNanoseconds + 1_000_000_000
                let o = estimator.filter.magnetometerOffset
                print(String(format: "%6.1f s  coverage %3.0f %%  offset %7.2f %7.2f %7.2f µT  ± %.2f µT", Double(runtime.nowNanoseconds) / 1e9,
                             coverage * 100, o.x.doubleValue, o.y.doubleValue, o.z.doubleValue, uncertainty))
            }
            done = coverage >= 1 && uncertainty < 1
        }
        let coverage = Double(seen.filter { $0 }.count) / Double(seen.count)
        let uncertainty = estimator.filter.magnetometerOffsetUncertainty
        guard uncertainty < 3 else {
            throw CalibrationFailure(description: String(format: "the offset is only known to ± %.1f µT (coverage %.0f %%): turn the board through more orientations and run again", uncertainty, coverage * 100))
        }
        // Quality: 100 with full coverage and ≤ 0.5 µT, falling with either.
        let quality = Int((coverage * min(1, 0.5 / max(uncertainty, 0.5)) * 100).rounded())
        let o = estimator.filter.magnetometerOffset
        print(String(format: "magnetometer offset %.2f %.2f %.2f µT ± %.2f µT, coverage %.0f %%, quality %d/100",
                     o.x.doubleValue, o.y.doubleValue, o.z.doubleValue, uncertainty, coverage * 100, quality))
        return [o.x.doubleValue, o.y.doubleValue, o.z.doubleValue]
    }
}

struct CalibrationFailure: Error, CustomStringConvertible {
    var description: String
}
