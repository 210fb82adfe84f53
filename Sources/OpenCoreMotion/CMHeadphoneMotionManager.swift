public import Foundation
import MotionEngine
import MotionManagerCore
import MotionMQTT
import Locking

/// Core Motion's `CMHeadphoneMotionManagerDelegate`: the remote board connected or went away.
/// Both methods have empty defaults (Apple's are optional). They run on the queue of the
/// running push updates (`startDeviceMotionUpdates(to:withHandler:)`), else on the manager's
/// private serial queue. Not `Sendable`, as Apple's is not: the manager calls it only on that
/// queue, so a delegate needs no locking of its own.
public protocol CMHeadphoneMotionManagerDelegate: AnyObject {
    func headphoneMotionManagerDidConnect(_ manager: CMHeadphoneMotionManager)
    func headphoneMotionManagerDidDisconnect(_ manager: CMHeadphoneMotionManager)
}

extension CMHeadphoneMotionManagerDelegate {
    public func headphoneMotionManagerDidConnect(_ manager: CMHeadphoneMotionManager) {}
    public func headphoneMotionManagerDidDisconnect(_ manager: CMHeadphoneMotionManager) {}
}

/// Core Motion's `CMHeadphoneMotionManager` for a board that is not this one: device motion of a
/// remote board that publishes to an MQTT broker (`motionctl publish`, motiond), the way AirPods'
/// head tracking reaches an iPhone. Attitude is relative to the pose of the first sample after
/// updates start; the delegate hears the board connect (its retained status "online") and
/// disconnect ("offline": a clean stop, or its last will when it died) while device-motion or
/// connection-status updates run; a running push stream also gets one call with nil data and a
/// `CMError` when the board goes away, and continues when it comes back.
///
/// Broker, credentials, TLS and topic prefix come from an MQTT configuration file
/// (Sources/MotionMQTT/PAYLOADS.md); `CMHeadphoneMotionManager()` reads the system's,
/// `/etc/opencoremotion/headphone-motion.conf` (`OPENCOREMOTION_CONFIG_DIR` replaces the
/// folder), whose `[publish] board_id` names the remote board. Timestamps are on this machine's
/// CLOCK_MONOTONIC (the sample's wall-clock time moved by this machine's offset: the board's
/// clock must be NTP-synchronised with this one, as on one host).
public final class CMHeadphoneMotionManager: Sendable {
    /// The remote board's id (`<prefix>/<board-id>/…`); empty when the configuration names none.
    public let boardID: String
    private let configuration: MQTTConfiguration?
    private let configurationError: CMError?
    /// Where delegate calls go while no push handler runs.
    private let delegateQueue: OperationQueue
    private let state = Lock(State())

    /// `@unchecked`: the delegate is not Sendable (Apple's protocol is not); the reference is
    /// only read and written under `state`'s lock, and its methods are called only on the
    /// serial queue the type's documentation names.
    private struct WeakDelegate: @unchecked Sendable {
        weak var value: (any CMHeadphoneMotionManagerDelegate)?
    }

    private struct State {
        var delegate = WeakDelegate()
        var remote: RemoteDeviceMotion?
        var latest: CMDeviceMotion?
        var handler: (queue: OperationQueue, handler: @Sendable (CMDeviceMotion?, (any Error)?) -> Void)?
        var deviceMotionActive = false
        var connectionStatusActive = false
    }

    /// The system's remote-motion configuration file: `OPENCOREMOTION_CONFIG_DIR` or
    /// `/etc/opencoremotion`, then `/headphone-motion.conf`.
    public static var systemConfigurationFile: String {
        let folder = ProcessInfo.processInfo.environment[SystemBoard.configurationFolderVariable].flatMap { $0.isEmpty ? nil : $0 }
        return (folder ?? SystemBoard.defaultConfigurationFolder) + "/headphone-motion.conf"
    }

    /// Core Motion's `CMHeadphoneMotionManager.DeviceMotionHandler`.
    public typealias DeviceMotionHandler = CMDeviceMotionHandler

    /// Core Motion's class method. A remote board's data is governed by the broker's
    /// credentials in the configuration file, not by this machine's motiond policy: authorized
    /// (a broker that refuses the credentials makes starting fail and says so).
    public class func authorizationStatus() -> CMAuthorizationStatus { .authorized }

