package import MotionDaemonClient
package import MotionDaemonProtocol

/// What `CMSensorRecorder` is without Foundation: a connection to motiond, which records the
/// accelerometer at 50 Hz into its 3-day history. There is no in-process recorder: Core
/// Motion's needs the always-on coprocessor, and here that is the daemon; without it every
/// request fails with `notAvailable` saying so.
package final class SensorRecorderCore: Sendable {
    package let daemon: DaemonClient?
    /// Why there is no daemon (nil when connected).
    package let unavailableError: MotionManagerError?

    /// Core Motion's limit for one `recordAccelerometer(forDuration:)`, and motiond's for one query: 12 h.
    package static let longestDuration = 43_200.0

    package init(daemonSocket: String? = nil) {
        let advice = "CMSensorRecorder needs motiond (Core Motion's recorder needs the motion coprocessor): start it (systemctl start motiond), "
            + "or point OPENCOREMOTION_SOCKET at its --socket"
        if DaemonClient.isDisabledByEnvironment {
            (daemon, unavailableError) = (nil, MotionManagerError(.notAvailable, "OPENCOREMOTION_NO_DAEMON is set, so there is no sensor recorder. \(advice)."))
            return
        }
        do {
            (daemon, unavailableError) = (try DaemonClient(path: daemonSocket ?? DaemonClient.socketPath, name: "sensor recorder"), nil)
        } catch {
            (daemon, unavailableError) = (nil, MotionManagerError(.notAvailable, "\(error.message). \(advice)."))
        }
    }

    deinit { daemon?.close() }

    /// The daemon runs and its board has an accelerometer.
    package var isAvailable: Bool { daemon?.welcome.sensors.contains(.accelerometer) ?? false }

    /// What motiond grants this user (`authorized` without a daemon: nothing to ask).
    package var authorization: WireAuthorization { daemon?.welcome.authorization ?? .authorized }

    /// Asks motiond to record for `duration` s (0 < duration ≤ 12 h); the wall-clock second it
    /// records until.
    package func record(duration: Double) throws(MotionManagerError) -> Double {
        let daemon = try connected(doing: "Recording the accelerometer")
        guard duration > 0, duration <= Self.longestDuration else {
            throw MotionManagerError(.invalidParameter, "recordAccelerometer(forDuration: \(duration)): the duration must be more than 0 s and at most "
                                     + "12 h (43 200 s), as in Core Motion; call it again before it ends to record longer.")
        }
        do {
            return try daemon.recordAccelerometer(duration: duration)
        } catch {
            throw DaemonBackend.error(error, doing: "Recording the accelerometer with motiond")
        }
    }

    /// The recorded samples in [from, to) (wall-clock s), oldest first, asked in parts of at
    /// most 12 h (motiond's limit per query).
    package func accelerometer(from: Double, to: Double) throws(MotionManagerError) -> [RecordedSample] {
        let daemon = try connected(doing: "Reading recorded accelerometer data")
        guard from <= to else {
            throw MotionManagerError(.invalidParameter, "accelerometerData(from:to:): the start is after the end; give the earlier date first.")
        }
        var samples: [RecordedSample] = []
        var start = from
        while start < to {
            let end = min(to, start + Self.longestDuration)
            do {
                samples += try daemon.accelerometer(from: start, to: end)
            } catch {
                throw DaemonBackend.error(error, doing: "Reading recorded accelerometer data from motiond")
            }
            start = end
        }
        return samples
    }

    private func connected(doing what: String) throws(MotionManagerError) -> DaemonClient {
        guard let daemon else { throw unavailableError ?? MotionManagerError(.notAvailable, "\(what): no motiond") }
        if let error = DaemonBackend.authorizationError(daemon, doing: what) { throw error }
        return daemon
    }
}
