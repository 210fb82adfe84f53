import Foundation
import MotionAlgorithms
import MotionEngine

/// What the demo shows while it plays. On a terminal: one compact block redrawn in place (ANSI
/// cursor movement, so the numbers change where the eye already is). Anywhere else (a pipe, a
/// log, `--plain`): one plain line per second of the recording, no escape codes, so the output
/// reads and greps like any log.
struct DemoView {
    /// Whether the block is redrawn in place (stdout is a terminal and `--plain` was not given).
    let isLive: Bool
    let hasBarometer: Bool
    let recording: DemoRecording
    private var drawnLines = 0

    init(isLive: Bool, hasBarometer: Bool, recording: DemoRecording) {
        self.isLive = isLive
        self.hasBarometer = hasBarometer
        self.recording = recording
    }

    /// Writes straight to the file descriptor: a pipe's reader sees each line when it is made
    /// (print's buffer would hold them until the end), and the block never tears.
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Redraws the block (live) or prints the second's line (plain).
    mutating func show(_ pipeline: DemoPipeline, atNanoseconds now: Int64) {
        guard isLive else { return Self.write(plainLine(pipeline, now) + "\n") }
        let lines = block(pipeline, now)
        // Up to the block's first line, then each line over the old one, erasing what is left of it.
        var text = drawnLines > 0 ? "\u{1B}[\(drawnLines)F" : ""
        for line in lines { text += line + "\u{1B}[K\n" }
        drawnLines = lines.count
        Self.write(text)
    }

    // MARK: - Plain: one line a second

    private func plainLine(_ pipeline: DemoPipeline, _ now: Int64) -> String {
        var parts = [String(format: "%6.1f s", Double(now) / 1e9)]
        parts.append(Self.activityText(pipeline.activity).padding(toLength: 30, withPad: " ", startingAt: 0))
        parts.append(stepsText(pipeline, now))
        parts.append(attitudeText(pipeline))
        if hasBarometer { parts.append(floorsText(pipeline)) }
        return parts.joined(separator: " | ")
    }

    // MARK: - Live: the block

    private func block(_ pipeline: DemoPipeline, _ now: Int64) -> [String] {
        let total = max(recording.durationNanoseconds, 1)
        let done = min(1, Double(now) / Double(total))
        let bar = String(repeating: "#", count: Int(done * 30)) + String(repeating: ".", count: 30 - Int(done * 30))
        var lines = [
            String(format: "  time      %5.1f s of %.1f s  [", Double(now) / 1e9, Double(total) / 1e9) + bar + "]",
            "  activity  " + Self.activityText(pipeline.activity),
            "  steps     " + stepsText(pipeline, now),
            "  attitude  " + attitudeText(pipeline) + (pipeline.hasRotation ? "" : "  (tilt from gravity)"),
        ]
        if hasBarometer { lines.append("  floors    " + floorsText(pipeline)) }
        return lines
    }

    // MARK: - The figures, shared by both forms

    static func activityText(_ activity: MotionActivityEstimate) -> String {
        Stream.name(activity.flags) + " (" + Stream.name(activity.confidence) + " confidence)"
    }

    private func stepsText(_ pipeline: DemoPipeline, _ now: Int64) -> String {
        let pedometer = pipeline.pedometer
        var text = String(format: "%4d steps", pedometer.numberOfSteps)
        if let truth = recording.truth, truth.hasSteps { text += String(format: " (true %3d)", truth.steps(through: now)) }
        text += pedometer.currentCadence.map { String(format: "  %.2f steps/s", $0) } ?? "  -.-- steps/s"
        text += pedometer.currentPace.map { String(format: "  %.2f s/m", $0) } ?? "  -.-- s/m"
        text += String(format: "  %6.1f m", pedometer.distanceMeters)
        return text
    }

    private func attitudeText(_ pipeline: DemoPipeline) -> String {
        guard let motion = pipeline.motion else { return "roll    -  pitch    -" }
        let angles = motion.eulerAngles
        let degrees = 180 / Double.pi
        var text = String(format: "roll %4.0f°  pitch %4.0f°", angles.roll.doubleValue * degrees, angles.pitch.doubleValue * degrees)
        if pipeline.hasHeading {
            let heading = motion.heading.doubleValue
            text += heading >= 0 && pipeline.hasFieldSample ? String(format: "  heading %3.0f°", heading) : "  heading   -"
        } else if pipeline.hasRotation {
            text += String(format: "  yaw %4.0f°", angles.yaw.doubleValue * degrees)
        }
        return text
    }

    private func floorsText(_ pipeline: DemoPipeline) -> String {
        "floors \(pipeline.pedometer.floorsAscended ?? 0) up, \(pipeline.pedometer.floorsDescended ?? 0) down"
    }
}
