package import MotionAlgorithms
package import MotionEngine
import FixedPoint
import Synchronization

/// What an altimeter is, without Core Motion's classes: a board, at most one running relative
/// altitude subscription and one absolute altitude subscription (each with its own tap on the
/// board's barometer and its own stage: relative altitude starts at zero at each start, as Core
/// Motion's does), the latest update of each (for polling) and the sea-level reference absolute
/// altitude is measured against. `CMAltimeter` (the Swift API) and `ocm_altimeter` (the C API)
/// both wrap one; neither needs Foundation here.
///
/// Unlike the pedometer, nothing runs while no updates are on: the board's engine starts with
/// the first start and ends with the last stop. Thread-safe: every member may be used from any
/// thread. Its deinit stops its subscriptions.
package final class AltimeterCore: Sendable {
    /// The board file, resolved (absolute).
    package let boardPath: String
    package let board: LiveBoard?
    /// Why the board file could not be loaded (nothing is then available).
    package let boardError: MotionManagerError?
    /// The loader's own error, for the C API's status codes.
    package let boardFailure: EngineError?

    package enum Kind: Sendable { case relative, absolute }

    private struct Running {
        let subscription: AltimeterSubscription
        let tap: ReadingTap
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

    private let state = Mutex(State())

    /// An altimeter of the board file at `board` (resolved as `LiveBoard.resolve` does): reads
    /// the board file only; the board comes up at the first start.
    package init(board: String) {
        let load = BoardFileLoad(board)
        (self.board, boardPath, boardError, boardFailure) = (load.board, load.path, load.error, load.failure)
    }

    deinit {
        stopUpdates(.relative)
        stopUpdates(.absolute)
    }

    /// "/…/boards/sim-walker.board: \"…\"" or "/…/x.board, not loaded".
    package var summary: String {
        boardPath + (board.map { ": \"\($0.description.name)\"" } ?? ", not loaded")
    }

    // MARK: Availability

    /// Relative and absolute altitude: the board has a barometer.
    package var isAvailable: Bool { board?.channels.contains(.barometer) ?? false }

    /// `isAvailable` of the board file at `board`: for Core Motion's class methods.
    package static func isAvailable(board: String) -> Bool {
        (try? LiveBoard.open(path: board))?.channels.contains(.barometer) ?? false
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
        guard kilopascals >= 80, kilopascals <= 110 else {
            throw MotionManagerError(.invalidParameter, "A sea-level pressure of \(kilopascals) kPa is outside 80…110 kPa: give it in kPa "
                                     + "(1013.2 hPa is 101.32 kPa), reduced to sea level (a QNH, not the station's own pressure).")
        }
        guard uncertainty >= 0, uncertainty <= 10 else {
            throw MotionManagerError(.invalidParameter, "An uncertainty of \(uncertainty) kPa is outside 0…10 kPa: give one standard deviation in kPa "
                                     + "(0.1 for a recent QNH from a nearby airfield).")
        }
        let reference = AltitudeReference(seaLevelPressure: Q32_32(kilopascals * 1000), uncertainty: Q32_32(uncertainty * 1000))
        state.withLock { $0.reference = reference }
    }

    // MARK: Updates

    /// Starts `kind` updates, replacing running ones: the first a second after the start
    /// (relative altitude 0), then about every second. `deliver` runs on the engine thread;
    /// updates also go to `latest(kind)`. Throws when the board has no barometer or could not be brought up.
    package func startUpdates(_ kind: Kind, deliver: (@Sendable (AltimeterSubscription, AltimeterFeed) -> Void)?) throws(MotionManagerError) {
        guard let board, isAvailable else { throw unavailable(kind) }
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
        let running = Running(subscription: subscription, tap: subscription.makeTap())
        // Installed before its tap is added (its first update comes a second later and finds
        // it); what it replaces stops now. A new start: the old failure is past.
        let old = state.withLock { state -> Running? in
            defer { (state[kind], state.failure) = (Slot(running: running), nil) }
            return state[kind].running
        }
        if let old { remove(old) }
        do {
            try board.add(running.tap)
        } catch {
            state.withLock { state in
                state.failure = error
                if state[kind].running?.subscription === subscription { state[kind].running = nil }
            }
            throw error
        }
        // A stop or another start on another thread while the tap was being added did not see
        // it on the board: take it off now.
        if state.withLock({ $0[kind].running?.subscription !== subscription }) { remove(running) }
    }

    /// Stops `kind` updates: once this returns (outside a callback), none is delivered.
    package func stopUpdates(_ kind: Kind) {
        let old = state.withLock { state -> Running? in
            defer { state[kind].running = nil }
            return state[kind].running
        }
        if let old { remove(old) }
    }

    /// The latest `kind` update since those updates last started (nil before the first).
    package func latest(_ kind: Kind) -> AltitudeValues? {
        state.withLock { $0[kind].latest }
    }

    private func remove(_ running: Running) {
        running.subscription.cancel()
        board?.remove(running.tap)
    }

    /// The failure that stopped the board, or why it could not be brought up.
    package var failure: MotionManagerError? { state.withLock { $0.failure } }

    // MARK: Helpers

    private func unavailable(_ kind: Kind) -> MotionManagerError {
        guard let board else { return boardError ?? MotionManagerError(.notAvailable, "The board file \(boardPath) could not be loaded.") }
        let what = kind == .relative ? "relative altitude updates" : "absolute altitude updates"
        let check = kind == .relative ? "isRelativeAltitudeAvailable()" : "isAbsoluteAltitudeAvailable()"
        return MotionManagerError(.notAvailable, "The board file \(board.path) (\"\(board.description.name)\") has no barometer, which \(what) "
                                  + "need: its chips are \(BoardSensors.chipList(board.description)). Check `CMAltimeter.\(check)` "
                                  + "before starting, or use a board file with one (driver = \(BoardSensors.drivers(giving: .barometer))).")
    }
}
