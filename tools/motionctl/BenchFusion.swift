import ArgumentParser
import Foundation
import MotionAlgorithms
import MotionEngine

/// `motionctl bench-fusion RECORDING`: the device-motion stage's cost per fused sample, the
/// recording held in memory so that no parsing or I/O is timed (as VQF's batch API is timed).
///
/// Timed as VQF's batch is: every reading fused and the attitude quaternion of every sample
/// read (`DeviceMotionEstimator.update`, `attitude`). The whole `DeviceMotion` of every sample
/// (`process`: gravity, user acceleration, heading, the output conversions; what a consumer
/// taking every sample pays) is timed too and printed after it.
struct BenchFusion: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-fusion",
        abstract: "Time the device-motion filter per fused sample on a recording held in memory.")

    @Argument(help: "A recording (.csv or .csv.gz).")
    var recording: String

    @Option(help: "Reference frame (x-arbitrary-z-vertical: 6D; a north frame: 9D).")
    var frame: String = AttitudeReferenceFrame.xArbitraryZVertical.rawValue

    @Option(help: "Minimum seconds of timing, each of the two measures (the recording is run as many times as needed).")
    var seconds: Double = 0.5

    func run() throws {
        guard let frame = AttitudeReferenceFrame(rawValue: frame) else { throw ValidationError("unknown --frame \(frame)") }
        let playback = try RecordingPlayback(path: recording)
        var readings: [SensorReading] = []
        while let reading = try playback.step() { readings.append(reading) }
        let attitudes = time(readings, frame) { estimator, reading in
            estimator.update(reading) ? Int64(estimator.attitude.w.rawValue) : nil
        }
        let motions = time(readings, frame) { estimator, reading in
            estimator.process(reading).map { Int64($0.attitude.w.rawValue) }
        }
        print("\(attitudes.runs) runs, \(attitudes.fused) fused samples (checksum \(attitudes.checksum)); ns per fused sample: \(String(format: "%.1f", attitudes.nanoseconds))")
        print("with the whole DeviceMotion per sample (checksum \(motions.checksum)): \(String(format: "%.1f", motions.nanoseconds)) ns")
    }

    /// Runs the recording through a new estimator until `seconds` have passed; `step` fuses one
    /// reading and returns what it read of a fused sample (nil: none fused).
    private func time(_ readings: [SensorReading], _ frame: AttitudeReferenceFrame,
                      _ step: (inout DeviceMotionEstimator, SensorReading) -> Int64?) -> (runs: Int, fused: Int, checksum: Int64, nanoseconds: Double) {
        var fused = 0, runs = 0
        var checksum: Int64 = 0
        let started = PacedClock.monotonicNanoseconds()
        var elapsed: Int64 = 0
        repeat {
            var estimator = DeviceMotionEstimator(frame: frame)
            readings.withUnsafeBufferPointer { buffer in
                for reading in buffer {
                    if let value = step(&estimator, reading) {
                        fused += 1
                        checksum &+= value
                    }
                }
            }
            runs += 1
            elapsed = PacedClock.monotonicNanoseconds() - started
        } while Double(elapsed) / 1e9 < seconds
        return (runs, fused, checksum, Double(elapsed) / Double(max(fused, 1)))
    }
}
