import ArgumentParser
import MotionAlgorithms
import MotionEngine

/// `motionctl bench-activity RECORDING`: the activity stage's cost per reading, the recording
/// held in memory so that no parsing or I/O is timed (tools/benchmarks/activity.py).
struct BenchActivity: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-activity",
        abstract: "Time the motion-activity stage per sensor reading on a recording held in memory.")

    @Argument(help: "A recording (.csv or .csv.gz).")
    var recording: String

    @Option(help: "Minimum seconds of timing (the recording is run as many times as needed).")
    var seconds: Double = 0.5

    func run() throws {
        let playback = try RecordingPlayback(path: recording)
        var readings: [SensorReading] = []
        while let reading = try playback.step() { readings.append(reading) }
        var processed = 0, updates = 0, runs = 0
        let started = PacedClock.monotonicNanoseconds()
        var elapsed: Int64 = 0
        repeat {
            var stage = ActivityStage()
            readings.withUnsafeBufferPointer { buffer in
                for reading in buffer { stage.process(reading) { _ in updates += 1 } }
            }
            processed += readings.count
            runs += 1
            elapsed = PacedClock.monotonicNanoseconds() - started
        } while Double(elapsed) / 1e9 < seconds
        let perSample = Double(elapsed) / Double(max(processed, 1))
        print("\(runs) runs, \(processed) readings, \(updates) updates; ns per sample: \(String(format: "%.1f", perSample))")
    }
}
