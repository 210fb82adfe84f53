import MotionAlgorithms
package import MotionDaemonClient
import MotionDaemonProtocol
package import MotionEngine
import Locking

/// What a pedometer is, without Core Motion's classes: a board, its shared `BoardPedometer`
/// (opened for as long as this lives, so the board counts steps from the moment the first
/// pedometer of it is created), at most one running update subscription and one event
/// subscription, and the latest update (for polling). `CMPedometer` (the Swift API) and
/// `ocm_pedometer` (the C API) both wrap one; neither needs Foundation here.
///
/// Thread-safe: every member may be used from any thread. Its deinit stops its subscriptions and
/// closes the board's pedometer.
package final class PedometerCore: DaemonOrBoardCore, Sendable {
    /// The board file, resolved (absolute); motiond's board file when the daemon serves it.
    package let boardPath: String
    /// Nil when motiond serves the board (`daemon`) or the board file could not be loaded.
    package let board: LiveBoard?
    /// The connection to motiond when it serves this pedometer (`DaemonBackend`'s rule): live
    /// updates from its pipeline, queries from its 7-day history.
    package let daemon: DaemonClient?
    /// Why the board file could not be loaded (nothing is then available).
    package let boardError: MotionManagerError?
    /// The loader's own error, for the C API's status codes.
    package let boardFailure: EngineError?
    /// Nil when the board could not be loaded or has neither an accelerometer nor a barometer.
    private let pedometer: BoardPedometer?

    private struct State {
        var updates: PedometerSubscription?
        var events: PedometerSubscription?
        var latest: PedometerValues?
        /// The failure that stopped the board, for the C API's error message.
        var failure: MotionManagerError?
    }

    private let state = Lock(State())

    /// A pedometer of the board file at `board` (resolved as `LiveBoard.resolve` does), or of
    /// the system's board when nil (motiond's when it runs: `DaemonBackend`). In-process, it
    /// brings the board up and starts counting if it has an accelerometer or a barometer; a
    /// board that cannot be brought up is tried again by `startUpdates` and `startEventUpdates`.
    package init(board: String?, daemonSocket: String? = nil) {
        (daemon, self.board, boardPath, boardError, boardFailure) = DaemonBackend.source(board: board, daemonSocket: daemonSocket, name: "pedometer")
        if let live = self.board, !live.channels.isDisjoint(with: [.accelerometer, .barometer]) {
            pedometer = BoardPedometer.of(live)
        } else {
            pedometer = nil
        }
        do {
            try pedometer?.open()
        } catch {
            state.withLock { $0.failure = error }
        }
    }

    deinit {
        stopUpdates()
        stopEventUpdates()
        pedometer?.close()
        daemon?.close()
    }

    // MARK: Availability

    /// Steps, distance, pace, cadence and pause/resume events: the board has an accelerometer.
    package var isStepCountingAvailable: Bool {
        daemon.map { $0.welcome.sensors.contains(.accelerometer) } ?? board?.channels.contains(.accelerometer) ?? false
    }
    /// Floors: the board has a barometer.
    package var isFloorCountingAvailable: Bool {
        daemon.map { $0.welcome.sensors.contains(.barometer) } ?? board?.channels.contains(.barometer) ?? false
    }

    /// `isStepCountingAvailable` of the board file at `board` (nil: the system's board),
    /// without opening a pedometer (which would start counting): for Core Motion's class methods.
    package static func isStepCountingAvailable(board: String?) -> Bool {
        DaemonBackend.boardHas(.accelerometer, board: board)
    }

    package static func isFloorCountingAvailable(board: String?) -> Bool {
        DaemonBackend.boardHas(.barometer, board: board)
    }

    // MARK: Updates and events

    /// Starts live updates cumulative from `start` (engine clock, ns; the history answers the
    /// part before now), replacing running ones: one at once, then about every 2.5 s while the
    /// user walks. `deliver` runs on the engine thread; updates also go to `latest`. Throws when
    /// the board has no accelerometer or barometer, or could not be brought up.
    package func startUpdates(from start: Int64,
                              deliver: (@Sendable (PedometerSubscription, PedometerFeed) -> Void)?) throws(MotionManagerError) {
        if daemon != nil {
            try checkDaemon(for: "pedometer updates", available: isStepCountingAvailable || isFloorCountingAvailable)
        }
        let pedometer = daemon != nil ? nil : try running(for: "pedometer updates", needs: [.accelerometer, .barometer])
        let subscription = PedometerSubscription(.updates(fromNanoseconds: start)) { [weak self] subscription, feed in
            self?.state.withLock { state in
                switch feed {
                case .update(let values): state.latest = values
                case .failed(let failure): state.failure = failure
                case .event: break
                }
            }
            deliver?(subscription, feed)
        }
        try replace(.updates, with: subscription, in: pedometer)
    }

    /// Stops live updates: once this returns (outside a callback), none is delivered.
    package func stopUpdates() { try? replace(.updates, with: nil, in: pedometer) }

    /// Starts pause and resume events (replacing running ones); `deliver` runs on the engine
    /// thread. Throws when the board has no accelerometer or could not be brought up.
    package func startEventUpdates(deliver: @escaping @Sendable (PedometerSubscription, PedometerFeed) -> Void) throws(MotionManagerError) {
        if daemon != nil { try checkDaemon(for: "pedometer events", available: isStepCountingAvailable) }
        let pedometer = daemon != nil ? nil : try running(for: "pedometer events", needs: [.accelerometer])
        let subscription = PedometerSubscription(.events) { [weak self] subscription, feed in
            if case .failed(let failure) = feed { self?.state.withLock { $0.failure = failure } }
            deliver(subscription, feed)
        }
        try replace(.events, with: subscription, in: pedometer)
    }

    package func stopEventUpdates() { try? replace(.events, with: nil, in: pedometer) }

    /// The latest live update since updates last started (nil before the first).
    package var latest: PedometerValues? { state.withLock { $0.latest } }

    /// The failure that stopped the board, or why it could not be brought up.
    package var failure: MotionManagerError? { state.withLock { $0.failure } }

    // MARK: Queries

    /// What was counted from `start` to `end` (engine clock, ns; `end` excluded), from motiond's
    /// 7-day history. In-process there is no history to ask (`HistoryQueries`): an error that
    /// says to start motiond, never an empty answer that reads as "no steps".
    package func query(from start: Int64, to end: Int64) throws(MotionManagerError) -> PedometerValues {
        if let daemon {
            try checkDaemon(for: "pedometer queries", available: isStepCountingAvailable || isFloorCountingAvailable)
            guard start <= end else {
                throw MotionManagerError(.invalidParameter, "The query's start (\(start) ns) is after its end (\(end) ns): give the earlier date first.")
            }
            do {
                let answer = try daemon.pedometer(from: DaemonSamples.wallSeconds(start), to: DaemonSamples.wallSeconds(end))
                var values = DaemonSamples.pedometerValues(answer)
                (values.startNanoseconds, values.endNanoseconds) = (start, end)  // exactly the range asked, not its round trip
                return values
            } catch {
                throw DaemonBackend.error(error, doing: "A pedometer query to motiond")
            }
        }
        guard pedometer != nil else { throw unavailable("pedometer queries", needs: [.accelerometer, .barometer]) }
        guard start <= end else {
            throw MotionManagerError(.invalidParameter, "The query's start (\(start) ns) is after its end (\(end) ns): give the earlier date first.")
        }
        throw HistoryQueries.needsDaemon("Pedometer queries (queryPedometerData, ocm_pedometer_query)", live: "startUpdates(from:withHandler:), ocm_pedometer_start_updates")
    }

    // MARK: Helpers

    private enum Slot { case updates, events }

    /// Swaps the subscription in `slot` for `new` (subscribing it), stopping the old one.
    private func replace(_ slot: Slot, with new: PedometerSubscription?, in pedometer: BoardPedometer?) throws(MotionManagerError) {
        guard daemon != nil || pedometer != nil else { return }
        let old = state.withLock { state in
            switch slot {
            case .updates:
                defer { state.updates = new }
                if new != nil { state.latest = nil }
                return state.updates
            case .events:
                defer { state.events = new }
                return state.events
            }
        }
        if let daemon {
            let stream: WireStream = slot == .updates ? .pedometer : .pedometerEvents
            old?.cancel()
            if let new {
                do {
                    try DaemonPedometer.subscribe(new, to: stream, on: daemon)
                } catch {
                    state.withLock { state in
                        if slot == .updates, state.updates === new { state.updates = nil }
                        if slot == .events, state.events === new { state.events = nil }
                    }
                    throw error
                }
            } else if old != nil {
                daemon.unsubscribe(stream)
            }
            return
        }
        guard let pedometer else { return }
        if let old { pedometer.unsubscribe(old) }
        if let new { pedometer.subscribe(new) }
    }

    /// Throws when motiond does not authorize this user or its board lacks the sensor.
    private func checkDaemon(for what: String, available: Bool) throws(MotionManagerError) {
        guard let daemon else { return }
        if let error = DaemonBackend.authorizationError(daemon, doing: "Starting \(what)") { throw error }
        guard available else {
            throw MotionManagerError(.notAvailable, "motiond's board \"\(daemon.welcome.boardName)\" has no accelerometer or barometer, which \(what) need. "
                                     + "Check `CMPedometer.isStepCountingAvailable()` before starting.")
        }
    }

    /// The board's pedometer, counting, for `what`; or the error saying which sensor is missing
    /// or why the board could not be brought up.
    private func running(for what: String, needs sensors: Set<SensorChannel>) throws(MotionManagerError) -> BoardPedometer {
        guard let pedometer, let board, !board.channels.isDisjoint(with: sensors) else { throw unavailable(what, needs: sensors) }
        do {
            try pedometer.startCounting()
        } catch {
            state.withLock { $0.failure = error }
            throw error
        }
        return pedometer
    }

    private func unavailable(_ what: String, needs sensors: Set<SensorChannel>) -> MotionManagerError {
        guard let board else { return boardError ?? MotionManagerError(.notAvailable, "The board file \(boardPath) could not be loaded.") }
        let needed = sensors.sorted { $0.rawValue < $1.rawValue }
        let names = needed.map { $0 == .accelerometer ? "accelerometer" : "barometer" }.joined(separator: " or ")
        let drivers = needed.map { BoardSensors.drivers(giving: $0) }.joined(separator: "; ")
        return MotionManagerError(.notAvailable, "The board file \(board.path) (\"\(board.description.name)\") has no \(names), which \(what) "
                                  + "need: its chips are \(BoardSensors.chipList(board.description)). Check `CMPedometer.isStepCountingAvailable()` "
                                  + "before starting, or use a board file with one (driver = \(drivers)).")
    }
}
