public import Foundation
import MotionManagerCore
import MotionMQTT
import Locking

/// Core Motion's `CMHeadphoneMotionManagerDelegate`: the remote board connected or went away.
/// Both methods have empty defaults. They run on the manager's private serial queue.
public protocol CMHeadphoneMotionManagerDelegate: AnyObject, Sendable {
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
/// disconnect ("offline": a clean stop, or its last will when it died); a running push stream
/// also gets one call with nil data and a `CMError` when the board goes away, and continues when
/// it comes back.
///
/// Broker, credentials, TLS and topic prefix come from an MQTT configuration file
/// (Sources/MotionMQTT/PAYLOADS.md). Timestamps are on this machine's CLOCK_MONOTONIC (the
/// sample's wall-clock time moved by this machine's offset: the board's clock must be
/// NTP-synchronised with this one, as on one host).
public final class CMHeadphoneMotionManager: Sendable {
    /// The remote board's id (`<prefix>/<board-id>/…`).
    public let boardID: String
    private let configuration: MQTTConfiguration?
    private let configurationError: CMError?
    private let delegateQueue: OperationQueue
    private let state = Lock(State())

    private struct State {
        weak var delegate: (any CMHeadphoneMotionManagerDelegate)?
        var remote: RemoteDeviceMotion?
        var latest: CMDeviceMotion?
        var handler: (queue: OperationQueue, handler: CMDeviceMotionHandler)?
    }

    /// Core Motion's class method. A remote board's data is governed by the broker's
    /// credentials in the configuration file, not by this machine's motiond policy: authorized
    /// (a broker that refuses the credentials makes starting fail and says so).
    public class func authorizationStatus() -> CMAuthorizationStatus { .authorized }

    /// A manager of the board `boardID` reached through the broker of the configuration file at
    /// `configurationFile`. A file that cannot be read makes device motion unavailable; starting
    /// then reports why.
    public init(configurationFile: String, boardID: String) {
        self.boardID = boardID
        delegateQueue = OperationQueue()
        delegateQueue.maxConcurrentOperationCount = 1
        do {
            configuration = try MQTTConfigurationFile.load(path: configurationFile)
            configurationError = nil
        } catch {
            configuration = nil
            configurationError = CMError(.notAvailable, "Remote device motion needs an MQTT configuration file: \(error)")
        }
    }

    deinit { state.withLock { $0.remote }?.stop() }

    public var delegate: (any CMHeadphoneMotionManagerDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }

    /// Whether remote device motion can be used: the configuration file was read.
    public var isDeviceMotionAvailable: Bool { configuration != nil }

    public var isDeviceMotionActive: Bool { state.withLock { $0.remote != nil } }

    /// Whether the remote board is online now.
    public var isConnected: Bool { state.withLock { $0.remote?.isBoardOnline } ?? false }

    /// The latest sample since updates started (nil before the first).
    public var deviceMotion: CMDeviceMotion? { state.withLock { $0.latest } }

    /// Starts updates into `deviceMotion` (pull).
    public func startDeviceMotionUpdates() { start(handler: nil) }

    /// Calls `handler` on `queue` with each sample; once with nil data and a `CMError` when the
    /// configuration is unusable, the broker cannot be reached, or the board goes away.
    public func startDeviceMotionUpdates(to queue: OperationQueue, withHandler handler: @escaping CMDeviceMotionHandler) {
        start(handler: (queue, handler))
    }

    public func stopDeviceMotionUpdates() {
        let remote = state.withLock { state in
            defer { (state.remote, state.handler) = (nil, nil) }
            return state.remote
        }
        remote?.stop()
    }

    /// End-to-end latencies of the samples received so far (sample time at the board to
    /// delivery here), seconds, sorted.
    public var latencies: [Double] { (state.withLock { $0.remote }?.latencies ?? []).map { Double($0) / 1e9 } }

    private func start(handler: (queue: OperationQueue, handler: CMDeviceMotionHandler)?) {
        stopDeviceMotionUpdates()
        guard let configuration else {
            let error = configurationError
            handler.map { pair in pair.queue.addOperation { pair.handler(nil, error) } }
            return
        }
        do throws(MQTTClientError) {
            let remote = try RemoteDeviceMotion(configuration: configuration, board: boardID, log: { _ in }) { [weak self] event in
                self?.handle(event)
            }
            state.withLock { (state) in (state.remote, state.handler, state.latest) = (remote, handler, nil) }
            try remote.start()
        } catch {
            let failure = CMError(.notAvailable, "Remote device motion of \(boardID) could not start: \(error)")
            handler.map { pair in pair.queue.addOperation { pair.handler(nil, failure) } }
        }
    }

    private func handle(_ event: RemoteDeviceMotion.Event) {
        switch event {
        case .connected:
            let delegate = self.delegate
            delegateQueue.addOperation { [self] in delegate?.headphoneMotionManagerDidConnect(self) }
        case .disconnected(let reason):
            let (delegate, handler) = state.withLock { ($0.delegate, $0.handler) }
            delegateQueue.addOperation { [self] in delegate?.headphoneMotionManagerDidDisconnect(self) }
            let error = CMError(.unknown, "\(reason): device motion resumes when it is back online.")
            handler.map { pair in pair.queue.addOperation { pair.handler(nil, error) } }
        case .sample(let sample):
            let motion = Self.deviceMotion(sample)
            let handler = state.withLock { state in
                state.latest = motion
                return state.handler
            }
            handler.map { pair in pair.queue.addOperation { pair.handler(motion, nil) } }
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
