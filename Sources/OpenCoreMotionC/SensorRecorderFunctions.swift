public import COpenCoreMotion
import Glibc
import MotionManagerCore

/// What an `ocm_sensor_recorder *` points to: the recorder's core (the one `CMSensorRecorder`
/// wraps), a connection to motiond.
final class SensorRecorderHandle {
    let recorder: SensorRecorderCore

    init(recorder: SensorRecorderCore) { self.recorder = recorder }

    static let registry = HandleRegistry<SensorRecorderHandle>()
}

private func handle(_ pointer: OpaquePointer?) -> SensorRecorderHandle? {
    SensorRecorderHandle.registry.object(for: UnsafeRawPointer(pointer))
}

private func notOpen(_ function: String) -> ocm_status {
    fail(OCM_STATUS_INVALID_HANDLE, "\(function): not an open sensor recorder")
}

@c @implementation
public func ocm_sensor_recorder_open(_ socketPath: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ocm_status {
    guard let out else { return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_sensor_recorder_open: out is NULL") }
    let recorder = SensorRecorderCore(daemonSocket: socketPath.map { String(cString: $0) })
    out.pointee = OpaquePointer(SensorRecorderHandle.registry.register(SensorRecorderHandle(recorder: recorder)))
    return OCM_STATUS_OK
}

@c @implementation
public func ocm_sensor_recorder_close(_ recorder: OpaquePointer?) {
    SensorRecorderHandle.registry.close(UnsafeRawPointer(recorder))
}

@c @implementation
public func ocm_sensor_recorder_is_available(_ recorder: OpaquePointer?) -> Int32 {
    handle(recorder)?.recorder.isAvailable == true ? 1 : 0
}

@c @implementation
public func ocm_sensor_recorder_authorization_status(_ recorder: OpaquePointer?) -> Int32 {
    handle(recorder).map { Int32($0.recorder.authorization.rawValue) } ?? -1
}

@c @implementation
public func ocm_sensor_recorder_record_accelerometer(_ recorder: OpaquePointer?, _ duration: Double,
                                                     _ until: UnsafeMutablePointer<Int64>?) -> ocm_status {
    guard let handle = handle(recorder) else { return notOpen("ocm_sensor_recorder_record_accelerometer") }
    do throws(MotionManagerError) {
        let end = try handle.recorder.record(duration: duration)
        until?.pointee = Int64((end * 1e9).rounded())
        return OCM_STATUS_OK
    } catch {
        return fail(status(for: error), error.message)
    }
}

@c @implementation
public func ocm_sensor_recorder_copy_accelerometer_data(_ recorder: OpaquePointer?, _ fromUnixNanoseconds: Int64, _ toUnixNanoseconds: Int64,
                                                        _ out: UnsafeMutablePointer<UnsafeMutablePointer<ocm_recorded_accelerometer_data>?>?,
                                                        _ count: UnsafeMutablePointer<Int>?) -> ocm_status {
    let function = "ocm_sensor_recorder_copy_accelerometer_data"
    guard let handle = handle(recorder) else { return notOpen(function) }
    guard let out, let count else { return fail(OCM_STATUS_INVALID_ARGUMENT, "\(function): out or count is NULL") }
    (out.pointee, count.pointee) = (nil, 0)
    guard fromUnixNanoseconds <= toUnixNanoseconds else {
        return fail(OCM_STATUS_INVALID_ARGUMENT, "\(function): from_unix_ns (\(fromUnixNanoseconds)) is after to_unix_ns (\(toUnixNanoseconds)): give the earlier time first.")
    }
    do throws(MotionManagerError) {
        let samples = try handle.recorder.accelerometer(from: Double(fromUnixNanoseconds) / 1e9, to: Double(toUnixNanoseconds) / 1e9)
        guard !samples.isEmpty else { return OCM_STATUS_OK }
        guard let array = malloc(samples.count * MemoryLayout<ocm_recorded_accelerometer_data>.stride)?
            .bindMemory(to: ocm_recorded_accelerometer_data.self, capacity: samples.count) else {
            return fail(OCM_STATUS_DEVICE_ERROR, "\(function): out of memory for \(samples.count) samples: ask for a shorter range")
        }
        for (index, sample) in samples.enumerated() {
            array[index] = ocm_recorded_accelerometer_data(start_unix_ns: Int64((sample.time * 1e9).rounded()), x: sample.x, y: sample.y, z: sample.z,
                                                           identifier: UInt64(bitPattern: sample.run))
        }
        (out.pointee, count.pointee) = (array, samples.count)
        return OCM_STATUS_OK
    } catch {
        return fail(status(for: error), error.message)
    }
}

@c @implementation
public func ocm_sensor_recorder_free_data(_ data: UnsafeMutablePointer<ocm_recorded_accelerometer_data>?) {
    free(data)
}
