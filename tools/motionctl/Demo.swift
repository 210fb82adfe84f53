import ArgumentParser
import Foundation
import MotionAlgorithms
import MotionEngine

/// `motionctl demo`: the pipeline live on the simulated board, one summary line per second.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the pipeline on the simulated board and print a live summary every second.",
        discussion: "With no hardware, the simulated board replays a bundled real recording (a person standing, then walking).")

    @Option(help: "The recording the simulated board plays.")
    var recording: String = SimulatedBoard.defaultRecordingPath

    @OptionGroup var playback: PlaybackOptions

    func run() throws {
        guard FileManager.default.fileExists(atPath: recording) else {
            throw ValidationError("the demo recording \(recording) does not exist; pass one with --recording PATH")
        }
        let speed = playback.speed ?? 5
        let board = try SimulatedBoard(recordingPath: recording, speed: speed)
        let name = (recording as NSString).lastPathComponent
        print("OpenCoreMotion \(OpenCoreMotionVersion.string) demo: simulated board replaying \(name)"
              + (speed > 0 ? " at \(String(format: "%g", speed))× speed" : " as fast as possible"))
        print("     t   acc Hz  |a| m/s² mean [min, max]     gyr Hz  |ω| °/s mean [max]   mag µT   pressure hPa")
        var start: Int64?
        var nextReport: Int64 = 0
        var lastTimestamp: Int64 = 0
        while let sample = try board.next() {
            let timestamp = sample.reading.timestampNanoseconds
            if start == nil { start = timestamp; nextReport = timestamp + 1_000_000_000 }
            lastTimestamp = timestamp
            if playback.isPastDuration(elapsedNanoseconds: timestamp - start!) { break }
            if timestamp >= nextReport {
                printLine(summary: board.playback.summary, elapsedNanoseconds: timestamp - start!)
                board.playback.resetInterval()
                nextReport += 1_000_000_000
            }
        }
        let seconds = Double(lastTimestamp - (start ?? lastTimestamp)) / 1e9
        print("\nend of demo: \(String(format: "%.1f", seconds)) s of recording")
        print(SummaryReport(playback: board.playback, sampleCount: board.playback.summary.totalSamples).table())
    }

    private func printLine(summary: StreamSummary, elapsedNanoseconds: Int64) {
        func cell(_ channel: SensorChannel, _ body: (StreamSummary.Channel) -> String, width: Int) -> String {
            let entry = summary[channel]
            let text = entry.interval.count > 0 ? body(entry) : "–"
            return text.padding(toLength: width, withPad: " ", startingAt: 0)
        }
        let scale = 1.0 / 65536
        let degrees = 180 / Double.pi
        var line = String(format: "%6.1f   ", Double(elapsedNanoseconds) / 1e9)
        line += cell(.accelerometer, { entry in
            String(format: "%5.1f   %5.2f [%5.2f, %5.2f]", Double(entry.stream.currentRateMilliHertz) / 1000,
                   Double(entry.interval.meanRaw.level) * scale,
                   Double(entry.interval.levelMinimum) * scale, Double(entry.interval.levelMaximum) * scale)
        }, width: 38)
        line += cell(.gyroscope, { entry in
            String(format: "%5.1f  %6.1f [%6.1f]", Double(entry.stream.currentRateMilliHertz) / 1000,
                   Double(entry.interval.meanRaw.level) * scale * degrees,
                   Double(entry.interval.levelMaximum) * scale * degrees)
        }, width: 29)
        line += cell(.magnetometer, { entry in String(format: "%5.1f", Double(entry.interval.meanRaw.level) * scale) }, width: 9)
        line += cell(.barometer, { entry in String(format: "%8.2f", Double(entry.interval.meanRaw.level) / 256 / 100) }, width: 10)
        print(line)
    }
}
