import FixedPoint
public import Foundation
package import MotionManagerCore
import Synchronization

/// Core Motion's handler types. They run on the queue given to `start…Updates(to:withHandler:)`.
/// Not `@Sendable`, as Apple's are not (`QueueHandler` says why that is sound): a handler written
/// in a `@MainActor` type must be given `OperationQueue.main`. Exactly one argument is nil.
public typealias CMAccelerometerHandler = (CMAccelerometerData?, (any Error)?) -> Void
public typealias CMGyroHandler = (CMGyroData?, (any Error)?) -> Void
public typealias CMMagnetometerHandler = (CMMagnetometerData?, (any Error)?) -> Void
public typealias CMDeviceMotionHandler = (CMDeviceMotion?, (any Error)?) -> Void

extension CMMotionManager {
    // MARK: Pull

    /// Starts accelerometer updates into `accelerometerData` (at `accelerometerUpdateInterval`).
    /// Does nothing when the accelerometer is unavailable (check `isAccelerometerAvailable`).
    public func startAccelerometerUpdates() { try? start(.accelerometer, deliver: nil) }
    public func startGyroUpdates() { try? start(.gyroscope, deliver: nil) }
    public func startMagnetometerUpdates() { try? start(.magnetometer, deliver: nil) }
    /// Starts device-motion updates in `xArbitraryZVertical` into `deviceMotion`.
    public func startDeviceMotionUpdates() { try? start(.deviceMotion, frame: .xArbitraryZVertical, deliver: nil) }
    /// Starts device-motion updates in `referenceFrame` (one frame of
    /// `availableAttitudeReferenceFrames`) into `deviceMotion`.
    public func startDeviceMotionUpdates(using referenceFrame: CMAttitudeReferenceFrame) {
        try? start(.deviceMotion, frame: referenceFrame, deliver: nil)
    }

    /// The latest accelerometer sample since updates started (nil before the first).
    public var accelerometerData: CMAccelerometerData? { store.latest(.accelerometer).map(Self.accelerometerData) }
    public var gyroData: CMGyroData? { store.latest(.gyroscope).map(Self.gyroData) }
    public var magnetometerData: CMMagnetometerData? { store.latest(.magnetometer).map(Self.magnetometerData) }
    public var deviceMotion: CMDeviceMotion? { store.latest(.deviceMotion).flatMap(Self.deviceMotion) }

    // MARK: Push

    /// Calls `handler` on `queue` with each accelerometer sample, one per
    /// `accelerometerUpdateInterval`. An unavailable accelerometer (or a board that cannot be
    /// brought up) gives one call with nil data and a `CMError` saying what is missing.
    public func startAccelerometerUpdates(to queue: OperationQueue, withHandler handler: @escaping CMAccelerometerHandler) {
        startPush(.accelerometer, queue: queue, convert: Self.accelerometerData, handler: QueueHandler(handler).sendable)
    }

    public func startGyroUpdates(to queue: OperationQueue, withHandler handler: @escaping CMGyroHandler) {
        startPush(.gyroscope, queue: queue, convert: Self.gyroData, handler: QueueHandler(handler).sendable)
    }

    public func startMagnetometerUpdates(to queue: OperationQueue, withHandler handler: @escaping CMMagnetometerHandler) {
        startPush(.magnetometer, queue: queue, convert: Self.magnetometerData, handler: QueueHandler(handler).sendable)
    }

    /// Device motion in `xArbitraryZVertical`.
    public func startDeviceMotionUpdates(to queue: OperationQueue, withHandler handler: @escaping CMDeviceMotionHandler) {
        startDeviceMotionUpdates(using: .xArbitraryZVertical, to: queue, withHandler: handler)
    }

    /// Device motion in `referenceFrame`; a frame the board cannot give (a north frame without a
    /// magnetometer) gives one call with nil data and the error.
    public func startDeviceMotionUpdates(using referenceFrame: CMAttitudeReferenceFrame, to queue: OperationQueue,
                                         withHandler handler: @escaping CMDeviceMotionHandler) {
        startPush(.deviceMotion, frame: referenceFrame, queue: queue, convert: { Self.deviceMotion($0) }, handler: QueueHandler(handler).sendable)
    }

    public func stopAccelerometerUpdates() { stop(.accelerometer) }
    public func stopGyroUpdates() { stop(.gyroscope) }
    public func stopMagnetometerUpdates() { stop(.magnetometer) }
    public func stopDeviceMotionUpdates() { stop(.deviceMotion) }

