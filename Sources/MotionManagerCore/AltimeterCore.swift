package import MotionAlgorithms
package import MotionDaemonClient
package import MotionEngine
import Locking

/// What an altimeter is, without Core Motion's classes: a board, at most one running relative
/// altitude subscription and one absolute altitude subscription (each with its own tap on the
/// board's barometer and its own stage: relative altitude starts at zero at each start, as Core
/// Motion's does), the latest update of each (for polling) and the sea-level reference absolute
/// altitude is measured against. `CMAltimeter` (the Swift API) and `ocm_altimeter` (the C API)
/// both wrap one; neither needs Foundation here.
///
/// Unlike the pedometer, nothing runs while no updates are on: the board's engine starts with
/// the first start and ends with the last stop. When motiond serves the board
/// (`DaemonBackend`'s rule, the motion manager's and the pedometer's), the daemon runs the same
/// stage for each start instead (`DaemonAltimeter`), so the two never fight over the
/// barometer. Thread-safe: every member may be used from any
/// thread. Its deinit stops its subscriptions.
package final class AltimeterCore: DaemonOrBoardCore, Sendable {
    /// The board file, resolved (absolute); motiond's board file when the daemon serves it.
    package let boardPath: String
    /// Nil when motiond serves the board (`daemon`) or the board file could not be loaded.
    package let board: LiveBoard?
    /// The connection to motiond when it serves this altimeter (`DaemonBackend`'s rule).
    package let daemon: DaemonClient?
    /// Why the board file could not be loaded (nothing is then available).
    package let boardError: MotionManagerError?
    /// The loader's own error, for the C API's status codes.
    package let boardFailure: EngineError?

    package enum Kind: Sendable {
        case relative, absolute

        var name: String { self == .relative ? "relative altitude" : "absolute altitude" }
    }

    private struct Running {
        let subscription: AltimeterSubscription
        /// Its tap on the in-process board (nil on motiond).
        let tap: ReadingTap?
    }

    /// One kind's running subscription and latest update.
    private struct Slot {
        var running: Running?
        var latest: AltitudeValues?
    }

    private struct State {
        var relative = Slot()
        var absolute = Slot()
        /// The failure that stopped the board, or why it could not be brought up.
        var failure: MotionManagerError?
        var reference = AltitudeReference.standardAtmosphere

        subscript(kind: Kind) -> Slot {
            get { kind == .relative ? relative : absolute }
            set { if kind == .relative { relative = newValue } else { absolute = newValue } }
        }
    }

    private let state = Lock(State())

    /// An altimeter of the board file at `board` (resolved as `LiveBoard.resolve` does), or of
    /// the system's board when nil (motiond's when it runs: `DaemonBackend`; else the default
    /// board). In-process, reads the board file only; the board comes up at the first start.
    package init(board: String?, daemonSocket: String? = nil) {
        (daemon, self.board, boardPath, boardError, boardFailure) = DaemonBackend.source(board: board, daemonSocket: daemonSocket, name: "altimeter")
    }

    deinit {
        stopUpdates(.relative)
        stopUpdates(.absolute)
        daemon?.close()
    }

    // MARK: Availability

    /// Relative and absolute altitude: the board has a barometer.
    package var isAvailable: Bool {
        // A version 1 motiond (an older release) has no altitude streams.
        daemon.map { $0.welcome.sensors.contains(.barometer) && $0.welcome.version >= 2 } ?? board?.channels.contains(.barometer) ?? false
    }

    /// `isAvailable` of the board file at `board` (nil: the system's board, motiond's when it
    /// runs): for Core Motion's class methods.
    package static func isAvailable(board: String?) -> Bool {
        DaemonBackend.boardHas(.barometer, board: board)
    }

    // MARK: Reference

    /// The sea-level pressure absolute altitude is measured against (the standard atmosphere's
    /// 1013.25 hPa until set); a change applies from the next start.
    package var reference: AltitudeReference { state.withLock { $0.reference } }

    /// Measures absolute altitude against a sea-level pressure of `kilopascals` (such as a
    /// nearby airfield's QNH) known to `uncertainty` kPa (one standard deviation), from the
    /// next start. Throws for a pressure no sea level has (outside 80…110 kPa; the records are
    /// 87.0 and 108.4) or an uncertainty outside 0…10 kPa.
    package func setSeaLevelPressure(kilopascals: Double, uncertainty: Double) throws(MotionManagerError) {
        let reference = try AltitudeReference.checked(kilopascals: kilopascals, uncertainty: uncertainty)
        state.withLock { $0.reference = reference }
    }

    // MARK: Updates

    /// Starts `kind` updates, replacing running ones: the first a second after the start
    /// (relative altitude 0), then about every second. `deliver` runs on the engine thread;
    /// updates also go to `latest(kind)`. Throws when the board has no barometer or could not be brought up.
    package func startUpdates(_ kind: Kind, deliver: (@Sendable (AltimeterSubscription, AltimeterFeed) -> Void)?) throws(MotionManagerError) {
        if let daemon, let error = DaemonBackend.authorizationError(daemon, doing: "Starting \(kind.name) updates") { throw error }
        guard daemon != nil || board != nil, isAvailable else { throw unavailable(kind) }
        let subscription = AltimeterSubscription(reference: reference) { [weak self] subscription, feed in
            self?.state.withLock { state in
                guard state[kind].running?.subscription === subscription else { return }  // replaced or stopped
                switch feed {
                case .update(let values): state[kind].latest = values
                case .failed(let failure): state.failure = failure
                }
            }
            deliver?(subscription, feed)
        }
        let running = Running(subscription: subscription, tap: daemon == nil ? subscription.makeTap() : nil)
        // Installed before its tap is added (its first update comes a second later and finds
        // it); what it replaces stops now. A new start: the old failure is past.
        let old = state.withLock { state -> Running? in
            defer { (state[kind], state.failure) = (Slot(running: running), nil) }
            return state[kind].running
        }
        if let old { remove(old, kind, unsubscribing: false) }  // a new start replaces it on motiond too
        do throws(MotionManagerError) {
            if let daemon {
                try DaemonAltimeter.subscribe(subscription, kind: kind, reference: reference, on: daemon)
            } else if let board, let tap = running.tap {
                try board.add(tap)
            }
        } catch {
            state.withLock { state in
                state.failure = error
                if state[kind].running?.subscription === subscription { state[kind].running = nil }
            }
            throw error
        }
        // A stop or another start on another thread while the tap was being added did not see
        // it on the board: take it off now.
        // On motiond only a stop (nothing running now) takes it off: another start replaced it there.
        let current = state.withLock { $0[kind].running?.subscription }
        if current !== subscription { remove(running, kind, unsubscribing: current == nil) }
    }

    /// Stops `kind` updates: once this returns (outside a callback), none is delivered.
    package func stopUpdates(_ kind: Kind) {
        let old = state.withLock { state -> Running? in
            defer { state[kind].running = nil }
            return state[kind].running
        }
        if let old { remove(old, kind) }
    }

    /// The latest `kind` update since those updates last started (nil before the first).
    package func latest(_ kind: Kind) -> AltitudeValues? {
        state.withLock { $0[kind].latest }
    }

    /// Stops `running`: off the board's engine, or (`unsubscribing`) off motiond.
    private func remove(_ running: Running, _ kind: Kind, unsubscribing: Bool = true) {
        running.subscription.cancel()
        if let tap = running.tap { board?.remove(tap) }
        if unsubscribing, let daemon { daemon.unsubscribe(kind == .relative ? .relativeAltitude : .absoluteAltitude) }
    }

    /// The failure that stopped the board, or why it could not be brought up.
    package var failure: MotionManagerError? { state.withLock { $0.failure } }

    // MARK: Helpers

    private func unavailable(_ kind: Kind) -> MotionManagerError {
        if let daemon, daemon.welcome.version < 2 {
            return MotionManagerError(.notAvailable, "motiond at \(daemon.path) is of an older release (protocol version \(daemon.welcome.version)) "
                                      + "that serves no altitude. Update motiond to this OpenCoreMotion's release.")
        }
        if let daemon {
            return MotionManagerError(.notAvailable, "motiond's board \"\(daemon.welcome.boardName)\" (at \(daemon.path)) has no barometer, which "
                                      + "\(kind.name) updates need. Check `CMAltimeter.isRelativeAltitudeAvailable()` before starting, "
                                      + "or run motiond with a board that has one.")
        }
        guard let board else { return boardError ?? MotionManagerError(.notAvailable, "The board file \(boardPath) could not be loaded.") }
        let what = kind == .relative ? "relative altitude updates" : "absolute altitude updates"
        let check = kind == .relative ? "isRelativeAltitudeAvailable()" : "isAbsoluteAltitudeAvailable()"
        return MotionManagerError(.notAvailable, "The board file \(board.path) (\"\(board.description.name)\") has no barometer, which \(what) "
                                  + "need: its chips are \(BoardSensors.chipList(board.description)). Check `CMAltimeter.\(check)` "
                                  + "before starting, or use a board file with one (driver = \(BoardSensors.drivers(giving: .barometer))).")
    }
}
