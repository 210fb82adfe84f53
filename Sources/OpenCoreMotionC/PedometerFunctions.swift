public import COpenCoreMotion
import Glibc
import MotionEngine
import MotionManagerCore

/// What an `ocm_pedometer *` points to: the pedometer's core (MotionManagerCore, the same one
/// `CMPedometer` wraps) and the failure messages handed out for it, which live until the
/// pedometer is closed (as the header promises).
final class PedometerHandle {
    let pedometer: PedometerCore
    let failures = FailureMessages()

    init(pedometer: PedometerCore) { self.pedometer = pedometer }

    static let registry = HandleRegistry<PedometerHandle>()
}

/// C callbacks and their user data, called on the engine thread.
///
/// `@unchecked Sendable` for the reason `EngineThreadCallback` (MotionManagerFunctions.swift)
/// is: immutable fields, a plain C function, and a user pointer this library only hands back;
/// opencoremotion.h tells the caller that callbacks run on the engine thread.
private struct UpdateCallback: @unchecked Sendable {
    let function: @convention(c) (UnsafePointer<ocm_pedometer_data>?, ocm_status, UnsafeMutableRawPointer?) -> Void
    let userData: UnsafeMutableRawPointer?
}

private struct EventCallback: @unchecked Sendable {
    let function: @convention(c) (UnsafePointer<ocm_pedometer_event>?, ocm_status, UnsafeMutableRawPointer?) -> Void
    let userData: UnsafeMutableRawPointer?
}

private func handle(_ pointer: OpaquePointer?) -> PedometerHandle? {
    PedometerHandle.registry.object(for: UnsafeRawPointer(pointer))
}

private func notOpen(_ function: String) -> ocm_status {
    fail(OCM_STATUS_INVALID_HANDLE, "\(function): not an open pedometer")
}

/// On the engine thread: a failure that stopped the board, kept for `ocm_pedometer_error_message`
/// and `ocm_last_error_message` during the callback.
private func record(_ failure: MotionManagerError, in failures: FailureMessages) {
    failures.add(failure.message)
    LastError.set(failure.message)
}