    /// Updates not delivered because the handler's queue was `maxPendingUpdates` behind, since
    /// the manager was created.
    public var droppedAccelerometerUpdates: Int { store.dropped(.accelerometer) }
    public var droppedGyroUpdates: Int { store.dropped(.gyroscope) }
    public var droppedMagnetometerUpdates: Int { store.dropped(.magnetometer) }
    public var droppedDeviceMotionUpdates: Int { store.dropped(.deviceMotion) }

    private func startPush<Data: CMLogItem>(_ stream: MotionStream, frame: CMAttitudeReferenceFrame = .xArbitraryZVertical,
                                            queue: OperationQueue, convert: @escaping @Sendable (MotionSample) -> Data?,
                                            handler: @escaping @Sendable (Data?, (any Error)?) -> Void) {
        let delivery = QueueDelivery(queue: queue, store: store, stream: stream)
        do {
            try start(stream, frame: frame) { subscription, event in
                // On the engine thread: only queue the work (conversion included).
                switch event {
                case .sample(let sample):
                    delivery.enqueue {
                        guard subscription.isLive, let data = convert(sample) else { return }
                        handler(data, nil)
                    }
                case .failed(let error):
                    delivery.enqueue(evenIfBehind: true) {
                        guard subscription.isLive else { return }
                        handler(nil, error)
                    }
                }
            }
        } catch {
            queue.addOperation { handler(nil, error) }
        }
    }

    // MARK: Conversions (engine units → Core Motion's)

    package static func accelerometerData(_ sample: MotionSample) -> CMAccelerometerData {
        let g = sample.coreMotionAcceleration
        return CMAccelerometerData(timestampNanoseconds: sample.timestampNanoseconds, acceleration: CMAcceleration(x: g.x, y: g.y, z: g.z))
    }

    package static func gyroData(_ sample: MotionSample) -> CMGyroData {
        let v = sample.vector
        return CMGyroData(timestampNanoseconds: sample.timestampNanoseconds,
                          rotationRate: CMRotationRate(x: v.x.doubleValue, y: v.y.doubleValue, z: v.z.doubleValue))
    }

    package static func magnetometerData(_ sample: MotionSample) -> CMMagnetometerData {
        let v = sample.vector
        return CMMagnetometerData(timestampNanoseconds: sample.timestampNanoseconds,
                                  magneticField: CMMagneticField(x: v.x.doubleValue, y: v.y.doubleValue, z: v.z.doubleValue))
    }

    package static func deviceMotion(_ sample: MotionSample) -> CMDeviceMotion? {
        guard let motion = sample.deviceMotionValues else { return nil }
        func acceleration(_ v: Vector3Values) -> CMAcceleration { CMAcceleration(x: v.x, y: v.y, z: v.z) }
        let field = motion.magneticField
        return CMDeviceMotion(
            timestampNanoseconds: motion.timestampNanoseconds,
            attitude: CMAttitude(quaternion: CMQuaternion(x: motion.x, y: motion.y, z: motion.z, w: motion.w)),
            rotationRate: CMRotationRate(x: motion.rotationRate.x, y: motion.rotationRate.y, z: motion.rotationRate.z),
            gravity: acceleration(motion.gravity), userAcceleration: acceleration(motion.userAcceleration),
            magneticField: CMCalibratedMagneticField(
                field: CMMagneticField(x: field.x, y: field.y, z: field.z),
                accuracy: CMMagneticFieldCalibrationAccuracy(rawValue: motion.magneticAccuracy) ?? .uncalibrated),
            heading: motion.heading, attitudeReferenceFrame: CMAttitudeReferenceFrame(rawValue: motion.frame.rawValue))
    }
}

/// Hands one push stream's updates to its OperationQueue without ever blocking the engine:
/// when `CMMotionManager.maxPendingUpdates` are already waiting (the handler is slower than the
/// stream), a new update is dropped and counted instead of queued.
final class QueueDelivery: Sendable {
    private let queue: OperationQueue
    private let store: PullStore
    private let stream: MotionStream
    private let pending = Atomic<Int>(0)

    init(queue: OperationQueue, store: PullStore, stream: MotionStream) {
        self.queue = queue
        self.store = store
        self.stream = stream
    }

    func enqueue(evenIfBehind: Bool = false, _ work: @escaping @Sendable () -> Void) {
        let waiting = pending.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
        if waiting > CMMotionManager.maxPendingUpdates && !evenIfBehind {
            pending.wrappingSubtract(1, ordering: .acquiringAndReleasing)
            store.countDrop(stream)
            return
        }
        queue.addOperation { [self] in
            work()
            pending.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        }
    }
}
