public import COpenCoreMotion
import MotionAlgorithms
import MotionEngine
import MotionManagerCore
import Synchronization

/// What an `ocm_batched_sensor_manager *` points to: the batched manager's core (the same one
/// `CMBatchedSensorManager` wraps), which runs each started stream's callback on its own thread.
final class BatchedSensorManagerHandle: Sendable {
    let manager: BatchedCore

    init(manager: BatchedCore) { self.manager = manager }

    static let registry = HandleRegistry<BatchedSensorManagerHandle>()

    /// Stops `stream`; once this returns (outside its callback) the callback is not running.
    func stop(_ stream: ocm_batched_stream) {
        if stream == OCM_BATCHED_ACCELEROMETER { manager.stopAccelerometer() } else { manager.stopDeviceMotion() }
    }
}

/// A C batch callback bound to its user data, called on the stream's delivery thread.
///
/// `@unchecked Sendable`, as `EngineThreadCallback` (MotionManagerFunctions.swift): immutable,
/// it calls a plain C function with a user pointer this library only hands back; opencoremotion.h
/// tells the caller which thread calls it.
private struct BatchCallback<Sample>: @unchecked Sendable {
    /// The C function with the user data bound.
    let function: (UnsafePointer<Sample>?, Int, ocm_status) -> Void

    /// Calls the function with the batch converted into C structs, or with the failure.
    func call<Element>(_ batch: [Element]?, _ failure: MotionManagerError?, convert: (Element) -> Sample) {
        guard let batch else {
            LastError.set(failure?.message ?? "the board stopped")
            function(nil, 0, OCM_STATUS_DEVICE_ERROR)
            return
        }
        let samples = batch.map(convert)
        samples.withUnsafeBufferPointer { function($0.baseAddress, $0.count, OCM_STATUS_OK) }
    }
}

private func handle(_ pointer: OpaquePointer?) -> BatchedSensorManagerHandle? {
    BatchedSensorManagerHandle.registry.object(for: UnsafeRawPointer(pointer))
}

private func isStream(_ stream: ocm_batched_stream) -> Bool {
    stream == OCM_BATCHED_ACCELEROMETER || stream == OCM_BATCHED_DEVICE_MOTION
}