    /// Core Motion's initializer: the remote board and broker of the system's configuration
    /// file (`systemConfigurationFile`). Without one, or without `[publish] board_id` in it,
    /// device motion is unavailable and starting says what to write.
    public convenience init() {
        let path = Self.systemConfigurationFile
        self.init(path: path, boardID: nil)
    }

    /// A manager of the board `boardID` reached through the broker of the configuration file at
    /// `configurationFile`. A file that cannot be read makes device motion unavailable; starting
    /// then reports why.
    public convenience init(configurationFile: String, boardID: String) {
        self.init(path: configurationFile, boardID: boardID)
    }

    private init(path: String, boardID explicitBoard: String?) {
        delegateQueue = OperationQueue()
        delegateQueue.maxConcurrentOperationCount = 1
        delegateQueue.name = "CMHeadphoneMotionManager"
        do {
            let loaded = try MQTTConfigurationFile.load(path: path)
            if let board = explicitBoard ?? loaded.boardID {
                (configuration, configurationError, boardID) = (loaded, nil, board)
            } else {
                (configuration, boardID) = (nil, "")
                configurationError = CMError(.notAvailable, "\(path) names no remote board: add `board_id = <the board's id>` under [publish].")
            }
        } catch {
            (configuration, boardID) = (nil, explicitBoard ?? "")
            configurationError = CMError(.notAvailable, "Remote device motion needs an MQTT configuration file: \(error)")
        }
    }

    deinit { state.withLock { $0.remote }?.stop() }

    /// Held weakly, as Core Motion holds it.
    public var delegate: (any CMHeadphoneMotionManagerDelegate)? {
        get { state.withLock { $0.delegate }.value }
        set {
            let box = WeakDelegate(value: newValue)
            state.withLock { $0.delegate = box }
        }
    }

    /// Whether remote device motion can be used: the configuration file was read and names a board.
    public var isDeviceMotionAvailable: Bool { configuration != nil }

    public var isDeviceMotionActive: Bool { state.withLock { $0.deviceMotionActive } }

    /// Whether connection-status updates run (`startConnectionStatusUpdates()`).
    public var isConnectionStatusActive: Bool { state.withLock { $0.connectionStatusActive } }

    /// Whether the remote board is online now.
    public var isConnected: Bool { state.withLock { $0.remote?.isBoardOnline } ?? false }

    /// The latest sample since updates started (nil before the first).
    public var deviceMotion: CMDeviceMotion? { state.withLock { $0.latest } }

    /// Starts updates into `deviceMotion` (pull).
    public func startDeviceMotionUpdates() { startDeviceMotion(handler: nil) }

    /// Calls `handler` on `queue` with each sample; once with nil data and a `CMError` when the
    /// configuration is unusable, the broker cannot be reached, or the board goes away.
    public func startDeviceMotionUpdates(to queue: OperationQueue, withHandler handler: @escaping DeviceMotionHandler) {
        startDeviceMotion(handler: (queue, QueueHandler(handler).sendable))
    }

    public func stopDeviceMotionUpdates() {
        let remote = state.withLock { state in
            (state.deviceMotionActive, state.handler) = (false, nil)
            return state.connectionStatusActive ? nil : state.remote.take()
        }
        remote?.stop()
    }

    /// Core Motion's connection-status updates: the delegate hears the board connect and
    /// disconnect without device motion running (a board already online: one connect at once).
    public func startConnectionStatusUpdates() {
        guard configuration != nil else { return }
        let running = state.withLock { state in
            defer { state.connectionStatusActive = true }
            return state.remote != nil
        }
        // Core Motion's method reports no failure: an unreachable broker means no connect call.
        if !running, startRemote() != nil {
            state.withLock { $0.connectionStatusActive = false }
        }
    }

    public func stopConnectionStatusUpdates() {
        let remote = state.withLock { state in
            state.connectionStatusActive = false
            return state.deviceMotionActive ? nil : state.remote.take()
        }
        remote?.stop()
    }

    /// End-to-end latencies of the samples received so far (sample time at the board to
    /// delivery here), seconds, sorted.
    public var latencies: [Double] { (state.withLock { $0.remote }?.latencies ?? []).map { Double($0) / 1e9 } }

