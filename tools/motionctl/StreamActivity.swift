import Foundation
import MotionAlgorithms
import MotionEngine

extension Stream {
    /// `stream --activity`: the board's readings through the activity stage as the live engine
    /// runs it, printing what a CMMotionActivityManager app would get: each update (one per
    /// transition: the flags or the confidence changed), with the activity's start date and
    /// when it was decided; at the end, the smoothed history a query over the whole run returns.
    /// Times in seconds of board time.
    func streamActivity(_ runtime: BoardRuntime) throws {
        var stage = ActivityStage()
        var history = ActivityHistory()
        print("  decided s   started s   activity                       confidence")
        try runtime.run(untilNanoseconds: playback.durationNanoseconds) { reading in
            stage.process(reading) { update in
                history.record(update)
                print(String(format: "%11.3f %11.3f   ", Double(update.deliveredNanoseconds) / 1e9, Double(update.activity.startNanoseconds) / 1e9)
                      + Self.name(update.activity.flags).padding(toLength: 30, withPad: " ", startingAt: 0) + " "
                      + Self.name(update.activity.confidence))
            }
        }
        history.advance(toNanoseconds: runtime.nowNanoseconds)
        print("history (smoothed, as a query over the whole run returns it):")
        for record in history.smoothed() {
            print(String(format: "%11.3f … %-9.3f ", Double(record.activity.startNanoseconds) / 1e9, Double(record.endNanoseconds) / 1e9)
                  + Self.name(record.activity.flags).padding(toLength: 30, withPad: " ", startingAt: 0) + " "
                  + Self.name(record.activity.confidence))
        }
    }

    /// "walking", "stationary automotive", or "no call" when no flag is set (Core Motion's
    /// "enough data, but no activity it can name": a device being handled).
    static func name(_ flags: MotionActivityFlags) -> String {
        let names: [(MotionActivityFlags, String)] = [(.unknown, "unknown"), (.stationary, "stationary"), (.walking, "walking"),
                                                      (.running, "running"), (.automotive, "automotive"), (.cycling, "cycling")]
        let set = names.filter { flags.contains($0.0) }.map(\.1)
        return set.isEmpty ? "no call" : set.joined(separator: " ")
    }

    static func name(_ confidence: MotionActivityConfidence) -> String {
        switch confidence {
        case .low: "low"
        case .medium: "medium"
        case .high: "high"
        }
    }
}
