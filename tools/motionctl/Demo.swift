import ArgumentParser
import Foundation
import MotionAlgorithms
import MotionEngine

/// `motionctl demo`: a simulated board live through the whole hardware path (register-level
/// emulators, the real drivers, the board runtime), one summary line per second.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a simulated board live and print a summary every second.",
        discussion: """
            The default board is a simulated Raspberry Pi Sense HAT: emulators of its LSM9DS1 and
            LPS25H feel the motion of a bundled real recording (an IMU rotated by hand).
            """)

    @Option(help: "A board file (see boards/README.md).")
    var board: String = BoardLocations.locate("boards/sim-sense-hat.board")

    @OptionGroup var playback: PlaybackOptions

    func run() throws {
        let description = try BoardDescription.load(path: board)
        let speed = playback.speed ?? 2
        let runtime = try BoardRuntime(description, root: BoardLocations.dataRoot(forBoardFile: board), speed: speed)
        runtime.printWarningsToStandardError()
        print("OpenCoreMotion \(OpenCoreMotionVersion.string) demo: \(description.name)"
              + (speed > 0 ? " at \(String(format: "%g", speed))× speed" : " as fast as possible"))
        print("     t   acc Hz  |a| m/s² mean [min, max]     gyr Hz  |ω| °/s mean [max]   mag µT   pressure hPa")
        var summary = StreamSummary()
        var failure: EngineError?
        let end = playback.durationNanoseconds
        var nextLine: Int64 = 1_000_000_000
        var now: Int64 = 0
        while !runtime.isFinished && now < end - 1 {
            // One summary line per second of board time: step no further than its end.
            now = try runtime.step(notAfter: min(end, nextLine) - 1) { reading in
                do throws(EngineError) { try summary.record(reading) } catch { failure = error }
            }
            if let failure { throw failure }
            if now >= nextLine - 1 {
                printLine(summary: summary, elapsedNanoseconds: nextLine)
                summary.startInterval()
                nextLine += 1_000_000_000
            }
        }
        now = runtime.isFinished ? now : end
        print("\nend of demo: \(String(format: "%.1f", Double(now) / 1e9)) s of board time")
        print(SummaryReport(summary: summary, source: board).table())
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
            String(format: "%5.1f   %5.2f [%5.2f, %5.2f]", Double(entry.interval.count),
                   Double(entry.interval.meanRaw.level) * scale,
                   Double(entry.interval.levelMinimum) * scale, Double(entry.interval.levelMaximum) * scale)
        }, width: 38)
        line += cell(.gyroscope, { entry in
            String(format: "%5.1f  %6.1f [%6.1f]", Double(entry.interval.count),
                   Double(entry.interval.meanRaw.level) * scale * degrees,
                   Double(entry.interval.levelMaximum) * scale * degrees)
        }, width: 29)
        line += cell(.magnetometer, { entry in String(format: "%5.1f", Double(entry.interval.meanRaw.level) * scale) }, width: 9)
        line += cell(.barometer, { entry in String(format: "%8.2f", Double(entry.interval.meanRaw.level) / 256 / 100) }, width: 10)
        print(line)
    }
}