    private func startDeviceMotion(handler: (queue: OperationQueue, handler: @Sendable (CMDeviceMotion?, (any Error)?) -> Void)?) {
        guard configuration != nil else {
            let error = configurationError
            handler.map { pair in pair.queue.addOperation { pair.handler(nil, error) } }
            return
        }
        // A new start replaces the running one and the next sample becomes the attitude
        // reference, as a new start does in Core Motion. A subscription kept for connection
        // status goes on (restarting it would announce the board as connecting again).
        let running = state.withLock { state in
            (state.deviceMotionActive, state.handler, state.latest) = (true, handler, nil)
            return state.remote
        }
        if let running {
            running.resetReference()
        } else if let failure = startRemote() {
            state.withLock { state in (state.deviceMotionActive, state.handler) = (false, nil) }
            handler.map { pair in pair.queue.addOperation { pair.handler(nil, failure) } }
        }
    }

    /// Subscribes to the remote board, unless another thread's start just did; returns why it
    /// could not.
    private func startRemote() -> CMError? {
        guard let configuration else { return configurationError }
        do throws(MQTTClientError) {
            let remote = try RemoteDeviceMotion(configuration: configuration, board: boardID, log: { _ in }) { [weak self] event in
                self?.handle(event)
            }
            let first = state.withLock { state in
                defer { if state.remote == nil { state.remote = remote } }
                return state.remote == nil
            }
            guard first else { return nil }  // the other start's subscription serves both
            try remote.start()
            return nil
        } catch {
            state.withLock { $0.remote = nil }
            return CMError(.notAvailable, "Remote device motion of \(boardID) could not start: \(error)")
        }
    }

    /// On libmosquitto's thread: queues the delegate's and the handler's calls.
    private func handle(_ event: RemoteDeviceMotion.Event) {
        switch event {
        case .connected:
            let queue = state.withLock { $0.handler?.queue } ?? delegateQueue
            queue.addOperation { [weak self] in self?.callDelegate(connected: true) }
        case .disconnected(let reason):
            let handler = state.withLock { $0.handler }
            (handler?.queue ?? delegateQueue).addOperation { [weak self] in self?.callDelegate(connected: false) }
            let error = CMError(.unknown, "\(reason): device motion resumes when it is back online.")
            handler.map { pair in pair.queue.addOperation { pair.handler(nil, error) } }
        case .sample(let sample):
            let motion = Self.deviceMotion(sample)
            let handler = state.withLock { state -> (queue: OperationQueue, handler: @Sendable (CMDeviceMotion?, (any Error)?) -> Void)? in
                guard state.deviceMotionActive else { return nil }
                state.latest = motion
                return state.handler
            }
            handler.map { pair in pair.queue.addOperation { pair.handler(motion, nil) } }
        }
    }

    /// On the delegate's queue: the delegate is looked up here, so a delegate set to nil (or
    /// released) meanwhile is not called.
    private func callDelegate(connected: Bool) {
        guard let delegate else { return }
        if connected {
            delegate.headphoneMotionManagerDidConnect(self)
        } else {
            delegate.headphoneMotionManagerDidDisconnect(self)
        }
    }

    static func deviceMotion(_ sample: RemoteDeviceMotionSample) -> CMDeviceMotion {
        let f = sample.fields
        func double(_ v: (x: Float, y: Float, z: Float)) -> (Double, Double, Double) { (Double(v.x), Double(v.y), Double(v.z)) }
        let (gx, gy, gz) = double(f.gravity), (ux, uy, uz) = double(f.userAcceleration)
        let (rx, ry, rz) = double(f.rotationRate), (mx, my, mz) = double(f.magneticField)
        return CMDeviceMotion(
            timestampNanoseconds: WallClock.engineTime(unixNanoseconds: sample.timestampUnixNanoseconds),
            attitude: CMAttitude(quaternion: CMQuaternion(x: Double(f.x), y: Double(f.y), z: Double(f.z), w: Double(f.w))),
            rotationRate: CMRotationRate(x: rx, y: ry, z: rz),
            gravity: CMAcceleration(x: gx, y: gy, z: gz), userAcceleration: CMAcceleration(x: ux, y: uy, z: uz),
            magneticField: CMCalibratedMagneticField(field: CMMagneticField(x: mx, y: my, z: mz),
                                                     accuracy: CMMagneticFieldCalibrationAccuracy(rawValue: Int32(f.magneticAccuracy)) ?? .uncalibrated),
            heading: Double(f.heading), attitudeReferenceFrame: CMAttitudeReferenceFrame(rawValue: UInt(f.referenceFrame)))
    }
}
