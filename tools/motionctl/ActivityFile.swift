import Foundation
import MotionAlgorithms
import MotionEngine
import Recordings

/// `activity.csv` (the live CMMotionActivity updates) and, at the end, `activity_history.csv`
/// (the smoothed history over the whole recording), per ../shared/specs/replay-outputs.md:
/// `t,stationary,walking,running,automotive,cycling,unknown,confidence[,delivered_t]`, `t` the
/// activity's start date, flags 0/1, confidence 0 low, 1 medium, 2 high.
final class ActivityFile {
    private let file: OutputFile
    private let folder: String
    private(set) var history = ActivityHistory()

    init(folder: String) throws {
        self.folder = folder
        file = try OutputFile(folder: folder, name: "activity.csv",
                              header: "t,stationary,walking,running,automotive,cycling,unknown,confidence,delivered_t")
    }

    /// One live update: a row, and a transition for the history.
    func write(_ update: MotionActivityUpdate) {
        history.record(update)
        file.write(Self.row(update.activity) + "," + TimestampFormatting.format(update.deliveredNanoseconds))
    }

    /// Closes `activity.csv` and writes `activity_history.csv` up to `end` (ns).
    func finish(endNanoseconds end: Int64) throws {
        try file.close()
        history.advance(toNanoseconds: end)
        var text = "t,stationary,walking,running,automotive,cycling,unknown,confidence\n"
        for record in history.smoothed() { text += Self.row(record.activity) + "\n" }
        try text.write(toFile: (folder as NSString).appendingPathComponent("activity_history.csv"), atomically: true, encoding: .utf8)
    }

    private static func row(_ activity: MotionActivityEstimate) -> String {
        let flags = activity.flags
        let columns: [MotionActivityFlags] = [.stationary, .walking, .running, .automotive, .cycling, .unknown]
        return TimestampFormatting.format(activity.startNanoseconds) + ","
            + columns.map { flags.contains($0) ? "1" : "0" }.joined(separator: ",") + ",\(activity.confidence.rawValue)"
    }
}
