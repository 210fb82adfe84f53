import ArgumentParser
import Foundation
import MotionAlgorithms
import MotionEngine

/// `motionctl bench-fusion RECORDING`: the device-motion stage's cost per fused sample, the
/// recording held in memory so that no parsing or I/O is timed (as VQF's batch API is timed).
struct BenchFusion: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-fusion",
        abstract: "Time the device-motion filter per fused sample on a recording held in memory.")

    @Argument(help: "A recording (.csv or .csv.gz).")
    var recording: String

    @Option(help: "Reference frame (x-arbitrary-z-vertical: 6D; a north frame: 9D).")
    var frame: String = AttitudeReferenceFrame.xArbitraryZVertical.rawValue

    @Option(help: "Minimum seconds of timing (the recording is run as many times as needed).")
    var seconds: Double = 0.5

    func run() throws {
        guard let frame = AttitudeReferenceFrame(rawValue: frame) else { throw ValidationError("unknown --frame \(frame)") }
        let playback = try RecordingPlayback(path: recording)
        var readings: [SensorReading] = []
        while let reading = try playback.step() { readings.append(reading) }
        var fused = 0, runs = 0
        var checksum: Int64 = 0
        let started = PacedClock.monotonicNanoseconds()
        var elapsed: Int64 = 0
        repeat {
            var estimator = DeviceMotionEstimator(frame: frame)
            readings.withUnsafeBufferPointer { buffer in
                for reading in buffer {
                    if let motion = estimator.process(reading) {
                        fused += 1
                        checksum &+= Int64(motion.attitude.w.rawValue)
                    }
                }
            }
            runs += 1
            elapsed = PacedClock.monotonicNanoseconds() - started
        } while Double(elapsed) / 1e9 < seconds
        print("\(runs) runs, \(fused) fused samples (checksum \(checksum)); ns per fused sample: \(String(format: "%.1f", Double(elapsed) / Double(max(fused, 1))))")
    }
}
