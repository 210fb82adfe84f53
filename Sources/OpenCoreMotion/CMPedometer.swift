public import Foundation
package import MotionManagerCore

/// Core Motion's handler types for the pedometer: they run on the pedometer's own serial
/// queue (`handlerQueue`), never on the engine thread. Exactly one of the arguments is nil.
public typealias CMPedometerHandler = (CMPedometerData?, (any Error)?) -> Void
public typealias CMPedometerEventHandler = (CMPedometerEvent?, (any Error)?) -> Void

/// Core Motion's `CMPedometer` on a Linux board: steps, distance, floors, pace and cadence,
/// live and over past spans, and pause/resume events.
///
/// The board is a board file, chosen as `CMMotionManager` chooses its own (default: motiond's,
/// else the system's board; `boards/sim-walker.board` simulates someone walking). Every
/// pedometer of one board file in a process shares the board's engine and its count: the board
/// counts from the moment the first pedometer of it is created until the last one is released,
/// and `startUpdates(from:)` answers from what it counted since then (kept in memory).
/// `queryPedometerData(from:to:)` answers from motiond's seven days, as Core Motion from the
/// coprocessor's; without motiond it is an error saying to start it. Steps need an accelerometer,
/// floors a barometer.
///
/// Live updates come as Core Motion's do: one at once, then about every 2.5 s while the user
/// walks, none while they are still; each is cumulative from the start date. Thread-safe.
public final class CMPedometer: Sendable, CustomStringConvertible {
    /// The board file, resolved (absolute).
    public let boardPath: String
    /// Why the board file could not be loaded: nothing is then available, and every handler
    /// gets this error.
    public let boardError: CMError?
    /// The serial queue every handler of this pedometer runs on.
    public let handlerQueue: OperationQueue
    /// The board's pedometer, subscriptions and latest update, shared with the C API.
    package let core: PedometerCore

    /// A pedometer of the board file at `board` (resolved as `CMMotionManager(board:)` does), or
    /// of the system's board when nil: motiond's when it answers (then live updates come from its
    /// pipeline and queries from its 7-day history), else the system's board in-process
    /// (`CMMotionManager.init(board:daemonSocket:)`), brought up to count from now. The rule is `CMMotionManager.init(board:daemonSocket:)`'s.
    public init(board: String? = nil, daemonSocket: String? = nil) {
        core = PedometerCore(board: board, daemonSocket: daemonSocket)
        boardPath = core.boardPath
        boardError = core.boardError.map(CMError.init)
        handlerQueue = OperationQueue()
        handlerQueue.maxConcurrentOperationCount = 1
        handlerQueue.name = "CMPedometer"
    }

    public var description: String { "CMPedometer(\(core.summary))" }

    /// Whether motiond serves this object (`DaemonBackend`'s rule: no board file given, or the
    /// daemon's own; `OPENCOREMOTION_NO_DAEMON=1` never) rather than the in-process engine.
    public var isUsingDaemon: Bool { core.daemon != nil }
    /// "via motiond at /run/opencoremotion/motiond.sock" or "in-process engine".
    public var backendDescription: String { core.backend.summary }
    /// Each break of the connection to motiond so far (it stopped or restarted), in seconds from
    /// the break to the streams' re-subscription: the client reconnects by itself, and a break
    /// is never silent (the motion manager also counts it in its dropped updates).
    public var daemonGaps: [CMTimeInterval] { core.daemon?.reconnections.gapSeconds ?? [] }

    // MARK: Availability (Core Motion's class methods: the system's board)

    public class func isStepCountingAvailable() -> Bool { PedometerCore.isStepCountingAvailable(board: nil) }
    /// Distance comes from the steps (a stride model): available with step counting.
    public class func isDistanceAvailable() -> Bool { isStepCountingAvailable() }
    public class func isFloorCountingAvailable() -> Bool { PedometerCore.isFloorCountingAvailable(board: nil) }
    public class func isPaceAvailable() -> Bool { isStepCountingAvailable() }
    public class func isCadenceAvailable() -> Bool { isStepCountingAvailable() }
    public class func isPedometerEventTrackingAvailable() -> Bool { isStepCountingAvailable() }

