import FixedPoint
import MotionAlgorithms
package import MotionEngine
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
    /// The board's engine; nil when the board file could not be loaded (`boardError`).
    package let board: LiveBoard?
    /// Why the board file could not be loaded: every sensor is then unavailable, and every
    /// push handler started gets this error.
    public let boardError: CMError?
    /// The loader's own error, for the C API's status codes.
    package let boardFailure: EngineError?

    /// Updates a push handler may have waiting on its queue before newer ones are dropped.
    public static let maxPendingUpdates = 16
    /// The shortest update interval: live streams run at up to 100 Hz.
    public static let minimumUpdateInterval: CMTimeInterval = 0.01

    package let store = PullStore()
    private let state = Mutex(State())

    private struct State {
        var intervals: [CMTimeInterval] = Array(repeating: CMMotionManager.minimumUpdateInterval, count: MotionStream.allCases.count)
        var subscriptions: [EngineSubscription?] = Array(repeating: nil, count: MotionStream.allCases.count)
        var frame: CMAttitudeReferenceFrame = .xArbitraryZVertical
        var declination: Double = 0
    }

    /// `boards/sim-mpu-9250.board` of this checkout: a simulated MPU-9250 with its AK8963
    /// (accelerometer, gyroscope, magnetometer) feeling a bundled recording.
    public static var defaultBoardPath: String { BoardDescription.boardsFolder + "/sim-mpu-9250.board" }

    /// A manager of the board file at `board`: absolute, relative to the current directory, to
    /// the repository root (`boards/sim-gy-521.board`) or to its boards folder
    /// (`sim-gy-521.board`). Loading only reads the file; the chips are brought up by the first
    /// `start…`. A board file that cannot be loaded gives a manager with no sensors available
    /// and the reason in `boardError`.
    public init(board: String = CMMotionManager.defaultBoardPath) {
        do {
            let live = try LiveBoard.open(path: board)
            self.board = live
            boardPath = live.path
            boardError = nil
            boardFailure = nil
        } catch {
            self.board = nil
            boardPath = LiveBoard.resolve(board)
            boardError = CMError(.notAvailable, "The board file could not be loaded: \(error)")
            boardFailure = error
        }
    }

    deinit {
        for stream in MotionStream.allCases { stop(stream) }
    }

    public var description: String {
        "CMMotionManager(\(boardPath)" + (board.map { ": \"\($0.description.name)\"" } ?? ", not loaded") + ")"
    }

    // MARK: Availability

    package func isAvailable(_ stream: MotionStream) -> Bool {
        guard let board else { return false }
        if let channel = stream.channel { return board.channels.contains(channel) }
        return board.channels.isSuperset(of: [.accelerometer, .gyroscope])
    }

    public var isAccelerometerAvailable: Bool { isAvailable(.accelerometer) }
    public var isGyroAvailable: Bool { isAvailable(.gyroscope) }
    public var isMagnetometerAvailable: Bool { isAvailable(.magnetometer) }
    /// Device motion needs an accelerometer and a gyroscope (the magnetometer is optional).
    public var isDeviceMotionAvailable: Bool { isAvailable(.deviceMotion) }

    package func isActive(_ stream: MotionStream) -> Bool { state.withLock { $0.subscriptions[stream.rawValue] != nil } }

    public var isAccelerometerActive: Bool { isActive(.accelerometer) }
    public var isGyroActive: Bool { isActive(.gyroscope) }
    public var isMagnetometerActive: Bool { isActive(.magnetometer) }
    public var isDeviceMotionActive: Bool { isActive(.deviceMotion) }

    /// The frames device motion can use on this manager's board: all four with a magnetometer,
    /// `xArbitraryZVertical` without, none without an accelerometer and a gyroscope.
    public var availableAttitudeReferenceFrames: CMAttitudeReferenceFrame {
        guard isDeviceMotionAvailable, let board else { return [] }
        let frames = AttitudeReferenceFrame.available(hasMagnetometer: board.channels.contains(.magnetometer))
        return frames.reduce(into: []) { $0.insert(CMAttitudeReferenceFrame($1)) }
    }

    /// Core Motion's class method: the frames of the default board (`defaultBoardPath`). A
    /// manager of another board says its own in `availableAttitudeReferenceFrames`.
    public class func availableAttitudeReferenceFrames() -> CMAttitudeReferenceFrame {
        CMMotionManager(board: defaultBoardPath).availableAttitudeReferenceFrames
    }

    /// The frame of the device-motion updates started last (`xArbitraryZVertical` before any).
    public var attitudeReferenceFrame: CMAttitudeReferenceFrame { state.withLock { $0.frame } }

    /// Degrees east of true north of magnetic north where the board is (from the World Magnetic
    /// Model); used by `xTrueNorthZVertical` updates started afterwards. 0 by default, which
    /// makes true north magnetic north.
    public var magneticDeclination: Double {
        get { state.withLock { $0.declination } }
        set { state.withLock { $0.declination = newValue.isFinite ? newValue : 0 } }
    }

    // MARK: Intervals

    package func updateInterval(_ stream: MotionStream) -> CMTimeInterval { state.withLock { $0.intervals[stream.rawValue] } }

    /// Sets a stream's interval in seconds, at least `minimumUpdateInterval` (NaN is ignored);
    /// a running stream changes at the engine's next step.
    package func setUpdateInterval(_ stream: MotionStream, _ seconds: CMTimeInterval) {
        guard !seconds.isNaN else { return }
        let interval = max(Self.minimumUpdateInterval, seconds)
        let running = state.withLock { state in
            state.intervals[stream.rawValue] = interval
            return state.subscriptions[stream.rawValue]
        }
        if let running, let board { board.setInterval(running, nanoseconds: Self.nanoseconds(interval)) }
    }

    static func nanoseconds(_ seconds: CMTimeInterval) -> Int64 {
        Int64(min(seconds, 1e9) * 1e9)
    }

    /// Seconds between accelerometer updates (at least 0.01 s: 100 Hz).
    public var accelerometerUpdateInterval: CMTimeInterval {
        get { updateInterval(.accelerometer) }
        set { setUpdateInterval(.accelerometer, newValue) }
    }

    public var gyroUpdateInterval: CMTimeInterval {
        get { updateInterval(.gyroscope) }
        set { setUpdateInterval(.gyroscope, newValue) }
    }

    public var magnetometerUpdateInterval: CMTimeInterval {
        get { updateInterval(.magnetometer) }
        set { setUpdateInterval(.magnetometer, newValue) }
    }

    public var deviceMotionUpdateInterval: CMTimeInterval {
        get { updateInterval(.deviceMotion) }
        set { setUpdateInterval(.deviceMotion, newValue) }
    }

    // MARK: Starting and stopping (shared by the Swift and C APIs)

    /// Starts `stream` (replacing a running one): samples go to the pull store and, if given,
    /// to `deliver` on the engine thread. Returns once the engine runs it; throws when the board
    /// lacks the sensor or the frame, or could not be brought up.
    package func start(_ stream: MotionStream, frame: CMAttitudeReferenceFrame = .xArbitraryZVertical,
                       deliver: (@Sendable (EngineSubscription, EngineEvent) -> Void)?) throws(CMError) {
        let board = try checkAvailable(stream, frame: frame)
        let store = self.store
        let (interval, declination) = state.withLock { ($0.intervals[stream.rawValue], $0.declination) }
        let subscription = EngineSubscription(stream: stream, frame: frame.engineFrame ?? .xArbitraryZVertical, declination: declination) {
            subscription, event in
            if case .sample(let sample) = event { store.keep(sample) }
            deliver?(subscription, event)
        }
        let previous = state.withLock { state in
            defer {
                state.subscriptions[stream.rawValue] = subscription
                if stream == .deviceMotion { state.frame = frame }
            }
            return state.subscriptions[stream.rawValue]
        }
        if let previous { board.remove(previous) }
        do {
            try board.add(subscription, intervalNanoseconds: Self.nanoseconds(interval))
        } catch {
            state.withLock { state in
                if state.subscriptions[stream.rawValue] === subscription { state.subscriptions[stream.rawValue] = nil }
            }
            throw error
        }
    }

    /// Stops `stream`: once this returns, nothing more of it is delivered (push handlers
    /// already queued are skipped). The pull property keeps its last sample.
    package func stop(_ stream: MotionStream) {
        let running = state.withLock { state in
            defer { state.subscriptions[stream.rawValue] = nil }
            return state.subscriptions[stream.rawValue]
        }
        if let running, let board { board.remove(running) }
    }

    /// The board, or the error Core Motion reports when it cannot give `stream` in `frame`.
    private func checkAvailable(_ stream: MotionStream, frame: CMAttitudeReferenceFrame) throws(CMError) -> LiveBoard {
        guard let board else { throw boardError ?? CMError(.notAvailable, "The board file \(boardPath) could not be loaded.") }
        let named = "The board file \(board.path) (\"\(board.description.name)\")"
        let chips = "its chips are \(BoardSensors.chipList(board.description))"
        if let channel = stream.channel {
            guard board.channels.contains(channel) else {
                throw CMError(.notAvailable, "\(named) has no \(stream.name): \(chips). Check `is\(Self.propertyStem(stream))Available` "
                              + "before starting, or use a board file with a chip that has one (driver = \(BoardSensors.drivers(giving: channel))).")
            }
            return board
        }
        let missing = [SensorChannel.accelerometer, .gyroscope].filter { !board.channels.contains($0) }
        guard missing.isEmpty else {
            let names = missing.map { $0 == .accelerometer ? "accelerometer" : "gyroscope" }.joined(separator: " and ")
            throw CMError(.notAvailable, "\(named) has no \(names), which device motion needs: \(chips). "
                          + "Check `isDeviceMotionAvailable` before starting, or use a board file with an IMU (driver = "
                          + "\(BoardSensors.drivers(giving: .gyroscope))).")
        }
        guard let engineFrame = frame.engineFrame else {
            throw CMError(.invalidParameter, "Device motion takes exactly one reference frame; got \(frame.names).")
        }
        guard !engineFrame.usesMagnetometer || board.channels.contains(.magnetometer) else {
            throw CMError(.notAvailable, "\(named) has no magnetometer, which the reference frame \(frame.names) needs: \(chips). "
                          + "Use .xArbitraryZVertical (see `availableAttitudeReferenceFrames`), or a board file with a magnetometer "
                          + "(driver = \(BoardSensors.drivers(giving: .magnetometer))).")
        }
        return board
    }

    private static func propertyStem(_ stream: MotionStream) -> String {
        switch stream {
        case .accelerometer: "Accelerometer"
        case .gyroscope: "Gyro"
        case .magnetometer: "Magnetometer"
        case .deviceMotion: "DeviceMotion"
        }
    }
}

/// The latest sample of each stream (what the pull properties and `ocm_motion_manager_copy_latest`
/// read) and the updates dropped for slow handlers. Written by the engine thread, read by any.
package final class PullStore: Sendable {
    private struct Contents {
        var latest: [MotionSample?] = Array(repeating: nil, count: MotionStream.allCases.count)
        var dropped: [Int] = Array(repeating: 0, count: MotionStream.allCases.count)
    }

    private let contents = Mutex(Contents())

    func keep(_ sample: MotionSample) {
        contents.withLock { $0.latest[sample.stream.rawValue] = sample }
    }

    package func latest(_ stream: MotionStream) -> MotionSample? {
        contents.withLock { $0.latest[stream.rawValue] }
    }

    func countDrop(_ stream: MotionStream) {
        contents.withLock { $0.dropped[stream.rawValue] += 1 }
    }

    package func dropped(_ stream: MotionStream) -> Int {
        contents.withLock { $0.dropped[stream.rawValue] }
    }
}