@c @implementation
public func ocm_pedometer_open(_ boardPath: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ocm_status {
    guard let out else { return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_pedometer_open: out is NULL") }
    out.pointee = nil
    let pedometer = PedometerCore(board: boardPath.map { String(cString: $0) } ?? ManagerCore.defaultBoardPath)
    if let failure = pedometer.boardFailure { return fail(status(forLoading: failure), failure.description) }
    let handle = PedometerHandle(pedometer: pedometer)
    if let failure = pedometer.failure { handle.failures.add(failure.message) }  // could not come up: start says so again
    out.pointee = OpaquePointer(PedometerHandle.registry.register(handle))
    return OCM_STATUS_OK
}

@c @implementation
public func ocm_pedometer_close(_ pedometer: OpaquePointer?) {
    guard let handle = handle(pedometer) else { return }
    handle.pedometer.stopUpdates()
    handle.pedometer.stopEventUpdates()
    PedometerHandle.registry.close(UnsafeRawPointer(pedometer))
}

@c @implementation
public func ocm_pedometer_is_available(_ pedometer: OpaquePointer?, _ feature: ocm_pedometer_feature) -> Int32 {
    guard let core = handle(pedometer)?.pedometer else { return 0 }
    switch feature {
    case OCM_PEDOMETER_FLOOR_COUNTING: return core.isFloorCountingAvailable ? 1 : 0
    case OCM_PEDOMETER_STEP_COUNTING, OCM_PEDOMETER_DISTANCE, OCM_PEDOMETER_PACE, OCM_PEDOMETER_CADENCE, OCM_PEDOMETER_EVENT_TRACKING:
        return core.isStepCountingAvailable ? 1 : 0
    default: return 0
    }
}

@c @implementation
public func ocm_pedometer_start_updates(_ pedometer: OpaquePointer?, _ fromUnixNanoseconds: Int64,
                                        _ callback: (@convention(c) (UnsafePointer<ocm_pedometer_data>?, ocm_status, UnsafeMutableRawPointer?) -> Void)?,
                                        _ userData: UnsafeMutableRawPointer?) -> ocm_status {
    guard let handle = handle(pedometer) else { return notOpen("ocm_pedometer_start_updates") }
    let target = callback.map { UpdateCallback(function: $0, userData: userData) }
    let failures = handle.failures
    do throws(MotionManagerError) {
        try handle.pedometer.startUpdates(from: WallClock.engineTime(unixNanoseconds: fromUnixNanoseconds)) { _, feed in
            // On the engine thread.
            switch feed {
            case .update(let values):
                guard let target else { return }
                var data = pedometerData(values)
                target.function(&data, OCM_STATUS_OK, target.userData)
            case .failed(let failure):
                record(failure, in: failures)
                target?.function(nil, OCM_STATUS_DEVICE_ERROR, target?.userData)
            case .event: break
            }
        }
        return OCM_STATUS_OK
    } catch {
        return fail(status(for: error), error.message)
    }
}

@c @implementation
public func ocm_pedometer_stop_updates(_ pedometer: OpaquePointer?) -> ocm_status {
    guard let handle = handle(pedometer) else { return notOpen("ocm_pedometer_stop_updates") }
    handle.pedometer.stopUpdates()
    return OCM_STATUS_OK
}

@c @implementation
public func ocm_pedometer_copy_latest(_ pedometer: OpaquePointer?, _ out: UnsafeMutablePointer<ocm_pedometer_data>?) -> ocm_status {
    guard let handle = handle(pedometer) else { return notOpen("ocm_pedometer_copy_latest") }
    guard let out else { return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_pedometer_copy_latest: out is NULL") }
    guard let latest = handle.pedometer.latest else { return OCM_STATUS_NO_DATA }
    out.pointee = pedometerData(latest)
    return OCM_STATUS_OK
}

@c @implementation
public func ocm_pedometer_query(_ pedometer: OpaquePointer?, _ fromUnixNanoseconds: Int64, _ toUnixNanoseconds: Int64,
                                _ out: UnsafeMutablePointer<ocm_pedometer_data>?) -> ocm_status {
    guard let handle = handle(pedometer) else { return notOpen("ocm_pedometer_query") }
    guard let out else { return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_pedometer_query: out is NULL") }
    guard fromUnixNanoseconds <= toUnixNanoseconds else {
        return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_pedometer_query: from_unix_ns (\(fromUnixNanoseconds)) is after to_unix_ns "
                    + "(\(toUnixNanoseconds)): give the earlier time first.")
    }
    do throws(MotionManagerError) {
        out.pointee = pedometerData(try handle.pedometer.query(from: WallClock.engineTime(unixNanoseconds: fromUnixNanoseconds),
                                                                to: WallClock.engineTime(unixNanoseconds: toUnixNanoseconds)))
        return OCM_STATUS_OK
    } catch {
        return fail(status(for: error), error.message)
    }
}

@c @implementation
public func ocm_pedometer_start_event_updates(_ pedometer: OpaquePointer?,
                                              _ callback: (@convention(c) (UnsafePointer<ocm_pedometer_event>?, ocm_status, UnsafeMutableRawPointer?) -> Void)?,
                                              _ userData: UnsafeMutableRawPointer?) -> ocm_status {
    guard let handle = handle(pedometer) else { return notOpen("ocm_pedometer_start_event_updates") }
    guard let callback else { return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_pedometer_start_event_updates: callback is NULL") }
    let target = EventCallback(function: callback, userData: userData)
    let failures = handle.failures
    do throws(MotionManagerError) {
        try handle.pedometer.startEventUpdates { _, feed in
            switch feed {
            case .event(let event):
                var data = ocm_pedometer_event(date_unix_ns: WallClock.unixTime(engineNanoseconds: event.timeNanoseconds),
                                               type: event.kind == .pause ? OCM_PEDOMETER_EVENT_PAUSE : OCM_PEDOMETER_EVENT_RESUME)
                target.function(&data, OCM_STATUS_OK, target.userData)
            case .failed(let failure):
                record(failure, in: failures)
                target.function(nil, OCM_STATUS_DEVICE_ERROR, target.userData)
            case .update: break
            }
        }
        return OCM_STATUS_OK
    } catch {
        return fail(status(for: error), error.message)
    }
}

@c @implementation
public func ocm_pedometer_stop_event_updates(_ pedometer: OpaquePointer?) -> ocm_status {
    guard let handle = handle(pedometer) else { return notOpen("ocm_pedometer_stop_event_updates") }
    handle.pedometer.stopEventUpdates()
    return OCM_STATUS_OK
}

@c @implementation
public func ocm_pedometer_error_message(_ pedometer: OpaquePointer?) -> UnsafePointer<CChar>? {
    handle(pedometer)?.failures.latest
}

/// The C struct of `values`: dates on the wall clock, nil as NaN or `has_floors` 0.
private func pedometerData(_ values: PedometerValues) -> ocm_pedometer_data {
    ocm_pedometer_data(start_unix_ns: WallClock.unixTime(engineNanoseconds: values.startNanoseconds),
                       end_unix_ns: WallClock.unixTime(engineNanoseconds: values.endNanoseconds),
                       number_of_steps: Int64(values.numberOfSteps), distance_m: values.distanceMeters,
                       has_floors: values.floorsAscended == nil ? 0 : 1,
                       floors_ascended: Int32(clamping: values.floorsAscended ?? 0), floors_descended: Int32(clamping: values.floorsDescended ?? 0),
                       current_pace_s_per_m: values.currentPace ?? .nan, current_cadence_steps_per_s: values.currentCadence ?? .nan,
                       average_active_pace_s_per_m: values.averageActivePace ?? .nan)
}
