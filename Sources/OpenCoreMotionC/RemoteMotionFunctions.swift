public import COpenCoreMotion
import MotionManagerCore
import MotionMQTT
import Locking

/// What an `ocm_remote_motion *` points to: the configuration, the board followed and, while
/// started, the `RemoteDeviceMotion` feeding the callback (the same one `CMHeadphoneMotionManager`
/// wraps).
final class RemoteMotionHandle: Sendable {
    let configuration: MQTTConfiguration
    let boardID: String
    let running = Lock<RemoteDeviceMotion?>(nil)

    init(configuration: MQTTConfiguration, boardID: String) {
        self.configuration = configuration
        self.boardID = boardID
    }

    static let registry = HandleRegistry<RemoteMotionHandle>()
}

/// The C callback and its user data, called on the MQTT client's thread.
///
/// `@unchecked Sendable` for the reason `EngineThreadCallback` (MotionManagerFunctions.swift)
/// is: immutable fields, a plain C function, and a user pointer this library only hands back.
private struct RemoteCallback: @unchecked Sendable {
    let function: @convention(c) (ocm_remote_event, UnsafePointer<ocm_device_motion_data>?, UnsafeMutableRawPointer?) -> Void
    let userData: UnsafeMutableRawPointer?
}

private func handle(_ pointer: OpaquePointer?) -> RemoteMotionHandle? {
    RemoteMotionHandle.registry.object(for: UnsafeRawPointer(pointer))
}

@c @implementation
public func ocm_remote_motion_open(_ configPath: UnsafePointer<CChar>?, _ boardID: UnsafePointer<CChar>?,
                                   _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ocm_status {
    guard let out else { return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_remote_motion_open: out is NULL") }
    out.pointee = nil
    guard let configPath, let boardID else { return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_remote_motion_open: config_path and board_id are required") }
    do throws(MQTTConfigurationError) {
        let configuration = try MQTTConfigurationFile.load(path: String(cString: configPath))
        let handle = RemoteMotionHandle(configuration: configuration, boardID: String(cString: boardID))
        out.pointee = OpaquePointer(RemoteMotionHandle.registry.register(handle))
        return OCM_STATUS_OK
    } catch {
        return fail(OCM_STATUS_NOT_AVAILABLE, "ocm_remote_motion_open: \(error)")
    }
}

@c @implementation
public func ocm_remote_motion_start(_ remote: OpaquePointer?,
                                    _ callback: (@convention(c) (ocm_remote_event, UnsafePointer<ocm_device_motion_data>?, UnsafeMutableRawPointer?) -> Void)?,
                                    _ userData: UnsafeMutableRawPointer?) -> ocm_status {
    guard let handle = handle(remote) else { return fail(OCM_STATUS_INVALID_HANDLE, "ocm_remote_motion_start: not an open remote motion") }
    guard let callback else { return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_remote_motion_start: callback is NULL") }
    ocm_remote_motion_stop(remote)
    let target = RemoteCallback(function: callback, userData: userData)
    do throws(MQTTClientError) {
        let feed = try RemoteDeviceMotion(configuration: handle.configuration, board: handle.boardID, log: { _ in }) { event in
            switch event {
            case .connected:
                target.function(OCM_REMOTE_EVENT_CONNECTED, nil, target.userData)
            case .disconnected(let reason):
                LastError.set(reason)
                target.function(OCM_REMOTE_EVENT_DISCONNECTED, nil, target.userData)
            case .sample(let sample):
                var data = deviceMotionData(sample)
                target.function(OCM_REMOTE_EVENT_SAMPLE, &data, target.userData)
            }
        }
        handle.running.withLock { $0 = feed }
        try feed.start()
        return OCM_STATUS_OK
    } catch {
        handle.running.withLock { $0 = nil }
        return fail(OCM_STATUS_NOT_AVAILABLE, "ocm_remote_motion_start: \(error)")
    }
}

@c @implementation
public func ocm_remote_motion_stop(_ remote: OpaquePointer?) {
    let feed = handle(remote)?.running.withLock { running in
        defer { running = nil }
        return running
    }
    feed?.stop()
}

@c @implementation
public func ocm_remote_motion_is_connected(_ remote: OpaquePointer?) -> Int32 {
    (handle(remote)?.running.withLock { $0?.isBoardOnline } ?? false) == true ? 1 : 0
}

@c @implementation
public func ocm_remote_motion_close(_ remote: OpaquePointer?) {
    guard handle(remote) != nil else { return }
    ocm_remote_motion_stop(remote)
    RemoteMotionHandle.registry.close(UnsafeRawPointer(remote))
}

/// A remote sample (attitude already relative to the first) as the C struct, its timestamp
/// moved to this machine's CLOCK_MONOTONIC.
private func deviceMotionData(_ sample: RemoteDeviceMotionSample) -> ocm_device_motion_data {
    let f = sample.fields
    func double(_ v: (x: Float, y: Float, z: Float)) -> (Double, Double, Double) { (Double(v.x), Double(v.y), Double(v.z)) }
    return DeviceMotionDataFields(
        timestampNanoseconds: WallClock.engineTime(unixNanoseconds: sample.timestampUnixNanoseconds), frame: UInt32(f.referenceFrame),
        attitude: (Double(f.w), Double(f.x), Double(f.y), Double(f.z)), gravity: double(f.gravity), userAcceleration: double(f.userAcceleration),
        rotationRate: double(f.rotationRate), magneticField: double(f.magneticField), magneticAccuracy: Int32(f.magneticAccuracy),
        heading: Double(f.heading)).cStruct
}
