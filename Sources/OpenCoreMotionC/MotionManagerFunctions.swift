public import COpenCoreMotion
import Glibc
import MotionEngine
import MotionManagerCore
import Locking

/// What an `ocm_motion_manager *` points to: the motion manager's core (MotionManagerCore, the
/// same one `CMMotionManager` wraps, without Foundation) and the failure messages handed out for
/// it, which live until the manager is closed (as the header promises).
final class MotionManagerHandle {
    let manager: ManagerCore
    let failures = FailureMessages()

    init(manager: ManagerCore) { self.manager = manager }

    static let registry = HandleRegistry<MotionManagerHandle>()
}

/// The messages of failures that stopped a manager's board: written on the engine thread, read
/// on any. Every strdup'ed message is kept until the handle is freed, so a pointer returned by
/// `ocm_motion_manager_error_message` stays valid until `ocm_motion_manager_close` as promised.
final class FailureMessages: Sendable {
    /// Addresses of malloc'ed C strings, oldest first (addresses: raw pointers are not Sendable).
    private let messages = Lock<[UInt]>([])

    func add(_ text: String) {
        guard let copy = CString.duplicate(text) else { return }
        messages.withLock { $0.append(UInt(bitPattern: copy)) }
    }

    var latest: UnsafePointer<CChar>? {
        messages.withLock { $0.last }.flatMap { UnsafePointer(bitPattern: $0) }
    }

    deinit {
        for address in messages.withLock({ $0 }) { free(UnsafeMutableRawPointer(bitPattern: address)) }
    }
}

/// A C callback and its user data, called on the engine thread.
///
/// `@unchecked Sendable`, and why it is safe: both fields are immutable; the function pointer is
/// plain C code, and `userData` is the caller's pointer, which this library never dereferences,
/// only hands back. opencoremotion.h documents that callbacks run on the engine thread, so
/// synchronising what `userData` points to is the C caller's part of the contract, as with any
/// C callback API.
private struct EngineThreadCallback: @unchecked Sendable {
    let function: @convention(c) (UnsafePointer<ocm_motion_data>?, ocm_status, UnsafeMutableRawPointer?) -> Void
    let userData: UnsafeMutableRawPointer?
}

private func stream(_ value: ocm_stream) -> MotionStream? {
    MotionStream(rawValue: Int(value.rawValue))
}

/// The status of a board file that could not be loaded: unreadable files are I/O errors,
/// content errors (with a line) a malformed board.
func status(forLoading error: EngineError) -> ocm_status {
    if case .board(let boardError) = error, boardError.line == nil { return OCM_STATUS_IO_ERROR }
    return OCM_STATUS_MALFORMED_BOARD
}

func status(for error: MotionManagerError) -> ocm_status {
    switch error.code {
    case .notAvailable, .trueNorthNotAvailable: OCM_STATUS_NOT_AVAILABLE
    case .invalidParameter: OCM_STATUS_INVALID_ARGUMENT
    case .unknown: OCM_STATUS_DEVICE_ERROR
    case .notAuthorized: OCM_STATUS_NOT_AUTHORIZED
    }
}