@c @implementation
public func ocm_batched_sensor_manager_open(_ boardPath: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ocm_status {
    guard let out else { return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_batched_sensor_manager_open: out is NULL") }
    out.pointee = nil
    let manager = BatchedCore(board: boardPath.map { String(cString: $0) })
    if let failure = manager.boardFailure { return fail(status(forLoading: failure), failure.description) }
    out.pointee = OpaquePointer(BatchedSensorManagerHandle.registry.register(BatchedSensorManagerHandle(manager: manager)))
    return OCM_STATUS_OK
}

@c @implementation
public func ocm_batched_sensor_manager_close(_ manager: OpaquePointer?) {
    guard let handle = handle(manager) else { return }
    handle.stop(OCM_BATCHED_ACCELEROMETER)
    handle.stop(OCM_BATCHED_DEVICE_MOTION)
    BatchedSensorManagerHandle.registry.close(UnsafeRawPointer(manager))
}

@c @implementation
public func ocm_batched_sensor_manager_is_supported(_ manager: OpaquePointer?) -> Int32 {
    handle(manager)?.manager.isSupported == true ? 1 : 0
}

@c @implementation
public func ocm_batched_sensor_manager_uses_daemon(_ manager: OpaquePointer?) -> Int32 {
    handle(manager)?.manager.daemon != nil ? 1 : 0
}

@c @implementation
public func ocm_batched_sensor_manager_frequency(_ manager: OpaquePointer?, _ stream: ocm_batched_stream) -> Int32 {
    guard let core = handle(manager)?.manager else { return 0 }
    switch stream {
    case OCM_BATCHED_ACCELEROMETER: return Int32(core.accelerometerFrequency)
    case OCM_BATCHED_DEVICE_MOTION: return Int32(core.deviceMotionFrequency)
    default: return 0
    }
}

@c @implementation
public func ocm_batched_sensor_manager_is_active(_ manager: OpaquePointer?, _ stream: ocm_batched_stream) -> Int32 {
    guard let core = handle(manager)?.manager else { return 0 }
    switch stream {
    case OCM_BATCHED_ACCELEROMETER: return core.isAccelerometerActive ? 1 : 0
    case OCM_BATCHED_DEVICE_MOTION: return core.isDeviceMotionActive ? 1 : 0
    default: return 0
    }
}

@c @implementation
public func ocm_batched_sensor_manager_start_accelerometer(
    _ manager: OpaquePointer?,
    _ callback: (@convention(c) (UnsafePointer<ocm_accelerometer_data>?, Int, ocm_status, UnsafeMutableRawPointer?) -> Void)?,
    _ userData: UnsafeMutableRawPointer?
) -> ocm_status {
    start(OCM_BATCHED_ACCELEROMETER, of: manager, "ocm_batched_sensor_manager_start_accelerometer",
          callback.map { callback in BatchCallback { callback($0, $1, $2, userData) } },
          start: { core, deliver throws(MotionManagerError) in try core.startAccelerometer(handler: deliver) },
          convert: { motionData(.accelerometer($0)).accelerometer })
}

@c @implementation
public func ocm_batched_sensor_manager_start_device_motion(
    _ manager: OpaquePointer?,
    _ callback: (@convention(c) (UnsafePointer<ocm_device_motion_data>?, Int, ocm_status, UnsafeMutableRawPointer?) -> Void)?,
    _ userData: UnsafeMutableRawPointer?
) -> ocm_status {
    start(OCM_BATCHED_DEVICE_MOTION, of: manager, "ocm_batched_sensor_manager_start_device_motion",
          callback.map { callback in BatchCallback { callback($0, $1, $2, userData) } },
          start: { core, deliver throws(MotionManagerError) in try core.startDeviceMotion(handler: deliver) },
          convert: { motionData(.deviceMotion($0, .xArbitraryZVertical)).device_motion })
}

/// Starts `stream` (stopping it first if started) with `start`, the core's start of that stream;
/// each batch reaches `callback` on the stream's delivery thread, converted into C structs by
/// `convert`.
private func start<Element: Sendable, Sample>(
    _ stream: ocm_batched_stream, of manager: OpaquePointer?, _ function: String, _ callback: BatchCallback<Sample>?,
    start: (BatchedCore, @escaping BatchedCore.Handler<Element>) throws(MotionManagerError) -> BatchClient<Element>,
    convert: @escaping @Sendable (Element) -> Sample
) -> ocm_status {
    guard let handle = handle(manager) else { return fail(OCM_STATUS_INVALID_HANDLE, "\(function): not an open batched sensor manager") }
    guard let callback else { return fail(OCM_STATUS_INVALID_ARGUMENT, "\(function): callback is NULL") }
    handle.stop(stream)
    do {
        _ = try start(handle.manager) { batch, failure in callback.call(batch, failure, convert: convert) }
        return OCM_STATUS_OK
    } catch {
        return fail(status(for: error), error.message)
    }
}

@c @implementation
public func ocm_batched_sensor_manager_stop(_ manager: OpaquePointer?, _ stream: ocm_batched_stream) -> ocm_status {
    guard let handle = handle(manager) else {
        return fail(OCM_STATUS_INVALID_HANDLE, "ocm_batched_sensor_manager_stop: not an open batched sensor manager")
    }
    guard isStream(stream) else {
        return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_batched_sensor_manager_stop: \(stream.rawValue) is not an ocm_batched_stream")
    }
    handle.stop(stream)
    return OCM_STATUS_OK
}

@c @implementation
public func ocm_batched_sensor_manager_drops(_ manager: OpaquePointer?, _ stream: ocm_batched_stream,
                                             _ out: UnsafeMutablePointer<ocm_batch_drops>?) -> ocm_status {
    guard let core = handle(manager)?.manager else {
        return fail(OCM_STATUS_INVALID_HANDLE, "ocm_batched_sensor_manager_drops: not an open batched sensor manager")
    }
    guard isStream(stream) else {
        return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_batched_sensor_manager_drops: \(stream.rawValue) is not an ocm_batched_stream")
    }
    guard let out else { return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_batched_sensor_manager_drops: out is NULL") }
    func drops<Element>(_ client: BatchClient<Element>?) -> ocm_batch_drops {
        ocm_batch_drops(delivered_samples: UInt64(client?.deliveredSamples ?? 0), queue_full_samples: UInt64(client?.queueDroppedSamples ?? 0),
                        fifo_samples: UInt64(client?.fifoDroppedSamples ?? 0), fifo_overflows: UInt64(client?.fifoOverflows ?? 0))
    }
    out.pointee = stream == OCM_BATCHED_ACCELEROMETER ? drops(core.accelerometerClient) : drops(core.deviceMotionClient)
    return OCM_STATUS_OK
}
