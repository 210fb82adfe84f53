public import Foundation
package import MotionManagerCore
import MotionEngine

/// Core Motion's handler types for the altimeter; they run on the queue given to the start.
/// Exactly one of the arguments is nil.
public typealias CMAltitudeHandler = (CMAltitudeData?, (any Error)?) -> Void
public typealias CMAbsoluteAltitudeHandler = (CMAbsoluteAltitudeData?, (any Error)?) -> Void

/// Core Motion's `CMAltimeter` on a Linux board with a barometer (BMP280/BME280, LPS25H):
/// relative altitude since updates started, and absolute altitude with its accuracy and
/// precision.
///
/// The board is motiond's when it runs (see `init(board:daemonSocket:)`) or a board file,
/// chosen as `CMMotionManager` chooses its own (default: the system's board; `boards/sim-gy-521-bmp280.board`,
/// `boards/sim-bmi160-bmp280.board` and `boards/sim-sense-hat.board` have one). Updates come at
/// Core Motion's pace: the first a second after the start (relative altitude 0), then about
/// every second. Pressure is low-passed with a 1 s time constant (a floor climb
/// shows within a second; the lag is 1 s); altitude comes from the standard atmosphere's
/// formula, and height changes are scaled by the board's thermometer (15 °C without one).
/// Absolute altitude is measured against `seaLevelPressure` (the standard's 101.325 kPa unless
/// set, e.g. to a nearby airfield's QNH). Thread-safe.
public final class CMAltimeter: Sendable, CustomStringConvertible {
    /// The board file, resolved (absolute).
    public let boardPath: String
    /// Why the board file could not be loaded: nothing is then available, and every handler
    /// gets this error.
    public let boardError: CMError?
    /// The board, subscriptions and latest updates, shared with the C API.
    package let core: AltimeterCore

    /// An altimeter of the board file at `board` (resolved as `CMMotionManager(board:)` does), or
    /// of the system's board when nil: motiond's when it answers (the daemon owns the barometer
    /// then, and runs the same altitude stage for each start), else the system's board
    /// in-process. The rule is `CMMotionManager.init(board:daemonSocket:)`'s. In-process, reads
    /// the board file only: the board comes up at the first start.
    public init(board: String? = nil, daemonSocket: String? = nil) {
        core = AltimeterCore(board: board, daemonSocket: daemonSocket)
        boardPath = core.boardPath
        boardError = core.boardError.map(CMError.init)
    }

    public var description: String { "CMAltimeter(\(core.summary))" }

    /// Whether motiond serves this object (`DaemonBackend`'s rule: no board file given, or the
    /// daemon's own; `OPENCOREMOTION_NO_DAEMON=1` never) rather than the in-process engine.
    public var isUsingDaemon: Bool { core.daemon != nil }
    /// "via motiond at /run/opencoremotion/motiond.sock" or "in-process engine".
    public var backendDescription: String { core.backend.summary }
    /// Each break of the connection to motiond so far, in seconds from the break to the
    /// re-subscription: the client reconnects by itself, and relative altitude carries on
    /// across it (the change of absolute altitude over the break is added).
    public var daemonGaps: [CMTimeInterval] { core.daemon?.reconnections.gapSeconds ?? [] }

    // MARK: Availability (Core Motion's class methods: the system's board, motiond's when it runs)

    public class func isRelativeAltitudeAvailable() -> Bool { AltimeterCore.isAvailable(board: nil) }
    public class func isAbsoluteAltitudeAvailable() -> Bool { AltimeterCore.isAvailable(board: nil) }

    /// What motiond grants this user when it runs (`.denied` outside group motion, `.restricted` by
    /// its policy file); `.authorized` in-process (Linux has no per-app consent: `CMAuthorizationStatus`).
    public class func authorizationStatus() -> CMAuthorizationStatus { CMAuthorizationStatus.ofSystemBoard }

    // MARK: Availability on this altimeter's board

    public var isRelativeAltitudeAvailable: Bool { core.isAvailable }
    public var isAbsoluteAltitudeAvailable: Bool { core.isAvailable }

    // MARK: Reference (OpenCoreMotion's addition)

    /// The sea-level pressure absolute altitude is measured against, kPa: the standard
    /// atmosphere's 101.325 until `setSeaLevelPressure` is called.
    public var seaLevelPressure: Double { core.reference.seaLevelPressure.doubleValue / 1000 }
    /// Its uncertainty (one standard deviation), kPa: 1.0 for the standard atmosphere (the
    /// weather's spread about it); `accuracy` is this uncertainty as height.
    public var seaLevelPressureUncertainty: Double { core.reference.uncertainty.doubleValue / 1000 }

    /// Measures absolute altitude against a sea-level pressure of `kilopascals` (such as a
    /// nearby airfield's QNH: 1013.2 hPa is 101.32 kPa) known to `uncertainty` kPa, from the
    /// next start. Throws a `CMError` (`.invalidParameter`) outside 80…110 kPa or 0…10 kPa.
    public func setSeaLevelPressure(_ kilopascals: Double, uncertainty: Double = 0.1) throws {
        do {
            try core.setSeaLevelPressure(kilopascals: kilopascals, uncertainty: uncertainty)
        } catch {
            throw CMError(error)
        }
    }

    // MARK: Updates

    /// Calls `handler` on `queue` with the altitude since the first update: the first a
    /// second after the start (0 m), then about every second. A board without a barometer, or one that cannot
    /// be brought up or stops, gives one call with nil data and a `CMError`.
    public func startRelativeAltitudeUpdates(to queue: OperationQueue, withHandler handler: @escaping CMAltitudeHandler) {
        startPush(.relative, queue: queue, handler: QueueHandler(handler).sendable, convert: CMAltitudeData.init)
    }

    /// Stops relative altitude updates: handlers not yet run are skipped.
    public func stopRelativeAltitudeUpdates() { core.stopUpdates(.relative) }

    /// Calls `handler` on `queue` with the absolute altitude: the first a second after the
    /// start, then about every second; errors as `startRelativeAltitudeUpdates`.
    public func startAbsoluteAltitudeUpdates(to queue: OperationQueue, withHandler handler: @escaping CMAbsoluteAltitudeHandler) {
        startPush(.absolute, queue: queue, handler: QueueHandler(handler).sendable, convert: CMAbsoluteAltitudeData.init)
    }

    public func stopAbsoluteAltitudeUpdates() { core.stopUpdates(.absolute) }

    /// Starts `kind`; each update `convert` turns into an item, and each failure, becomes a
    /// `handler` call on `queue` (skipped once stopped). A start that fails is one call with the
    /// error.
    private func startPush<Item: Sendable>(_ kind: AltimeterCore.Kind, queue: OperationQueue,
                                           handler: @escaping @Sendable (Item?, (any Error)?) -> Void,
                                           convert: @escaping @Sendable (AltitudeValues) -> Item) {
        do {
            try core.startUpdates(kind) { subscription, feed in
                // On the engine thread: only queue the work (conversion included).
                switch feed {
                case .update(let values): queue.addOperation { if subscription.isLive { handler(convert(values), nil) } }
                case .failed(let failure): queue.addOperation { if subscription.isLive { handler(nil, CMError(failure)) } }
                }
            }
        } catch {
            queue.addOperation { handler(nil, CMError(error)) }
        }
    }
}
