package import MotionEngine
import Synchronization

/// What an activity subscription receives, on the engine thread.
package enum ActivityFeed: Sendable {
    /// The activity now (flags, confidence, start date; times on the engine's clock, ns): the
    /// current one when updates start, then one per transition (flags or confidence changed).
    case update(MotionActivityUpdate)
    /// The board stopped (a chip failed): nothing more comes; starting again brings it up again.
    case failed(MotionManagerError)
}

/// One `startActivityUpdates` of one activity manager, as `BoardActivity` sees it. `sink` runs
/// on the engine thread and must be quick (hand work to another thread); it gets the
/// subscription with each feed, so work handed elsewhere can check `isLive` there.
package final class ActivitySubscription: Sendable {
    private let sink: @Sendable (ActivitySubscription, ActivityFeed) -> Void
    private let live = Atomic<Bool>(true)

    package init(sink: @escaping @Sendable (ActivitySubscription, ActivityFeed) -> Void) {
        self.sink = sink
    }

    package var isLive: Bool { live.load(ordering: .acquiring) }

    func cancel() { live.store(false, ordering: .releasing) }

    /// Gives `feed` to the sink unless the subscription was stopped.
    func deliver(_ feed: ActivityFeed) {
        guard isLive else { return }
        sink(self, feed)
    }
}
