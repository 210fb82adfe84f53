package import MotionManagerCore
import Synchronization

/// Core Motion's `CMMotionManager` on a Linux board: availability, update intervals, pull
/// updates (start, then read `accelerometerData`, `gyroData`, `magnetometerData`,
/// `deviceMotion`) and push updates (a handler run on an `OperationQueue`), for the
/// accelerometer, gyroscope, magnetometer and device motion.
///
/// The board is a board file (`boards/README.md`): a real one such as `boards/mpu-9250.board`,
/// or a simulated twin, which runs in real time (speed 1) and starts its recording over when it
/// ends. Every manager of the same board file in a process shares one engine: a thread, started
/// by the first `start…` and ended by the last `stop…`, that reads the chips as their samples
/// become ready, fuses device motion and hands each stream its samples at its interval. A
/// handler's queue never slows the engine: when a handler falls `maxPendingUpdates` updates
/// behind, newer updates are dropped and counted (`droppedAccelerometerUpdates` and friends).
///
/// Thread-safe: every member may be used from any thread (Sendable; shared state sits in a
/// Mutex). As in Core Motion, an app should create one manager.
public final class CMMotionManager: Sendable, CustomStringConvertible {
    /// The board file, resolved (absolute).
    public let boardPath: String
    /// The streams, intervals, pull store and engine subscriptions, shared with the C API
    /// (MotionManagerCore, which needs no Foundation). Its deinit stops every stream.
    package let core: ManagerCore
    /// Why the board file could not be loaded: every sensor is then unavailable, and every
    /// push handler started gets this error.
    public let boardError: CMError?

    /// Core Motion shows its compass-calibration display while this is true and the
    /// magnetometer needs the device moved. A board has no display: the property is kept (code
    /// that sets it compiles and reads it back) and nothing is shown; the calibration's state
    /// is `CMDeviceMotion.magneticField.accuracy`, and `motionctl calibrate magnetometer` guides
    /// a person through it.
    public var showsDeviceMovementDisplay: Bool {
        get { showsDisplay.load(ordering: .relaxed) }
        set { showsDisplay.store(newValue, ordering: .relaxed) }
    }
    private let showsDisplay = Atomic<Bool>(false)

    /// Updates a push handler may have waiting on its queue before newer ones are dropped: 2 s
    /// of updates at 100 Hz, 4 s at 50 Hz. Core Motion queues every update; code from its talks
    /// (a swing counter, a gesture window) sums consecutive updates and miscounts when one is
    /// lost, and a busy board's queue stalls for about a second (0.9 s measured under the full
    /// test suite, 1.1 s under ThreadSanitizer). The bound keeps a handler that never runs from
    /// growing memory without end (about 200 KB per stream at most).
    public static let maxPendingUpdates = 200
    /// The shortest update interval: live streams run at up to 100 Hz.
    public static let minimumUpdateInterval: CMTimeInterval = ManagerCore.minimumUpdateInterval

    package var store: PullStore { core.store }

    /// A manager of the board file at `board`: absolute, relative to the current directory
    /// (`boards/sim-gy-521.board` in a checkout) or to the installed boards folder
    /// (`sim-gy-521.board`: PREFIX/share/opencoremotion/boards); nil for the system's board:
    /// motiond's when it answers on `daemonSocket` (default `OPENCOREMOTION_SOCKET`, else
    /// /run/opencoremotion/motiond.sock), else in-process the board `OPENCOREMOTION_BOARD` or
    /// /etc/opencoremotion/board names, else what a probe of the I2C buses finds (an IMU), else
    /// none, with `boardError` saying what to do (docs/swift-api.md, "The system's board"). A board file given is served by motiond only if it
    /// is the daemon's own. `OPENCOREMOTION_NO_DAEMON=1` always runs in-process. Loading only reads the file; the chips are brought up by the first
    /// `start…`. A board file that cannot be loaded gives a manager with no sensors available
    /// and the reason in `boardError`.
    public init(board: String? = nil, daemonSocket: String? = nil) {
        core = ManagerCore(board: board, daemonSocket: daemonSocket)
        boardPath = core.boardPath
        boardError = core.boardError.map(CMError.init)
    }

