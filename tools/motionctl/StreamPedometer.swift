import Foundation
import MotionAlgorithms
import MotionEngine

extension Stream {
    /// `stream --pedometer`: the board's readings through the pedometer stage as the live engine
    /// runs it, printing what a CMPedometer app would get: each live update (one at once, then
    /// every 2.5 s while steps are taken, none while still; cumulative from the start, from
    /// the history) and each pause or resume (at the time the user stopped or started, with
    /// when it was decided). Times in seconds of board time; distance in m, cadence in
    /// steps/s, pace in s/m; "-" where Core Motion gives nil.
    func streamPedometer(_ runtime: BoardRuntime) throws {
        var stage = PedometerStage(stride: try PedometerProfile.load().stride)
        var history = PedometerHistory()
        var schedule = PedometerUpdateSchedule()
        var start: Int64?
        let hasBarometer = runtime.description.channels.contains(.barometer)  // floors nil without one
        print("       t s   steps  distance m  cadence  pace s/m  average pace  floors up/down")
        try runtime.run(untilNanoseconds: playback.durationNanoseconds) { reading in
            let time = reading.timestampNanoseconds
            let from = start ?? time
            start = from
            stage.process(reading) { output in
                history.append(output)
                if case .event(let event) = output {
                    print(String(format: "%10.3f   ", Double(event.timeNanoseconds) / 1e9) + event.kind.rawValue
                          + String(format: " (decided at %.3f s)", Double(event.deliveredNanoseconds) / 1e9))
                }
            }
            guard schedule.isDue(at: time, steps: history.totalSteps) else { return }
            let totals = history.data(from: from, to: time + 1)
            let floors = hasBarometer ? "\(totals.floorsAscended)/\(totals.floorsDescended)" : "-"
            print(String(format: "%10.3f  %6d  %10.2f  ", Double(time) / 1e9, totals.numberOfSteps, totals.distanceMeters)
                  + [Self.text(stage.currentCadence, width: 7), Self.text(stage.currentPace, width: 8),
                     Self.text(totals.averageActivePace, width: 12), floors].joined(separator: "  "))
        }
        let end = runtime.nowNanoseconds
        let totals = history.data(from: start ?? 0, to: end + 1)
        print(String(format: "walked %d steps, %.2f m in %.2f s", totals.numberOfSteps, totals.distanceMeters, Double(end - (start ?? 0)) / 1e9))
    }

    /// A figure with two decimals ("-" for nil), right-aligned in `width` characters.
    private static func text(_ value: Double?, width: Int) -> String {
        let text = value.map { String(format: "%.2f", $0) } ?? "-"
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
