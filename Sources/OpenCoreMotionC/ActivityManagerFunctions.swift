public import COpenCoreMotion
import MotionAlgorithms
import MotionEngine
import MotionManagerCore

/// What an `ocm_activity_manager *` points to: the activity manager's core (MotionManagerCore,
/// the same one `CMMotionActivityManager` wraps) and the failure messages handed out for it,
/// which live until the manager is closed (as the header promises).
final class ActivityManagerHandle {
    let manager: ActivityCore
    let failures = FailureMessages()

    init(manager: ActivityCore) { self.manager = manager }

    static let registry = HandleRegistry<ActivityManagerHandle>()
}

/// A C callback and its user data, called on the engine thread.
///
/// `@unchecked Sendable` for the reason `EngineThreadCallback` (MotionManagerFunctions.swift)
/// is: immutable fields, a plain C function, and a user pointer this library only hands back;
/// opencoremotion.h tells the caller that callbacks run on the engine thread.
private struct ActivityCallback: @unchecked Sendable {
    let function: @convention(c) (UnsafePointer<ocm_motion_activity>?, ocm_status, UnsafeMutableRawPointer?) -> Void
    let userData: UnsafeMutableRawPointer?
}

private func handle(_ pointer: OpaquePointer?) -> ActivityManagerHandle? {
    ActivityManagerHandle.registry.object(for: UnsafeRawPointer(pointer))
}

private func notOpen(_ function: String) -> ocm_status {
    fail(OCM_STATUS_INVALID_HANDLE, "\(function): not an open activity manager")
}

@c @implementation
public func ocm_activity_manager_open(_ boardPath: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ocm_status {
    guard let out else { return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_activity_manager_open: out is NULL") }
    out.pointee = nil
    let manager = ActivityCore(board: boardPath.map { String(cString: $0) } ?? ManagerCore.defaultBoardPath)
    if let failure = manager.boardFailure { return fail(status(forLoading: failure), failure.description) }
    let handle = ActivityManagerHandle(manager: manager)
    if let failure = manager.failure { handle.failures.add(failure.message) }  // could not come up: start says so again
    out.pointee = OpaquePointer(ActivityManagerHandle.registry.register(handle))
    return OCM_STATUS_OK
}

@c @implementation
public func ocm_activity_manager_close(_ manager: OpaquePointer?) {
    guard let handle = handle(manager) else { return }
    handle.manager.stopUpdates()
    ActivityManagerHandle.registry.close(UnsafeRawPointer(manager))
}

@c @implementation
public func ocm_activity_manager_is_available(_ manager: OpaquePointer?) -> Int32 {
    handle(manager)?.manager.isAvailable == true ? 1 : 0
}

@c @implementation
public func ocm_activity_manager_start_updates(_ manager: OpaquePointer?,
                                               _ callback: (@convention(c) (UnsafePointer<ocm_motion_activity>?, ocm_status, UnsafeMutableRawPointer?) -> Void)?,
                                               _ userData: UnsafeMutableRawPointer?) -> ocm_status {
    guard let handle = handle(manager) else { return notOpen("ocm_activity_manager_start_updates") }
    let target = callback.map { ActivityCallback(function: $0, userData: userData) }
    let failures = handle.failures
    do throws(MotionManagerError) {
        try handle.manager.startUpdates { _, feed in
            // On the engine thread.
            switch feed {
            case .update(let update):
                guard let target else { return }
                var activity = motionActivity(update.activity, timestampNanoseconds: update.deliveredNanoseconds)
                target.function(&activity, OCM_STATUS_OK, target.userData)
            case .failed(let failure):
                failures.add(failure.message)
                LastError.set(failure.message)
                target?.function(nil, OCM_STATUS_DEVICE_ERROR, target?.userData)
            }
        }
        return OCM_STATUS_OK
    } catch {
        return fail(status(for: error), error.message)
    }
}

@c @implementation
public func ocm_activity_manager_stop_updates(_ manager: OpaquePointer?) -> ocm_status {
    guard let handle = handle(manager) else { return notOpen("ocm_activity_manager_stop_updates") }
    handle.manager.stopUpdates()
    return OCM_STATUS_OK
}

@c @implementation
public func ocm_activity_manager_copy_latest(_ manager: OpaquePointer?, _ out: UnsafeMutablePointer<ocm_motion_activity>?) -> ocm_status {
    guard let handle = handle(manager) else { return notOpen("ocm_activity_manager_copy_latest") }
    guard let out else { return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_activity_manager_copy_latest: out is NULL") }
    guard let latest = handle.manager.latest else { return OCM_STATUS_NO_DATA }
    out.pointee = motionActivity(latest.activity, timestampNanoseconds: latest.deliveredNanoseconds)
    return OCM_STATUS_OK
}

@c @implementation
public func ocm_activity_manager_query(_ manager: OpaquePointer?, _ fromUnixNanoseconds: Int64, _ toUnixNanoseconds: Int64,
                                       _ out: UnsafeMutablePointer<ocm_motion_activity>?, _ capacity: Int,
                                       _ count: UnsafeMutablePointer<Int>?) -> ocm_status {
    guard let handle = handle(manager) else { return notOpen("ocm_activity_manager_query") }
    guard let count else { return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_activity_manager_query: count is NULL") }
    guard out != nil || capacity == 0 else {
        return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_activity_manager_query: out is NULL but capacity is \(capacity): pass an array, or 0 to count only")
    }
    guard fromUnixNanoseconds <= toUnixNanoseconds else {
        return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_activity_manager_query: from_unix_ns (\(fromUnixNanoseconds)) is after to_unix_ns "
                    + "(\(toUnixNanoseconds)): give the earlier time first.")
    }
    do throws(MotionManagerError) {
        let records = try handle.manager.query(from: WallClock.engineTime(unixNanoseconds: fromUnixNanoseconds),
                                               to: WallClock.engineTime(unixNanoseconds: toUnixNanoseconds))
        count.pointee = records.count
        for (index, record) in records.prefix(capacity).enumerated() {
            out?[index] = motionActivity(record.activity, timestampNanoseconds: record.activity.startNanoseconds)
        }
        return OCM_STATUS_OK
    } catch {
        return fail(status(for: error), error.message)
    }
}

@c @implementation
public func ocm_activity_manager_error_message(_ manager: OpaquePointer?) -> UnsafePointer<CChar>? {
    handle(manager)?.failures.latest
}

/// The C struct of `activity`: its start on the wall clock, the flags as 0/1.
private func motionActivity(_ activity: MotionActivityEstimate, timestampNanoseconds: Int64) -> ocm_motion_activity {
    let flags = activity.flags
    func bit(_ flag: MotionActivityFlags) -> Int32 { flags.contains(flag) ? 1 : 0 }
    return ocm_motion_activity(start_unix_ns: WallClock.unixTime(engineNanoseconds: activity.startNanoseconds), timestamp_ns: timestampNanoseconds,
                               confidence: ocm_activity_confidence(rawValue: UInt32(activity.confidence.rawValue)),
                               stationary: bit(.stationary), walking: bit(.walking), running: bit(.running),
                               automotive: bit(.automotive), cycling: bit(.cycling), unknown: bit(.unknown))
}
