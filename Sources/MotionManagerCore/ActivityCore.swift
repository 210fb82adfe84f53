package import MotionDaemonClient
import MotionDaemonProtocol
package import MotionEngine
import Locking

/// What a motion-activity manager is, without Core Motion's classes: a board, its shared
/// `BoardActivity` (opened for as long as this lives, so the board classifies from the moment
/// the first manager of it is created), at most one running update subscription, and the
/// latest update (for polling). `CMMotionActivityManager` (the Swift API) and
/// `ocm_activity_manager` (the C API) both wrap one; neither needs Foundation here.
///
/// Activity needs an accelerometer; a gyroscope, when the board has one, helps tell a device
/// at rest from one being handled. Times are on the engine's clock (CLOCK_MONOTONIC, ns; see
/// `WallClock` for dates). Thread-safe: every member may be used from any thread. Its deinit
/// stops its updates and closes the board's activity.
package final class ActivityCore: DaemonOrBoardCore, Sendable {
    /// The board file, resolved (absolute); motiond's board file when the daemon serves it.
    package let boardPath: String
    /// Nil when motiond serves the board (`daemon`) or the board file could not be loaded.
    package let board: LiveBoard?
    /// The connection to motiond when it serves this manager (`DaemonBackend`'s rule): live
    /// transitions from its pipeline, queries from its 7-day history.
    package let daemon: DaemonClient?
    /// Why the board file could not be loaded (nothing is then available).
    package let boardError: MotionManagerError?
    /// The loader's own error, for the C API's status codes.
    package let boardFailure: EngineError?
    /// Nil when the board could not be loaded or has no accelerometer.
    private let activity: BoardActivity?

    private struct State {
        var updates: ActivitySubscription?
        var latest: MotionActivityUpdate?
        /// The failure that stopped the board, or why it could not be brought up.
        var failure: MotionManagerError?
    }

    private let state = Lock(State())

    /// An activity manager of the board file at `board` (resolved as `LiveBoard.resolve` does),
    /// or of the system's board when nil (motiond's when it runs: `DaemonBackend`). In-process,
    /// it brings the board up and starts classifying if it has an accelerometer; a board that
    /// cannot be brought up is tried again by `startUpdates`.
    package init(board: String?, daemonSocket: String? = nil) {
        (daemon, self.board, boardPath, boardError, boardFailure) = DaemonBackend.source(board: board, daemonSocket: daemonSocket, name: "activity manager")
        if let live = self.board, live.channels.contains(.accelerometer) {
            activity = BoardActivity.of(live)
        } else {
            activity = nil
        }
        do {
            try activity?.open()
        } catch {
            state.withLock { $0.failure = error }
        }
    }

    deinit {
        stopUpdates()
        activity?.close()
        daemon?.close()
    }

    // MARK: Availability

    /// The board has an accelerometer.
    package var isAvailable: Bool { daemon.map { $0.welcome.sensors.contains(.accelerometer) } ?? (activity != nil) }

    /// `isAvailable` of the board file at `board` (nil: the system's board), without opening an
    /// activity manager (which would start classifying): for Core Motion's class method.
    package static func isAvailable(board: String?) -> Bool {
        DaemonBackend.boardHas(.accelerometer, board: board)
    }

    // MARK: Updates

    /// Starts live updates, replacing running ones: the current activity at once (`unknown`
    /// for the first 2 s the board classifies), then one per transition. `deliver` runs on the
    /// engine thread; updates also go to `latest`. Throws when the board has no accelerometer
    /// or could not be brought up.
    package func startUpdates(deliver: (@Sendable (ActivitySubscription, ActivityFeed) -> Void)?) throws(MotionManagerError) {
        if let daemon {
            if let error = DaemonBackend.authorizationError(daemon, doing: "Starting activity updates") ?? unavailableError { throw error }
        } else {
            guard let activity else { throw unavailable("activity updates") }
            do {
                try activity.startClassifying()
            } catch {
                state.withLock { $0.failure = error }
                throw error
            }
        }
        let subscription = ActivitySubscription { [weak self] subscription, feed in
            self?.state.withLock { state in
                switch feed {
                case .update(let update): state.latest = update
                case .failed(let failure): state.failure = failure
                }
            }
            deliver?(subscription, feed)
        }
        let old = state.withLock { state in
            defer { (state.updates, state.latest, state.failure) = (subscription, nil, nil) }  // a new start: the old failure is past
            return state.updates
        }
        if let activity {
            if let old { activity.unsubscribe(old) }
            activity.subscribe(subscription)
        } else if let daemon {
            old?.cancel()  // the daemon's stream is re-subscribed with the new handler
            try subscribe(subscription, on: daemon)
        }
    }

    /// Stops live updates: once this returns (outside a callback), none is delivered.
    package func stopUpdates() {
        let old = state.withLock { state in
            defer { state.updates = nil }
            return state.updates
        }
        if let old { activity?.unsubscribe(old) }
        if let old, let daemon {
            old.cancel()
            daemon.unsubscribe(.activity)
        }
    }

    /// Feeds `subscription` from motiond's activity stream: its current activity at once,
    /// then its transitions (and after a daemon restart its current activity again).
    private func subscribe(_ subscription: ActivitySubscription, on daemon: DaemonClient) throws(MotionManagerError) {
        do {
            try daemon.subscribe(.activity) { delivery in
                switch delivery {
                case .samples(.activity(let updates)):
                    for update in updates { subscription.deliver(.update(DaemonSamples.activityUpdate(update))) }
                case .ended(let error):
                    subscription.deliver(.failed(DaemonBackend.error(error, doing: "Activity updates from motiond")))
                case .samples, .dropped, .interrupted, .resumed, .batch, .droppedBatches:
                    break
                }
            }
        } catch {
            state.withLock { state in if state.updates === subscription { state.updates = nil } }
            throw DaemonBackend.error(error, doing: "Starting activity updates from motiond")
        }
    }

    /// The latest live update since updates last started (nil before the first).
    package var latest: MotionActivityUpdate? { state.withLock { $0.latest } }

    /// The failure that stopped the board, or why it could not be brought up.
    package var failure: MotionManagerError? { state.withLock { $0.failure } }

    // MARK: Queries

    /// The activities from `start` to `end` (engine clock, ns; `end` excluded), smoothed as a
    /// history reads (`ActivityHistory`): every record overlapping the range, oldest first, the
    /// first possibly starting before `start`. From motiond's 7-day history; in-process there is
    /// none to ask (`HistoryQueries`): an error that says to start motiond.
    package func query(from start: Int64, to end: Int64) throws(MotionManagerError) -> [ActivityHistory.Record] {
        if let daemon {
            if let error = DaemonBackend.authorizationError(daemon, doing: "Activity queries") { throw error }
            guard start <= end else {
                throw MotionManagerError(.invalidParameter, "The query's start (\(start) ns) is after its end (\(end) ns): give the earlier date first.")
            }
            do {
                return try daemon.activity(from: DaemonSamples.wallSeconds(start), to: DaemonSamples.wallSeconds(end)).map(DaemonSamples.activityRecord)
            } catch {
                throw DaemonBackend.error(error, doing: "An activity query to motiond")
            }
        }
        guard activity != nil else { throw unavailable("activity queries") }
        guard start <= end else {
            throw MotionManagerError(.invalidParameter, "The query's start (\(start) ns) is after its end (\(end) ns): give the earlier date first.")
        }
        throw HistoryQueries.needsDaemon("Activity queries (queryActivityStarting, ocm_activity_manager_query)", live: "startActivityUpdates(to:withHandler:), ocm_activity_manager_start_updates")
    }

    /// Why activity is not available on this board (nil if it is): the board file could not be
    /// loaded, or has no accelerometer.
    package var unavailableError: MotionManagerError? {
        if let daemon {
            return isAvailable ? nil : MotionManagerError(.notAvailable, "motiond's board \"\(daemon.welcome.boardName)\" has no accelerometer, which "
                                                          + "activity updates need. Check `CMMotionActivityManager.isActivityAvailable()` before starting.")
        }
        return activity == nil ? unavailable("activity updates") : nil
    }

    // MARK: Helpers

    private func unavailable(_ what: String) -> MotionManagerError {
        guard let board else { return boardError ?? MotionManagerError(.notAvailable, "The board file \(boardPath) could not be loaded.") }
        return MotionManagerError(.notAvailable, "The board file \(board.path) (\"\(board.description.name)\") has no accelerometer, which \(what) "
                                  + "need: its chips are \(BoardSensors.chipList(board.description)). Check `CMMotionActivityManager.isActivityAvailable()` "
                                  + "before starting, or use a board file with one (driver = \(BoardSensors.drivers(giving: .accelerometer))).")
    }
}
