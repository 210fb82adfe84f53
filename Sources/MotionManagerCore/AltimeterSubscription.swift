package import MotionAlgorithms
package import MotionEngine
import Synchronization
import Locking

/// What an altimeter subscription receives, on the engine thread.
package enum AltimeterFeed: Sendable {
    /// The altitude now: a second after the start's first pressure reading, then about every
    /// second (`AltitudeUpdateSchedule`). Relative altitude counts from that first update.
    case update(AltitudeValues)
    /// The board stopped (a chip failed): nothing more comes; starting again brings it up again.
    case failed(MotionManagerError)
}

/// One `startRelativeAltitudeUpdates` or `startAbsoluteAltitudeUpdates` of one altimeter: its
/// own `ReadingTap` on the board's barometer and thermometer and its own `AltitudeStage`, so
/// each start measures relative altitude from zero, as Core Motion's does. `sink` runs on the
/// engine thread and must be quick (hand work to another thread); it gets the subscription with
/// each feed, so work handed elsewhere can check `isLive` there. Per reading: one uncontended
/// lock and the stage, no allocation.
package final class AltimeterSubscription: Sendable {
    private let sink: @Sendable (AltimeterSubscription, AltimeterFeed) -> Void
    private let live = Atomic<Bool>(true)

    private struct State {
        var stage: AltitudeStage
        var schedule = AltitudeUpdateSchedule()
    }
    private let state: Lock<State>

    package init(reference: AltitudeReference, sink: @escaping @Sendable (AltimeterSubscription, AltimeterFeed) -> Void) {
        self.sink = sink
        state = Lock(State(stage: AltitudeStage(reference: reference)))
    }

    package var isLive: Bool { live.load(ordering: .acquiring) }

    package func cancel() { live.store(false, ordering: .releasing) }

    /// Hands `feed` to the sink unless cancelled: for updates computed elsewhere (motiond's).
    func deliver(_ feed: AltimeterFeed) {
        if isLive { sink(self, feed) }
    }

    /// A tap feeding this subscription every barometer and thermometer reading.
    package func makeTap() -> ReadingTap {
        ReadingTap(channels: [.barometer, .thermometer]) { [self] event in handle(event) }
    }

    /// On the engine thread: one reading through the stage, and the update if one is due.
    private func handle(_ event: TapEvent) {
        guard isLive else { return }
        switch event {
        case .reading(let reading):
            let due = state.withLock { state -> AltitudeValues? in
                guard state.stage.process(reading) != nil, state.schedule.isDue(at: reading.timestampNanoseconds) else { return nil }
                return state.stage.update(at: reading.timestampNanoseconds)
            }
            if let due { sink(self, .update(due)) }
        case .failed(let failure):
            sink(self, .failed(failure))
        }
    }
}
