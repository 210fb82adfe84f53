public import Foundation
package import MotionManagerCore

/// Core Motion's handler types for motion activity, run on the queue the app gives. A live
/// update's activity is nil only when updates could not start or the board stopped
/// (`CMMotionActivityManager.updatesError` says why); a query gives activities or an error.
public typealias CMMotionActivityHandler = (CMMotionActivity?) -> Void
public typealias CMMotionActivityQueryHandler = ([CMMotionActivity]?, (any Error)?) -> Void

/// Core Motion's `CMMotionActivityManager` on a Linux board: stationary, walking, running,
/// automotive, cycling (or unknown, or no call), with a confidence, live and over past spans.
///
/// The board is a board file, chosen as `CMMotionManager` chooses its own (default: motiond's,
/// else the system's board; `boards/sim-walker.board` simulates someone who stands and
/// walks in turns). Activity needs an accelerometer; a gyroscope helps. Every manager of one
/// board file in a process shares the board's engine and its classifier: the board classifies
/// from the moment the first manager of it is created until the last one is released.
/// `queryActivityStarting(from:to:to:)` answers from motiond's seven days, as Core Motion from
/// the coprocessor's; without motiond it is an error saying to start it.
///
/// Live updates come as Core Motion's do: the current activity at once (`unknown` for the
/// first 2 s of data), then one per transition (the activity or its confidence changed).
/// Thread-safe.
public final class CMMotionActivityManager: Sendable, CustomStringConvertible {
    /// The board file, resolved (absolute).
    public let boardPath: String
    /// Why the board file could not be loaded: nothing is then available.
    public let boardError: CMError?
    /// The board's classifier, subscription and latest update, shared with the C API.
    package let core: ActivityCore

    /// An activity manager of the board file at `board` (resolved as `CMMotionManager(board:)`
    /// does), or of the system's board when nil: motiond's when it answers (queries then come
    /// from its 7-day history), else the system's board in-process, brought up to classify
    /// from now. The rule is `CMMotionManager.init(board:daemonSocket:)`'s.
    public init(board: String? = nil, daemonSocket: String? = nil) {
        core = ActivityCore(board: board, daemonSocket: daemonSocket)
        boardPath = core.boardPath
        boardError = core.boardError.map(Self.activityError)
    }

    public var description: String { "CMMotionActivityManager(\(core.summary))" }

    /// Whether motiond serves this object (`DaemonBackend`'s rule: no board file given, or the
    /// daemon's own; `OPENCOREMOTION_NO_DAEMON=1` never) rather than the in-process engine.
    public var isUsingDaemon: Bool { core.daemon != nil }
    /// "via motiond at /run/opencoremotion/motiond.sock" or "in-process engine".
    public var backendDescription: String { core.backend.summary }
    /// Each break of the connection to motiond so far (it stopped or restarted), in seconds from
    /// the break to the streams' re-subscription: the client reconnects by itself, and a break
    /// is never silent (the motion manager also counts it in its dropped updates).
    public var daemonGaps: [CMTimeInterval] { core.daemon?.reconnections.gapSeconds ?? [] }

    // MARK: Availability

    /// Whether the system's board (`CMMotionManager(board: nil)`'s) has an accelerometer.
    public class func isActivityAvailable() -> Bool { ActivityCore.isAvailable(board: nil) }

    /// What motiond grants this user when it runs (`.denied` outside group motion, `.restricted` by
    /// its policy file); `.authorized` in-process (Linux has no per-app consent: `CMAuthorizationStatus`).
    public class func authorizationStatus() -> CMAuthorizationStatus { CMAuthorizationStatus.ofSystemBoard }

    /// Whether this manager's board has an accelerometer.
    public var isActivityAvailable: Bool { core.isAvailable }

    // MARK: Live updates

    /// Calls `handler` on `queue` with the current activity at once, then with each transition,
    /// replacing updates started before. A board without an accelerometer, or one that cannot
    /// be brought up or stops, gives one call with nil (the error in `updatesError`).
    public func startActivityUpdates(to queue: OperationQueue, withHandler handler: @escaping CMMotionActivityHandler) {
        let wrapped = QueueHandler<CMMotionActivity> { activity, _ in handler(activity) }.sendable
        let handler = { @Sendable (activity: CMMotionActivity?) in wrapped(activity, nil) }
        do {
            try core.startUpdates { subscription, feed in
                // On the engine thread: only queue the work (conversion included).
                queue.addOperation {
                    guard subscription.isLive else { return }
                    switch feed {
                    case .update(let update):
                        handler(CMMotionActivity(update.activity, timestampNanoseconds: update.deliveredNanoseconds))
                    case .failed:
                        handler(nil)
                    }
                }
            }
        } catch {
            queue.addOperation { handler(nil) }
        }
    }

    /// Stops live updates: handlers not yet run are skipped.
    public func stopActivityUpdates() { core.stopUpdates() }

    /// Why the last live updates could not start or stopped (the board file could not be
    /// loaded, has no accelerometer, or its chips failed); nil if they did not.
    public var updatesError: CMError? { (core.failure ?? core.unavailableError).map(Self.activityError) }

    // MARK: Queries

    /// Calls `handler` on `queue` with the activities from `start` to `end`, oldest first, as a
    /// history should read: short stops inside a walk merged, brief blips removed (see
    /// `ActivityHistory`). The first may start before `start`. From motiond's 7-day history, as
    /// Core Motion answers from the coprocessor's; errors: `.motionActivityNotAvailable` (no
    /// accelerometer, a board file that could not be loaded, or no motiond: the message says
    /// how to start it), `.invalidParameter` (`end` before `start`).
    public func queryActivityStarting(from start: Date, to end: Date, to queue: OperationQueue,
                                      withHandler handler: @escaping CMMotionActivityQueryHandler) {
        let handler = QueueHandler(handler).sendable
        let answer: Result<[CMMotionActivity], CMError>
        do {
            let records = try core.query(from: start.engineNanoseconds, to: end.engineNanoseconds)
            answer = .success(records.map { CMMotionActivity($0.activity, timestampNanoseconds: $0.activity.startNanoseconds) })
        } catch {
            answer = .failure(Self.activityError(error))
        }
        queue.addOperation {
            switch answer {
            case .success(let activities): handler(activities, nil)
            case .failure(let error): handler(nil, error)
            }
        }
    }

    // MARK: Errors

    /// The core's error as Core Motion's activity manager reports it: a missing sensor or board
    /// is `.motionActivityNotAvailable` (CMErrorMotionActivityNotAvailable), the rest as is.
    private static func activityError(_ error: MotionManagerError) -> CMError {
        let cmError = CMError(error)
        return cmError.code == .notAvailable ? CMError(.motionActivityNotAvailable, cmError.message) : cmError
    }
}
