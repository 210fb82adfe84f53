public import Foundation
package import MotionManagerCore
import Locking

/// Core Motion's `CMSensorRecorder`: the accelerometer recorded at 50 Hz by motiond into its
/// 3-day history, read back by time range. Recording needs motiond (Core Motion's needs the
/// motion coprocessor, which it is here): without a daemon, `isAccelerometerRecordingAvailable()`
/// is false and requests fail with `CMError.notAvailable` saying how to start it.
///
/// Core Motion's two methods do not throw: they keep the failure in `lastError`. The throwing
/// `startRecordingAccelerometer(forDuration:)` and `recordedAccelerometerData(from:to:)` say
/// what went wrong directly.
///
/// Thread-safe (Sendable); the connection to motiond reconnects by itself after a restart.
public final class CMSensorRecorder: Sendable, CustomStringConvertible {
    package let core: SensorRecorderCore
    private let failure = Lock<CMError?>(nil)

    /// A recorder using motiond at `daemonSocket` (default `OPENCOREMOTION_SOCKET`, else
    /// /run/opencoremotion/motiond.sock).
    public init(daemonSocket: String? = nil) {
        core = SensorRecorderCore(daemonSocket: daemonSocket)
    }

    public var description: String {
        core.daemon.map { "CMSensorRecorder(via motiond at \($0.path), board \"\($0.welcome.boardName)\")" } ?? "CMSensorRecorder(no motiond)"
    }

    /// Whether motiond runs and its board has an accelerometer.
    public class func isAccelerometerRecordingAvailable() -> Bool { CMSensorRecorder().core.isAvailable }

    /// What motiond grants this user (`.denied` outside group motion, `.restricted` by policy).
    public class func authorizationStatus() -> CMAuthorizationStatus { CMAuthorizationStatus.ofSystemBoard }

    /// The failure of the last `recordAccelerometer` or `accelerometerData` call (nil after a success).
    public var lastError: CMError? { failure.withLock { $0 } }

    // MARK: Core Motion's methods

    /// Records the accelerometer for `duration` s from now (at most 12 h a call; call again to
    /// extend). A failure is kept in `lastError`.
    public func recordAccelerometer(forDuration duration: TimeInterval) {
        _ = keep { () throws(CMError) in try startRecordingAccelerometer(forDuration: duration) }
    }

    /// The recorded samples from `fromDate` to `toDate`, oldest first; nil on failure (`lastError`).
    public func accelerometerData(from fromDate: Date, to toDate: Date) -> CMSensorDataList? {
        keep { () throws(CMError) in CMSensorDataList(try recordedAccelerometerData(from: fromDate, to: toDate)) }
    }

    // MARK: Throwing forms

    /// Records for `duration` s (0 < duration ≤ 12 h); returns until when motiond records.
    @discardableResult
    public func startRecordingAccelerometer(forDuration duration: TimeInterval) throws(CMError) -> Date {
        do {
            return Date(timeIntervalSince1970: try core.record(duration: duration))
        } catch {
            throw CMError(error)
        }
    }

    /// The recorded samples from `fromDate` to `toDate`, oldest first, as an array (Core Motion's
    /// `CMSensorDataList` is only fast-enumerable).
    public func recordedAccelerometerData(from fromDate: Date, to toDate: Date) throws(CMError) -> [CMRecordedAccelerometerData] {
        do {
            let samples = try core.accelerometer(from: fromDate.timeIntervalSince1970, to: toDate.timeIntervalSince1970)
            return samples.map(CMRecordedAccelerometerData.init)
        } catch {
            throw CMError(error)
        }
    }

    private func keep<T>(_ body: () throws(CMError) -> T) -> T? {
        do {
            let value = try body()
            setError(nil)
            return value
        } catch {
            setError(error)
            return nil
        }
    }

    private func setError(_ error: CMError?) { failure.withLock { $0 = error } }
}
