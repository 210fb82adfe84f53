import Foundation
import MotionAlgorithms
import MotionEngine
import Recordings

/// The pedometer's replay outputs (../shared/specs/replay-outputs.md): `steps.csv`,
/// `pedometer_updates.csv` (the live updates a CMPedometer handler would have received),
/// `pedometer_events.csv` and, at the end, `pedometer.json` (`altitude.csv` is `AltitudeFile`'s).
final class PedometerFiles {
    private let folder: String
    private let steps: OutputFile
    private let updates: OutputFile
    private let events: OutputFile
    private var schedule = PedometerUpdateSchedule()
    private var start: Int64?

    init(folder: String) throws {
        self.folder = folder
        steps = try OutputFile(folder: folder, name: "steps.csv", header: "t")
        updates = try OutputFile(folder: folder, name: "pedometer_updates.csv",
                                 header: "t,number_of_steps,distance,floors_ascended,floors_descended,current_pace,current_cadence,average_active_pace")
        events = try OutputFile(folder: folder, name: "pedometer_events.csv", header: "t,type,delivered_t")
    }

    /// One reading through the stage, its outputs written; then the live update if one is due.
    /// `activity` gets the stage's motion-activity updates (its classifier's, as motiond's
    /// history takes them).
    func process(_ reading: SensorReading, through stage: inout PedometerStage,
                 activity: (MotionActivityUpdate) -> Void = { _ in }) {
        let time = reading.timestampNanoseconds
        if start == nil { start = time }
        stage.process(reading, output: { output in
            switch output {
            case .step(let at, _): steps.write(TimestampFormatting.format(at))
            case .floor: break
            case .event(let event):
                events.write(TimestampFormatting.format(event.timeNanoseconds) + "," + event.kind.rawValue + ","
                             + TimestampFormatting.format(event.deliveredNanoseconds))
            }
        }, activity: activity)
        if schedule.isDue(at: time, steps: stage.numberOfSteps) {
            updates.write(TimestampFormatting.format(time) + "," + Self.dataFields(stage))
        }
    }

    /// Closes the CSV files and writes `pedometer.json` (CMPedometerData over the recording).
    func finish(_ stage: PedometerStage, end: Int64) throws {
        for file in [steps, updates, events] { try file.close() }
        let text = "{\"start\": \(TimestampFormatting.format(start ?? 0)), \"end\": \(TimestampFormatting.format(end)), "
            + "\"number_of_steps\": \(stage.numberOfSteps), \"distance\": \(String(format: "%.3f", stage.distanceMeters)), "
            + "\"floors_ascended\": \(json(stage.floorsAscended)), \"floors_descended\": \(json(stage.floorsDescended)), "
            + "\"current_pace\": null, \"current_cadence\": null, "
            + "\"average_active_pace\": \(json(stage.averageActivePace))}\n"
        try text.write(toFile: (folder as NSString).appendingPathComponent("pedometer.json"), atomically: true, encoding: .utf8)
    }

    /// number_of_steps … average_active_pace of one update; nil is an empty field.
    private static func dataFields(_ stage: PedometerStage) -> String {
        func field(_ value: Double?) -> String { value.map { String(format: "%.4f", $0) } ?? "" }
        return "\(stage.numberOfSteps),\(String(format: "%.3f", stage.distanceMeters)),"
            + "\(stage.floorsAscended.map(String.init) ?? ""),\(stage.floorsDescended.map(String.init) ?? ""),"
            + "\(field(stage.currentPace)),\(field(stage.currentCadence)),\(field(stage.averageActivePace))"
    }

    private func json(_ value: Int?) -> String { value.map(String.init) ?? "null" }
    private func json(_ value: Double?) -> String { value.map { String(format: "%.4f", $0) } ?? "null" }
}
