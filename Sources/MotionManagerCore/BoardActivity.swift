import MotionAlgorithms
package import MotionEngine
import Locking

/// One board's motion activity, shared by every activity manager of the board in the process
/// (as the board's engine is): an `ActivityStage` fed every accelerometer and gyroscope reading
/// on the engine thread through a `ReadingTap`, the `ActivityHistory` of its transitions, and
/// the live subscriptions it feeds.
///
/// It classifies from the moment the first activity manager of the board opens it until the
/// last one closes it (Core Motion's coprocessor always does; the daemon of a later issue
/// will), and keeps its history for the life of the process. Per reading the engine thread
/// takes one uncontended lock and runs the stage (no allocation); the history grows by one
/// record per transition, a few a minute; updates are handed to the subscriptions outside the
/// lock, so a callback may query or stop.
package final class BoardActivity: Sendable {
    package let board: LiveBoard

    private struct Subscriber {
        let subscription: ActivitySubscription
        /// Core Motion hands a new subscriber the current activity at once: it gets it with the
        /// next reading, on the engine thread like every update.
        var needsCurrent = true
    }

    private struct State {
        var stage = ActivityStage()
        var history = ActivityHistory()
        /// The latest update the stage emitted (nil before its first reading).
        var current: MotionActivityUpdate?
        /// The latest reading's time (ns): the history's "now" for queries.
        var latestNanoseconds: Int64 = .min
        var subscribers: [Subscriber] = []
    }

    private let state = Lock(State())
    /// The engine tap while classifying.
    private let tap: SharedTap
    /// Held by the engine thread while it runs subscriptions' sinks, so that `unsubscribe` can
    /// wait until a sink running now has returned.
    private let delivering = Lock(())

    private init(board: LiveBoard) {
        self.board = board
        tap = SharedTap(board: board, channels: [.accelerometer, .gyroscope])
    }

    private static let activities = PerBoard<BoardActivity>()

    /// The process's activity classifier of `board`.
    package static func of(_ board: LiveBoard) -> BoardActivity {
        activities.of(board) { BoardActivity(board: $0) }
    }

    // MARK: Users

    /// One more activity manager uses the board: classifying starts if it is the first. Throws
    /// why the board could not be brought up (the manager stays open: `startClassifying` tries
    /// again).
    package func open() throws(MotionManagerError) {
        tap.addUser()
        try startClassifying()
    }

    /// One activity manager less: the last one stops classifying (the history stays).
    package func close() {
        tap.close()
    }

    /// Starts classifying if it is not (the board failed, or could not be brought up before);
    /// returns once the board is up. A new start begins with a new stage: `unknown` until it
    /// has 2 s of data, as after Core Motion's start.
    package func startClassifying() throws(MotionManagerError) {
        try tap.start(reset: {
            state.withLock { state in
                state.stage = ActivityStage()  // the last session's windows are stale
                state.current = nil
            }
        }, sink: { [self] event in handle(event) })
    }

    // MARK: Subscriptions

    package func subscribe(_ subscription: ActivitySubscription) {
        state.withLock { $0.subscribers.append(Subscriber(subscription: subscription)) }
    }

    /// Stops `subscription`: once this returns (outside a sink), its sink is not running and is
    /// not called again.
    package func unsubscribe(_ subscription: ActivitySubscription) {
        subscription.cancel()
        state.withLock { $0.subscribers.removeAll { $0.subscription === subscription } }
        if !board.isEngineThread { delivering.withLock { _ in } }
    }

    /// The smoothed history records overlapping [start, end) (engine clock, ns), oldest first;
    /// the first may start before `start`, the ongoing last one ends at the latest reading.
    package func records(from start: Int64, to end: Int64) -> [ActivityHistory.Record] {
        // Copied under the lock (copy on write: no copy is made), smoothed outside it, so the
        // engine thread never waits for a query.
        let history = state.withLock { state in
            var history = state.history
            history.advance(toNanoseconds: state.latestNanoseconds)
            return history
        }
        return history.query(fromNanoseconds: start, toNanoseconds: end)
    }

    // MARK: The engine thread

    private func handle(_ event: TapEvent) {
        var feeds: [(ActivitySubscription, ActivityFeed)] = []  // allocates only when something is due
        switch event {
        case .reading(let reading):
            state.withLock { state in Self.feed(reading, state: &state, into: &feeds) }
        case .failed(let failure):
            // The engine dropped the tap: every subscription hears why and ends.
            tap.dropped()
            state.withLock { state in
                feeds = state.subscribers.map { ($0.subscription, .failed(failure)) }
                state.subscribers = []
            }
        }
        guard !feeds.isEmpty else { return }
        delivering.withLock { _ in
            for (subscription, feed) in feeds { subscription.deliver(feed) }
        }
    }

    /// One reading through the stage into the history; the update it caused (to everyone), or
    /// the current activity (to new subscribers), go into `feeds`.
    private static func feed(_ reading: SensorReading, state: inout State, into feeds: inout [(ActivitySubscription, ActivityFeed)]) {
        state.latestNanoseconds = max(state.latestNanoseconds, reading.timestampNanoseconds)
        var emitted: MotionActivityUpdate?
        state.stage.process(reading) { emitted = $0 }
        if let emitted {
            state.history.record(emitted)
            state.current = emitted
        }
        guard let current = state.current else { return }
        for index in state.subscribers.indices where emitted != nil || state.subscribers[index].needsCurrent {
            state.subscribers[index].needsCurrent = false
            feeds.append((state.subscribers[index].subscription, .update(current)))
        }
    }
}