    /// What motiond grants this user when it runs (`.denied` outside group motion, `.restricted` by
    /// its policy file); `.authorized` in-process (Linux has no per-app consent: `CMAuthorizationStatus`).
    public class func authorizationStatus() -> CMAuthorizationStatus { CMAuthorizationStatus.ofSystemBoard }

    // MARK: Availability on this pedometer's board

    public var isStepCountingAvailable: Bool { core.isStepCountingAvailable }
    public var isDistanceAvailable: Bool { core.isStepCountingAvailable }
    public var isFloorCountingAvailable: Bool { core.isFloorCountingAvailable }
    public var isPaceAvailable: Bool { core.isStepCountingAvailable }
    public var isCadenceAvailable: Bool { core.isStepCountingAvailable }
    public var isPedometerEventTrackingAvailable: Bool { core.isStepCountingAvailable }

    // MARK: Live updates

    /// Calls `handler` with what was counted from `start` to now: once at once, then about
    /// every 2.5 s while the user walks. A board without an accelerometer or barometer, or one
    /// that cannot be brought up or stops, gives one call with nil data and a `CMError`.
    public func startUpdates(from start: Date, withHandler handler: @escaping CMPedometerHandler) {
        let from = start.engineNanoseconds
        startPush(handler: QueueHandler(handler).sendable,
                  start: { deliver throws(MotionManagerError) in try core.startUpdates(from: from, deliver: deliver) },
                  convert: { if case .update(let values) = $0 { CMPedometerData(values) } else { nil } })
    }

    /// Stops live updates: handlers not yet run are skipped.
    public func stopUpdates() { core.stopUpdates() }

    // MARK: Queries

    /// Calls `handler` (on `handlerQueue`) with what was counted from `start` to `end`, from
    /// motiond's 7-day history (Core Motion answers from the coprocessor's). Ranges that tile a
    /// span add up to the span (a step belongs to the range holding its time, `end` excluded).
    /// Without motiond: `.notAvailable`, with a message that says how to start it (an empty
    /// answer would read as "no steps").
    public func queryPedometerData(from start: Date, to end: Date, withHandler handler: @escaping CMPedometerHandler) {
        let handler = QueueHandler(handler).sendable
        let answer: Result<CMPedometerData, CMError>
        do {
            answer = .success(CMPedometerData(try core.query(from: start.engineNanoseconds, to: end.engineNanoseconds)))
        } catch {
            answer = .failure(CMError(error))
        }
        handlerQueue.addOperation {
            switch answer {
            case .success(let data): handler(data, nil)
            case .failure(let error): handler(nil, error)
            }
        }
    }

    // MARK: Events

    /// Calls `handler` with each pause and resume of walking, within about a second of it.
    public func startEventUpdates(handler: @escaping CMPedometerEventHandler) {
        startPush(handler: QueueHandler(handler).sendable,
                  start: { deliver throws(MotionManagerError) in try core.startEventUpdates(deliver: deliver) },
                  convert: { if case .event(let event) = $0 { CMPedometerEvent(event) } else { nil } })
    }

    public func stopEventUpdates() { core.stopEventUpdates() }

    /// Starts a subscription with `start`; each feed `convert` turns into an item, and each
    /// failure, becomes a `handler` call on `handlerQueue` (skipped once stopped). A start that
    /// fails is one call with the error.
    private func startPush<Item: Sendable>(
        handler: @escaping @Sendable (Item?, (any Error)?) -> Void,
        start: (@escaping @Sendable (PedometerSubscription, PedometerFeed) -> Void) throws(MotionManagerError) -> Void,
        convert: @escaping @Sendable (PedometerFeed) -> Item?
    ) {
        let queue = handlerQueue
        do {
            try start { subscription, feed in
                // On the engine thread: only queue the work (conversion included).
                if case .failed(let failure) = feed {
                    queue.addOperation { if subscription.isLive { handler(nil, CMError(failure)) } }
                } else {
                    queue.addOperation { if subscription.isLive, let item = convert(feed) { handler(item, nil) } }
                }
            }
        } catch {
            queue.addOperation { handler(nil, CMError(error)) }
        }
    }
}