    public var description: String { "CMMotionManager(\(core.summary))" }

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

    public var isAccelerometerAvailable: Bool { core.isAvailable(.accelerometer) }
    public var isGyroAvailable: Bool { core.isAvailable(.gyroscope) }
    public var isMagnetometerAvailable: Bool { core.isAvailable(.magnetometer) }
    /// Device motion needs an accelerometer and a gyroscope (the magnetometer is optional).
    public var isDeviceMotionAvailable: Bool { core.isAvailable(.deviceMotion) }

    public var isAccelerometerActive: Bool { core.isActive(.accelerometer) }
    public var isGyroActive: Bool { core.isActive(.gyroscope) }
    public var isMagnetometerActive: Bool { core.isActive(.magnetometer) }
    public var isDeviceMotionActive: Bool { core.isActive(.deviceMotion) }

    /// The frames device motion can use on this manager's board: all four with a magnetometer,
    /// `xArbitraryZVertical` without, none without an accelerometer and a gyroscope.
    public var availableAttitudeReferenceFrames: CMAttitudeReferenceFrame {
        CMAttitudeReferenceFrame(rawValue: core.availableReferenceFrames.rawValue)
    }

    /// Core Motion's class method: the frames of the system's board (`init(board: nil)`). A
    /// manager of another board says its own in `availableAttitudeReferenceFrames`.
    public class func availableAttitudeReferenceFrames() -> CMAttitudeReferenceFrame {
        CMMotionManager().availableAttitudeReferenceFrames
    }

    /// The frame of the device-motion updates started last (`xArbitraryZVertical` before any).
    public var attitudeReferenceFrame: CMAttitudeReferenceFrame { CMAttitudeReferenceFrame(rawValue: core.referenceFrame.rawValue) }

    /// Degrees east of true north of magnetic north where the board is; used by
    /// `xTrueNorthZVertical` updates started afterwards (not in Core Motion, which knows the
    /// place from Location Services). Until set (reads 0), true north comes from the system's
    /// location, `/etc/opencoremotion/location`, by the World Magnetic Model; with neither, a
    /// true-north start fails with `CMError` `.trueNorthNotAvailable`. NaN goes back to the
    /// system's location.
    public var magneticDeclination: Double {
        get { core.magneticDeclination }
        set { core.magneticDeclination = newValue }
    }

    // MARK: Intervals

    /// Seconds between accelerometer updates (at least 0.01 s: 100 Hz). Setting NaN is ignored;
    /// a running stream changes at the engine's next step.
    public var accelerometerUpdateInterval: CMTimeInterval {
        get { core.updateInterval(.accelerometer) }
        set { core.setUpdateInterval(.accelerometer, newValue) }
    }

    public var gyroUpdateInterval: CMTimeInterval {
        get { core.updateInterval(.gyroscope) }
        set { core.setUpdateInterval(.gyroscope, newValue) }
    }

    public var magnetometerUpdateInterval: CMTimeInterval {
        get { core.updateInterval(.magnetometer) }
        set { core.setUpdateInterval(.magnetometer, newValue) }
    }

    public var deviceMotionUpdateInterval: CMTimeInterval {
        get { core.updateInterval(.deviceMotion) }
        set { core.setUpdateInterval(.deviceMotion, newValue) }
    }

    // MARK: Starting and stopping

    /// Starts `stream` (replacing a running one): samples go to the pull store and, if given,
    /// to `deliver` on the engine thread. Returns once the engine runs it; throws when the board
    /// lacks the sensor or the frame, or could not be brought up.
    package func start(_ stream: MotionStream, frame: CMAttitudeReferenceFrame = .xArbitraryZVertical,
                       deliver: (@Sendable (EngineSubscription, EngineEvent) -> Void)?) throws(CMError) {
        do {
            try core.start(stream, frame: ReferenceFrames(rawValue: frame.rawValue), deliver: deliver)
        } catch {
            throw CMError(error)
        }
    }

    /// Stops `stream`: once this returns, nothing more of it is delivered (push handlers
    /// already queued are skipped). The pull property keeps its last sample.
    package func stop(_ stream: MotionStream) { core.stop(stream) }
}