@c @implementation
public func ocm_motion_manager_open(_ boardPath: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ocm_status {
    guard let out else { return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_motion_manager_open: out is NULL") }
    out.pointee = nil
    let manager = ManagerCore(board: boardPath.map { String(cString: $0) })
    if let failure = manager.boardFailure { return fail(status(forLoading: failure), failure.description) }
    out.pointee = OpaquePointer(MotionManagerHandle.registry.register(MotionManagerHandle(manager: manager)))
    return OCM_STATUS_OK
}

@c @implementation
public func ocm_motion_manager_close(_ manager: OpaquePointer?) {
    guard let handle = MotionManagerHandle.registry.object(for: UnsafeRawPointer(manager)) else { return }
    for stream in MotionStream.allCases { handle.manager.stop(stream) }
    MotionManagerHandle.registry.close(UnsafeRawPointer(manager))
}

@c @implementation
public func ocm_motion_manager_is_available(_ manager: OpaquePointer?, _ stream: ocm_stream) -> Int32 {
    guard let handle = MotionManagerHandle.registry.object(for: UnsafeRawPointer(manager)),
          let stream = OpenCoreMotionC.stream(stream) else { return 0 }
    return handle.manager.isAvailable(stream) ? 1 : 0
}

@c @implementation
public func ocm_motion_manager_available_reference_frames(_ manager: OpaquePointer?) -> UInt32 {
    guard let handle = MotionManagerHandle.registry.object(for: UnsafeRawPointer(manager)) else { return 0 }
    return UInt32(handle.manager.availableReferenceFrames.rawValue)
}

@c @implementation
public func ocm_motion_manager_is_active(_ manager: OpaquePointer?, _ stream: ocm_stream) -> Int32 {
    guard let handle = MotionManagerHandle.registry.object(for: UnsafeRawPointer(manager)),
          let stream = OpenCoreMotionC.stream(stream) else { return 0 }
    return handle.manager.isActive(stream) ? 1 : 0
}

@c @implementation
public func ocm_motion_manager_set_update_interval(_ manager: OpaquePointer?, _ stream: ocm_stream, _ interval: Double) -> ocm_status {
    guard let handle = MotionManagerHandle.registry.object(for: UnsafeRawPointer(manager)) else {
        return fail(OCM_STATUS_INVALID_HANDLE, "ocm_motion_manager_set_update_interval: not an open motion manager")
    }
    guard let motionStream = OpenCoreMotionC.stream(stream) else {
        return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_motion_manager_set_update_interval: \(stream.rawValue) is not an ocm_stream")
    }
    guard interval.isFinite, interval > 0 else {
        return fail(OCM_STATUS_INVALID_ARGUMENT,
                    "ocm_motion_manager_set_update_interval: the interval must be a positive number of seconds, got \(interval)")
    }
    handle.manager.setUpdateInterval(motionStream, interval)
    return OCM_STATUS_OK
}

@c @implementation
public func ocm_motion_manager_start(_ manager: OpaquePointer?, _ stream: ocm_stream, _ referenceFrame: ocm_reference_frame,
                                     _ callback: (@convention(c) (UnsafePointer<ocm_motion_data>?, ocm_status, UnsafeMutableRawPointer?) -> Void)?,
                                     _ userData: UnsafeMutableRawPointer?) -> ocm_status {
    guard let handle = MotionManagerHandle.registry.object(for: UnsafeRawPointer(manager)) else {
        return fail(OCM_STATUS_INVALID_HANDLE, "ocm_motion_manager_start: not an open motion manager")
    }
    guard let motionStream = OpenCoreMotionC.stream(stream) else {
        return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_motion_manager_start: \(stream.rawValue) is not an ocm_stream")
    }
    let frame = motionStream == .deviceMotion ? ReferenceFrames(rawValue: UInt(referenceFrame.rawValue)) : .xArbitraryZVertical
    let target = callback.map { EngineThreadCallback(function: $0, userData: userData) }
    let failures = handle.failures
    do {
        try handle.manager.start(motionStream, frame: frame) { _, event in
            // On the engine thread.
            switch event {
            case .sample(let sample):
                guard let target else { return }
                var data = motionData(sample)
                target.function(&data, OCM_STATUS_OK, target.userData)
            case .failed(let error):
                failures.add(error.message)
                LastError.set(error.message)
                target?.function(nil, OCM_STATUS_DEVICE_ERROR, target?.userData)
            }
        }
        return OCM_STATUS_OK
    } catch {
        return fail(status(for: error), error.message)
    }
}

@c @implementation
public func ocm_motion_manager_stop(_ manager: OpaquePointer?, _ stream: ocm_stream) -> ocm_status {
    guard let handle = MotionManagerHandle.registry.object(for: UnsafeRawPointer(manager)) else {
        return fail(OCM_STATUS_INVALID_HANDLE, "ocm_motion_manager_stop: not an open motion manager")
    }
    guard let motionStream = OpenCoreMotionC.stream(stream) else {
        return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_motion_manager_stop: \(stream.rawValue) is not an ocm_stream")
    }
    handle.manager.stop(motionStream)
    return OCM_STATUS_OK
}

@c @implementation
public func ocm_motion_manager_copy_latest(_ manager: OpaquePointer?, _ stream: ocm_stream, _ out: UnsafeMutablePointer<ocm_motion_data>?) -> ocm_status {
    guard let handle = MotionManagerHandle.registry.object(for: UnsafeRawPointer(manager)) else {
        return fail(OCM_STATUS_INVALID_HANDLE, "ocm_motion_manager_copy_latest: not an open motion manager")
    }
    guard let motionStream = OpenCoreMotionC.stream(stream) else {
        return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_motion_manager_copy_latest: \(stream.rawValue) is not an ocm_stream")
    }
    guard let out else { return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_motion_manager_copy_latest: out is NULL") }
    guard let sample = handle.manager.store.latest(motionStream) else { return OCM_STATUS_NO_DATA }
    out.pointee = motionData(sample)
    return OCM_STATUS_OK
}

@c @implementation
public func ocm_motion_manager_error_message(_ manager: OpaquePointer?) -> UnsafePointer<CChar>? {
    MotionManagerHandle.registry.object(for: UnsafeRawPointer(manager))?.failures.latest
}

@c @implementation
public func ocm_motion_manager_lost_samples(_ manager: OpaquePointer?, _ stream: ocm_stream, _ dropped: UnsafeMutablePointer<UInt64>?,
                                            _ duplicated: UnsafeMutablePointer<UInt64>?) -> ocm_status {
    guard let handle = MotionManagerHandle.registry.object(for: UnsafeRawPointer(manager)) else {
        return fail(OCM_STATUS_INVALID_HANDLE, "ocm_motion_manager_lost_samples: not an open motion manager")
    }
    guard let motionStream = OpenCoreMotionC.stream(stream) else {
        return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_motion_manager_lost_samples: \(stream.rawValue) is not an ocm_stream")
    }
    let loss = handle.manager.sampleLoss(motionStream)
    dropped?.pointee = UInt64(loss.dropped)
    duplicated?.pointee = UInt64(loss.duplicated)
    return OCM_STATUS_OK
}

// MARK: Conversions to the C structs

func vector(_ x: Double, _ y: Double, _ z: Double) -> ocm_vector3 { ocm_vector3(x: x, y: y, z: z) }

func motionData(_ sample: MotionSample) -> ocm_motion_data {
    var data = ocm_motion_data()
    data.stream = ocm_stream(UInt32(sample.stream.rawValue))
    switch sample {
    case .accelerometer:
        let g = sample.coreMotionAcceleration
        data.accelerometer = ocm_accelerometer_data(timestamp_ns: sample.timestampNanoseconds, acceleration_g: vector(g.x, g.y, g.z))
    case .gyroscope:
        let v = sample.vector
        data.gyro = ocm_gyro_data(timestamp_ns: sample.timestampNanoseconds,
                                  rotation_rate_rad_s: vector(v.x.doubleValue, v.y.doubleValue, v.z.doubleValue))
    case .magnetometer:
        let v = sample.vector
        data.magnetometer = ocm_magnetometer_data(timestamp_ns: sample.timestampNanoseconds,
                                                  magnetic_field_ut: vector(v.x.doubleValue, v.y.doubleValue, v.z.doubleValue))
    case .deviceMotion:
        guard let motion = sample.deviceMotionValues else { break }
        let (g, u, r, field) = (motion.gravity, motion.userAcceleration, motion.rotationRate, motion.magneticField)
        data.device_motion = DeviceMotionDataFields(
            timestampNanoseconds: sample.timestampNanoseconds, frame: UInt32(motion.frame.rawValue), attitude: (motion.w, motion.x, motion.y, motion.z),
            gravity: (g.x, g.y, g.z), userAcceleration: (u.x, u.y, u.z), rotationRate: (r.x, r.y, r.z), magneticField: (field.x, field.y, field.z),
            magneticAccuracy: motion.magneticAccuracy, heading: motion.heading).cStruct
    }
    return data
}

@c @implementation
public func ocm_motion_manager_uses_daemon(_ manager: OpaquePointer?) -> Int32 {
    MotionManagerHandle.registry.object(for: UnsafeRawPointer(manager))?.manager.daemon != nil ? 1 : 0
}

/// A device-motion sample's numbers in Core Motion's units, made into `ocm_device_motion_data`
/// (the rotation matrix and Euler angles computed from the quaternion as `CMAttitude` does):
/// for the local board's samples and the remote ones alike.
struct DeviceMotionDataFields {
    var timestampNanoseconds: Int64
    /// `ocm_reference_frame`'s raw value.
    var frame: UInt32
    var attitude: (w: Double, x: Double, y: Double, z: Double)
    var gravity: (Double, Double, Double)
    var userAcceleration: (Double, Double, Double)
    var rotationRate: (Double, Double, Double)
    var magneticField: (Double, Double, Double)
    var magneticAccuracy: Int32
    var heading: Double

    var cStruct: ocm_device_motion_data {
        let q = attitude
        let m = AttitudeMatrix(w: q.w, x: q.x, y: q.y, z: q.z)
        func vector(_ v: (Double, Double, Double)) -> ocm_vector3 { ocm_vector3(x: v.0, y: v.1, z: v.2) }
        return ocm_device_motion_data(
            timestamp_ns: timestampNanoseconds, reference_frame: ocm_reference_frame(frame),
            attitude: ocm_quaternion(w: q.w, x: q.x, y: q.y, z: q.z),
            rotation_matrix: ((m.m11, m.m12, m.m13), (m.m21, m.m22, m.m23), (m.m31, m.m32, m.m33)),
            roll_rad: m.roll, pitch_rad: m.pitch, yaw_rad: m.yaw,
            gravity_g: vector(gravity), user_acceleration_g: vector(userAcceleration), rotation_rate_rad_s: vector(rotationRate),
            magnetic_field_ut: vector(magneticField), magnetic_accuracy: ocm_magnetic_accuracy(magneticAccuracy), heading_deg: heading)
    }
}
