package import MotionEngine
import Synchronization

/// One CMPedometerData without Foundation: what the Swift API turns into `CMPedometerData` and
/// the C API into `ocm_pedometer_data`. Times on the engine's clock (CLOCK_MONOTONIC, ns; see
/// `WallClock` for dates); distance in m, pace in s/m, cadence in steps/s; nil where Core
/// Motion gives nil (floors without a barometer; pace and cadence outside live updates, or
/// while the user is not walking; the average pace before any stepping).
package struct PedometerValues: Sendable, Equatable {
    package var startNanoseconds: Int64
    package var endNanoseconds: Int64
    package var numberOfSteps: Int
    package var distanceMeters: Double
    package var floorsAscended: Int?
    package var floorsDescended: Int?
    package var currentPace: Double?
    package var currentCadence: Double?
    package var averageActivePace: Double?

    /// The totals of `[start, end)` from the history, without live figures (a query's answer);
    /// floors only if the board has a barometer.
    package init(_ totals: PedometerRangeTotals, start: Int64, end: Int64, hasBarometer: Bool) {
        startNanoseconds = start
        endNanoseconds = end
        numberOfSteps = totals.numberOfSteps
        distanceMeters = totals.distanceMeters
        floorsAscended = hasBarometer ? totals.floorsAscended : nil
        floorsDescended = hasBarometer ? totals.floorsDescended : nil
        averageActivePace = totals.averageActivePace
    }
}

/// What a pedometer subscription receives, on the engine thread.
package enum PedometerFeed: Sendable {
    /// A live update, cumulative from the subscription's start.
    case update(PedometerValues)
    /// The user paused or resumed walking.
    case event(PedometerEvent)
    /// The board stopped (a chip failed): nothing more comes; starting again brings it up again.
    case failed(MotionManagerError)
}

/// One `startUpdates` or `startEventUpdates` of one pedometer, as `BoardPedometer` sees it.
/// `sink` runs on the engine thread and must be quick (hand work to another thread); it gets the
/// subscription with each feed, so work handed elsewhere can check `isLive` there.
package final class PedometerSubscription: Sendable {
    package enum Kind: Sendable, Equatable {
        /// Live updates cumulative from this engine time, ns.
        case updates(fromNanoseconds: Int64)
        /// Pause and resume events.
        case events
    }

    package let kind: Kind
    private let sink: @Sendable (PedometerSubscription, PedometerFeed) -> Void
    private let live = Atomic<Bool>(true)

    package init(_ kind: Kind, sink: @escaping @Sendable (PedometerSubscription, PedometerFeed) -> Void) {
        self.kind = kind
        self.sink = sink
    }

    package var isLive: Bool { live.load(ordering: .acquiring) }

    func cancel() { live.store(false, ordering: .releasing) }

    /// Gives `feed` to the sink unless the subscription was stopped.
    func deliver(_ feed: PedometerFeed) {
        guard isLive else { return }
        sink(self, feed)
    }
}
