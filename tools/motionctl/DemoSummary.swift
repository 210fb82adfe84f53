import Foundation
import MotionAlgorithms
import MotionEngine

/// The demo's closing summary: the pedometer against the recording's true steps, distance,
/// cadence, the activity history by class and the attitude's range. One fact per line, each line
/// starting with its name, so a person reads it and a test greps it.
struct DemoSummary {
    let pipeline: DemoPipeline
    let recording: DemoRecording
    let endNanoseconds: Int64
    let hasBarometer: Bool

    var lines: [String] {
        let pedometer = pipeline.pedometer
        var lines = [String(format: "summary of %.1f s of ", Double(endNanoseconds) / 1e9) + recording.name + ":"]
        let counted = pedometer.numberOfSteps
        if let truth = recording.truth, truth.hasSteps {
            let trueSteps = truth.steps(through: endNanoseconds)
            let error = trueSteps > 0 ? String(format: " (%+.1f %%)", 100 * Double(counted - trueSteps) / Double(trueSteps)) : ""
            lines.append("  steps     \(counted) counted, \(trueSteps) true\(error)")
        } else {
            lines.append("  steps     \(counted) counted (no true step count beside the recording)")
        }
        lines.append(String(format: "  distance  %.1f m by the stride model for %.0f cm", pedometer.distanceMeters, pedometer.stride.heightMeters * 100)
                     + (pedometer.averageActivePace.map { String(format: ", average active pace %.2f s/m", $0) } ?? ""))
        let active = Double(pedometer.totals.activeNanoseconds) / 1e9
        var cadence = active > 0 ? String(format: "  cadence   %.2f steps/s while walking", Double(counted) / active) : "  cadence   -"
        if let trueCadence = recording.truth?.cadence(through: endNanoseconds) { cadence += String(format: " (true %.2f steps/s)", trueCadence) }
        lines.append(cadence)
        lines.append("  activity  " + activityTimes())
        lines.append("  attitude  " + attitudeRange())
        if hasBarometer {
            lines.append("  floors    \(pedometer.floorsAscended ?? 0) up, \(pedometer.floorsDescended ?? 0) down")
        } else {
            lines.append("  floors    none: the recording has no barometer")
        }
        return lines
    }

    /// Seconds per class in the smoothed history (what an activity query over the walk returns),
    /// longest first.
    private func activityTimes() -> String {
        var seconds: [String: Double] = [:]
        for record in pipeline.activityHistory.smoothed() {
            let end = min(record.endNanoseconds, endNanoseconds)
            guard end > record.activity.startNanoseconds else { continue }
            seconds[Stream.name(record.activity.flags), default: 0] += Double(end - record.activity.startNanoseconds) / 1e9
        }
        seconds = seconds.filter { $0.value >= 0.05 }  // a class that lasted no time (as printed) is not history
        guard !seconds.isEmpty else { return "-" }
        return seconds.sorted { $0.value > $1.value }.map { $0.key + String(format: " %.1f s", $0.value) }.joined(separator: ", ")
    }

    private func attitudeRange() -> String {
        let range = pipeline.attitudeRange
        guard let roll = range.roll, let pitch = range.pitch else { return "-" }
        var text = String(format: "roll %.0f° to %.0f°, pitch %.0f° to %.0f°", roll.lowerBound, roll.upperBound, pitch.lowerBound, pitch.upperBound)
        if let arc = range.directionArc, pipeline.hasHeading {
            text += "; heading \(arc.from)° to \(arc.to)° clockwise"
        } else if let arc = range.directionArc {
            text += "; turned through \(arc.width)° of yaw (no north: the recording has no magnetometer)"
        } else {
            text += "; no heading: the recording has no magnetometer"
        }
        if !pipeline.hasRotation { text += " (tilt from gravity only: no gyroscope either)" }
        return text
    }
}
