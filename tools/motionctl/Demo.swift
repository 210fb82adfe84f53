import ArgumentParser
import Foundation
import MotionAlgorithms
import MotionEngine
import Recordings

/// `motionctl demo`: a real recorded walk played live through the whole hardware path — the
/// simulated board's register-level emulators feel the recording, the real drivers read them, the
/// board runtime delivers the readings — into the engine's stages, shown as an app would see them.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a recorded walk live on a simulated board: attitude, steps, activity, floors.",
        discussion: """
            The board's emulated chips feel the recording (not the board file's own motion), the real \
            drivers read them, and the engine's device motion, pedometer and activity stages run on \
            what they deliver. On a terminal one block is redrawn in place; piped or with --plain, one \
            line is printed per second of the recording. At the end, a summary holds the pedometer \
            against the recording's true steps (its .json labels).
            """)

    @Option(help: "A simulated board's file, relative to the working directory.")
    var board = "boards/sim-sense-hat.board"

    @Option(help: "The recording the board's chips feel (ocm-recording format, .csv or .csv.gz).")
    var recording = "Tests/Recordings/oxford_samsung_frontpocket_walk_90s.csv.gz"

    @Option(help: "Its labels with the true step times (default: the .json beside the recording).")
    var truth: String?

    @Flag(help: "One plain line per second even on a terminal (no redrawn block).")
    var plain = false

    @OptionGroup var playback: PlaybackOptions

    func run() throws {
        let played = try DemoRecording(boardPath: board, recordingPath: recording, truthPath: truth)
        let speed = playback.speed ?? 1
        let runtime = try BoardRuntime(played.board, root: FileManager.default.currentDirectoryPath, speed: speed)
        runtime.printWarningsToStandardError()
        // Floors only from a real barometer: the emulated one reads a constant pressure without one.
        let hasBarometer = played.board.channels.contains(.barometer) && played.sensors.contains(.barometer)
        var pipeline = DemoPipeline(hasHeading: played.sensors.contains(.magnetometer), hasRotation: played.sensors.contains(.gyroscope))
        // A terminal that says it cannot move the cursor (TERM=dumb: Emacs' shell, some CI logs) gets lines.
        let canRedraw = isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
        var view = DemoView(isLive: !plain && canRedraw, hasBarometer: hasBarometer, recording: played)
        DemoView.write(introduction(played, speed: speed).joined(separator: "\n") + "\n\n")

        // A live block is redrawn four times a second of the recording (at most ten times a
        // second of wall time when played fast); plain lines come once a second.
        let tick: Int64 = view.isLive ? 250_000_000 : 1_000_000_000
        let end = min(playback.durationNanoseconds, played.durationNanoseconds + 1)
        var nextShow = tick
        var lastDraw = DispatchTime.now().uptimeNanoseconds
        var now: Int64 = 0
        while !runtime.isFinished && now < end - 1 {
            now = try runtime.step(notAfter: min(end, nextShow) - 1) { pipeline.process($0) }
            guard now >= nextShow - 1 else { continue }
            let wall = DispatchTime.now().uptimeNanoseconds
            if !view.isLive || wall - lastDraw >= 100_000_000 {
                view.show(pipeline, atNanoseconds: nextShow)
                lastDraw = wall
            }
            nextShow += tick
        }
        now = min(now, end)
        if view.isLive { view.show(pipeline, atNanoseconds: now) }  // the last state, whatever the throttle skipped
        let summary = DemoSummary(pipeline: pipeline, recording: played, endNanoseconds: now, hasBarometer: hasBarometer)
        DemoView.write("\n" + summary.lines.joined(separator: "\n") + "\n")
    }

    /// Who walked, carrying what, played on which board: said once before the figures start.
    private func introduction(_ played: DemoRecording, speed: Double) -> [String] {
        var lines = ["OpenCoreMotion \(OpenCoreMotionVersion.string) demo: \(played.board.name) plays \(played.name)"
                     + (speed > 0 ? " at \(String(format: "%g", speed))× speed" : " as fast as possible")]
        var about: [String] = []
        if let carry = played.truth?.carry { about.append("carried: \(carry.replacingOccurrences(of: "_", with: " "))") }
        if let device = played.truth?.device ?? played.metadata["device"] { about.append("recorded by: \(device)") }
        if let license = played.metadata["license"] { about.append("license: \(license)") }
        if !about.isEmpty { lines.append("  " + about.joined(separator: "; ")) }
        if let source = played.metadata["source"] { lines.append("  source: \(source)") }
        // What each sensor the recording lacks would have given: its emulated chip feels nothing.
        let lacking: [(sensor: SensorKind, name: String, gives: String)] = [
            (.gyroscope, "gyroscope", "yaw"), (.magnetometer, "magnetometer", "heading"), (.barometer, "barometer", "floors"),
        ].filter { !played.sensors.contains($0.sensor) }
        if !lacking.isEmpty {
            lines.append("  not recorded: " + Self.list(lacking.map(\.name)) + ", so no " + Self.list(lacking.map(\.gives), joiner: "or"))
        }
        return lines
    }

    /// "a", "a and b", "a, b and c".
    private static func list(_ items: [String], joiner: String = "and") -> String {
        items.count > 1 ? items.dropLast().joined(separator: ", ") + " \(joiner) " + items.last! : items.first ?? ""
    }
}
