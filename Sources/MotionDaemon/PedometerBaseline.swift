import MotionDaemonProtocol
import MotionEngine
import MotionManagerCore
import Locking

/// A pedometer stream that starts before the daemon did: the board's live counter has counted
/// only since the daemon started, so each live update gets the stored history of the time
/// before added (steps, distance, floors). The history thread answers that part once; until
/// it has, the latest live update waits here and goes out with it.
///
/// The average active pace stays the live counter's (the stored part's pace is not merged).
final class PedometerBaseline: Sendable {
    private struct State {
        var base: PedometerRangeTotals?
        var waiting: PedometerSample?
    }
    private let state = Lock(State())
    private let outbox: ClientOutbox
    /// The stream's start, wire seconds (what every update says it counts from).
    private let from: Double

    init(outbox: ClientOutbox, from: Double) {
        self.outbox = outbox
        self.from = from
    }

    /// A live update (engine thread).
    func deliver(_ live: PedometerSample) {
        let ready = state.withLock { state -> PedometerSample? in
            guard let base = state.base else {
                state.waiting = live
                return nil
            }
            return Self.combine(live, base, from: from)
        }
        if let ready { outbox.offer(ready) }
    }

    /// The stored totals of the time before the daemon started (history thread).
    func setBase(_ base: PedometerRangeTotals) {
        let waiting = state.withLock { state -> PedometerSample? in
            state.base = base
            defer { state.waiting = nil }
            return state.waiting
        }
        if let waiting { outbox.offer(Self.combine(waiting, base, from: from)) }
    }

    static func combine(_ live: PedometerSample, _ base: PedometerRangeTotals, from: Double) -> PedometerSample {
        var sample = live
        sample.start = from
        sample.steps += base.numberOfSteps
        sample.distance += base.distanceMeters
        sample.floorsAscended = live.floorsAscended.map { $0 + base.floorsAscended }
        sample.floorsDescended = live.floorsDescended.map { $0 + base.floorsDescended }
        return sample
    }
}
