public import COpenCoreMotion
import MotionAlgorithms
import MotionManagerCore

/// What an `ocm_water_submersion_manager *` points to: the core `CMWaterSubmersionManager` also
/// wraps, and the failure messages handed out for it (alive until the manager is closed).
final class WaterSubmersionHandle {
    let manager: WaterSubmersionCore
    let failures = FailureMessages()

    init(manager: WaterSubmersionCore) { self.manager = manager }

    static let registry = HandleRegistry<WaterSubmersionHandle>()
}

/// A C callback and its user data, called on the engine thread (`@unchecked Sendable` for the
/// reason `EngineThreadCallback` in MotionManagerFunctions.swift is).
private struct UpdateCallback: @unchecked Sendable {
    let function: @convention(c) (UnsafePointer<ocm_water_submersion_update>?, ocm_status, UnsafeMutableRawPointer?) -> Void
    let userData: UnsafeMutableRawPointer?
}

private func handle(_ pointer: OpaquePointer?) -> WaterSubmersionHandle? {
    WaterSubmersionHandle.registry.object(for: UnsafeRawPointer(pointer))
}

private func notOpen(_ function: String) -> ocm_status {
    fail(OCM_STATUS_INVALID_HANDLE, "\(function): not an open water-submersion manager")
}

@c @implementation
public func ocm_water_submersion_open(_ boardPath: UnsafePointer<CChar>?, _ waterDensity: Double, _ maximumDepth: Double,
                                      _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ocm_status {
    guard let out else { return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_water_submersion_open: out is NULL") }
    out.pointee = nil
    guard waterDensity >= 500, waterDensity <= 2000 else {
        return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_water_submersion_open: a water density of \(waterDensity) kg/m3 is not water's: "
                    + "give OCM_WATER_DENSITY_FRESH (1000), OCM_WATER_DENSITY_SALT (1025) or a measured value from 500 to 2000.")
    }
    guard maximumDepth.isNaN || maximumDepth >= 0, maximumDepth.isFinite || maximumDepth.isNaN else {
        return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_water_submersion_open: a maximum depth of \(maximumDepth) m is not a depth: "
                    + "give the rating in metres, or 0 for the sensor's range.")
    }
    let manager = WaterSubmersionCore(board: boardPath.map { String(cString: $0) },
                                      waterDensity: waterDensity, maximumDepth: maximumDepth > 0 ? maximumDepth : nil)
    if let failure = manager.boardFailure { return fail(status(forLoading: failure), failure.description) }
    out.pointee = OpaquePointer(WaterSubmersionHandle.registry.register(WaterSubmersionHandle(manager: manager)))
    return OCM_STATUS_OK
}

@c @implementation
public func ocm_water_submersion_close(_ manager: OpaquePointer?) {
    guard let handle = handle(manager) else { return }
    handle.manager.stop()
    WaterSubmersionHandle.registry.close(UnsafeRawPointer(manager))
}

@c @implementation
public func ocm_water_submersion_is_available(_ manager: OpaquePointer?) -> Int32 {
    handle(manager)?.manager.isAvailable == true ? 1 : 0
}

@c @implementation
public func ocm_water_submersion_maximum_depth(_ manager: OpaquePointer?) -> Double {
    handle(manager)?.manager.settings?.maximumDepth ?? .nan
}

@c @implementation
public func ocm_water_submersion_start_updates(_ manager: OpaquePointer?,
                                               _ callback: (@convention(c) (UnsafePointer<ocm_water_submersion_update>?, ocm_status, UnsafeMutableRawPointer?) -> Void)?,
                                               _ userData: UnsafeMutableRawPointer?) -> ocm_status {
    guard let handle = handle(manager) else { return notOpen("ocm_water_submersion_start_updates") }
    let target = callback.map { UpdateCallback(function: $0, userData: userData) }
    let failures = handle.failures
    do throws(MotionManagerError) {
        try handle.manager.start { feed in
            // On the engine thread.
            if case .failed(let failure) = feed {
                failures.add(failure.message)
                LastError.set(failure.message)
                target?.function(nil, OCM_STATUS_DEVICE_ERROR, target?.userData)
                return
            }
            guard let target else { return }
            var update = waterSubmersionUpdate(feed)
            target.function(&update, OCM_STATUS_OK, target.userData)
        }
        return OCM_STATUS_OK
    } catch {
        handle.failures.add(error.message)
        return fail(status(for: error), error.message)
    }
}

@c @implementation
public func ocm_water_submersion_stop_updates(_ manager: OpaquePointer?) -> ocm_status {
    guard let handle = handle(manager) else { return notOpen("ocm_water_submersion_stop_updates") }
    handle.manager.stop()
    return OCM_STATUS_OK
}

@c @implementation
public func ocm_water_submersion_copy_latest(_ manager: OpaquePointer?, _ out: UnsafeMutablePointer<ocm_water_submersion_update>?) -> ocm_status {
    guard let handle = handle(manager) else { return notOpen("ocm_water_submersion_copy_latest") }
    guard let out else { return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_water_submersion_copy_latest: out is NULL") }
    guard let latest = handle.manager.latest else { return OCM_STATUS_NO_DATA }
    out.pointee = waterSubmersionUpdate(.measurement(latest))
    return OCM_STATUS_OK
}

@c @implementation
public func ocm_water_submersion_error_message(_ manager: OpaquePointer?) -> UnsafePointer<CChar>? {
    handle(manager)?.failures.latest
}

/// The C struct of `feed`: the fields of its kind set, the others 0 or NaN.
private func waterSubmersionUpdate(_ feed: WaterSubmersionFeed) -> ocm_water_submersion_update {
    var update = ocm_water_submersion_update(kind: OCM_WATER_SUBMERSION_EVENT, submerged: 0, date_unix_ns: 0, depth_m: .nan, pressure_pa: .nan,
                                             surface_pressure_pa: .nan, state: OCM_WATER_DEPTH_UNKNOWN, temperature_c: .nan,
                                             temperature_uncertainty_c: .nan)
    switch feed {
    case .event(let submerged, let time):
        update.submerged = submerged ? 1 : 0
        update.date_unix_ns = WallClock.unixTime(engineNanoseconds: time)
    case .measurement(let measurement):
        update.kind = OCM_WATER_SUBMERSION_MEASUREMENT
        update.date_unix_ns = WallClock.unixTime(engineNanoseconds: measurement.timestampNanoseconds)
        update.depth_m = measurement.depth ?? .nan
        update.pressure_pa = measurement.pressure
        update.surface_pressure_pa = measurement.surfacePressure ?? .nan
        update.state = ocm_water_depth_state(rawValue: UInt32(measurement.state.rawValue))
    case .temperature(let time, let celsius, let uncertainty):
        update.kind = OCM_WATER_SUBMERSION_TEMPERATURE
        update.date_unix_ns = WallClock.unixTime(engineNanoseconds: time)
        update.temperature_c = celsius
        update.temperature_uncertainty_c = uncertainty
    case .failed:
        break  // not a C update: the callback gets NULL with OCM_STATUS_DEVICE_ERROR
    }
    return update
}
