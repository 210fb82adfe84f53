public import COpenCoreMotion
import MotionEngine
import MotionManagerCore

/// What an `ocm_altimeter *` points to: the altimeter's core (MotionManagerCore, the same one
/// `CMAltimeter` wraps) and the failure messages handed out for it, which live until the
/// altimeter is closed (as the header promises).
final class AltimeterHandle {
    let altimeter: AltimeterCore
    let failures = FailureMessages()

    init(altimeter: AltimeterCore) { self.altimeter = altimeter }

    static let registry = HandleRegistry<AltimeterHandle>()
}

/// A C callback and its user data, called on the engine thread.
///
/// `@unchecked Sendable` for the reason `EngineThreadCallback` (MotionManagerFunctions.swift)
/// is: immutable fields, a plain C function, and a user pointer this library only hands back;
/// opencoremotion.h tells the caller that callbacks run on the engine thread.
private struct AltitudeCallback: @unchecked Sendable {
    let function: @convention(c) (UnsafePointer<ocm_altitude_data>?, ocm_status, UnsafeMutableRawPointer?) -> Void
    let userData: UnsafeMutableRawPointer?
}

private func handle(_ pointer: OpaquePointer?) -> AltimeterHandle? {
    AltimeterHandle.registry.object(for: UnsafeRawPointer(pointer))
}

private func notOpen(_ function: String) -> ocm_status {
    fail(OCM_STATUS_INVALID_HANDLE, "\(function): not an open altimeter")
}

/// The core's kind of `kind`, or nil for a value the enum does not have.
private func kind(_ kind: ocm_altitude_kind) -> AltimeterCore.Kind? {
    switch kind {
    case OCM_ALTITUDE_RELATIVE: .relative
    case OCM_ALTITUDE_ABSOLUTE: .absolute
    default: nil
    }
}

private func unknownKind(_ function: String, _ value: ocm_altitude_kind) -> ocm_status {
    fail(OCM_STATUS_INVALID_ARGUMENT, "\(function): kind \(value.rawValue) is neither OCM_ALTITUDE_RELATIVE (0) nor OCM_ALTITUDE_ABSOLUTE (1)")
}

@c @implementation
public func ocm_altimeter_open(_ boardPath: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ocm_status {
    guard let out else { return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_altimeter_open: out is NULL") }
    out.pointee = nil
    let altimeter = AltimeterCore(board: boardPath.map { String(cString: $0) })
    if let failure = altimeter.boardFailure { return fail(status(forLoading: failure), failure.description) }
    out.pointee = OpaquePointer(AltimeterHandle.registry.register(AltimeterHandle(altimeter: altimeter)))
    return OCM_STATUS_OK
}

@c @implementation
public func ocm_altimeter_close(_ altimeter: OpaquePointer?) {
    guard let handle = handle(altimeter) else { return }
    handle.altimeter.stopUpdates(.relative)
    handle.altimeter.stopUpdates(.absolute)
    AltimeterHandle.registry.close(UnsafeRawPointer(altimeter))
}

@c @implementation
public func ocm_altimeter_is_available(_ altimeter: OpaquePointer?) -> Int32 {
    handle(altimeter)?.altimeter.isAvailable == true ? 1 : 0
}

@c @implementation
public func ocm_altimeter_uses_daemon(_ altimeter: OpaquePointer?) -> Int32 {
    handle(altimeter)?.altimeter.daemon != nil ? 1 : 0
}

@c @implementation
public func ocm_altimeter_set_sea_level_pressure(_ altimeter: OpaquePointer?, _ kilopascals: Double, _ uncertainty: Double) -> ocm_status {
    guard let handle = handle(altimeter) else { return notOpen("ocm_altimeter_set_sea_level_pressure") }
    do throws(MotionManagerError) {
        try handle.altimeter.setSeaLevelPressure(kilopascals: kilopascals, uncertainty: uncertainty)
        return OCM_STATUS_OK
    } catch {
        return fail(status(for: error), "ocm_altimeter_set_sea_level_pressure: " + error.message)
    }
}

@c @implementation
public func ocm_altimeter_start_updates(_ altimeter: OpaquePointer?, _ kindValue: ocm_altitude_kind,
                                        _ callback: (@convention(c) (UnsafePointer<ocm_altitude_data>?, ocm_status, UnsafeMutableRawPointer?) -> Void)?,
                                        _ userData: UnsafeMutableRawPointer?) -> ocm_status {
    guard let handle = handle(altimeter) else { return notOpen("ocm_altimeter_start_updates") }
    guard let kind = kind(kindValue) else { return unknownKind("ocm_altimeter_start_updates", kindValue) }
    let target = callback.map { AltitudeCallback(function: $0, userData: userData) }
    let failures = handle.failures
    do throws(MotionManagerError) {
        try handle.altimeter.startUpdates(kind) { _, feed in
            // On the engine thread.
            switch feed {
            case .update(let values):
                guard let target else { return }
                var data = altitudeData(values)
                target.function(&data, OCM_STATUS_OK, target.userData)
            case .failed(let failure):
                failures.add(failure.message)
                LastError.set(failure.message)
                target?.function(nil, OCM_STATUS_DEVICE_ERROR, target?.userData)
            }
        }
        return OCM_STATUS_OK
    } catch {
        handle.failures.add(error.message)
        return fail(status(for: error), error.message)
    }
}

@c @implementation
public func ocm_altimeter_stop_updates(_ altimeter: OpaquePointer?, _ kindValue: ocm_altitude_kind) -> ocm_status {
    guard let handle = handle(altimeter) else { return notOpen("ocm_altimeter_stop_updates") }
    guard let kind = kind(kindValue) else { return unknownKind("ocm_altimeter_stop_updates", kindValue) }
    handle.altimeter.stopUpdates(kind)
    return OCM_STATUS_OK
}

@c @implementation
public func ocm_altimeter_copy_latest(_ altimeter: OpaquePointer?, _ kindValue: ocm_altitude_kind,
                                      _ out: UnsafeMutablePointer<ocm_altitude_data>?) -> ocm_status {
    guard let handle = handle(altimeter) else { return notOpen("ocm_altimeter_copy_latest") }
    guard let kind = kind(kindValue) else { return unknownKind("ocm_altimeter_copy_latest", kindValue) }
    guard let out else { return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_altimeter_copy_latest: out is NULL") }
    guard let latest = handle.altimeter.latest(kind) else { return OCM_STATUS_NO_DATA }
    out.pointee = altitudeData(latest)
    return OCM_STATUS_OK
}

@c @implementation
public func ocm_altimeter_error_message(_ altimeter: OpaquePointer?) -> UnsafePointer<CChar>? {
    handle(altimeter)?.failures.latest
}

private func altitudeData(_ values: AltitudeValues) -> ocm_altitude_data {
    ocm_altitude_data(timestamp_ns: values.timestampNanoseconds, relative_altitude_m: values.relativeAltitude,
                      pressure_kpa: values.pressureKilopascals, altitude_m: values.absoluteAltitude,
                      accuracy_m: values.accuracy, precision_m: values.precision)
}
