import FixedPoint
import Glibc
import MotionDaemonClient
import MotionDaemonProtocol
import MotionEngine

/// A motion manager's four streams on motiond: availability from the daemon's sensors, the
/// same checks and messages as on a board in-process, and the subscription whose handler feeds
/// the engine's samples to the manager's `EngineSubscription`.
enum DaemonStreams {
    static func wireStream(_ stream: MotionStream) -> WireStream {
        switch stream {
        case .accelerometer: .accelerometer
        case .gyroscope: .gyroscope
        case .magnetometer: .magnetometer
        case .deviceMotion: .deviceMotion
        }
    }

    static func isAvailable(_ stream: MotionStream, sensors: WireSensors) -> Bool {
        switch stream {
        case .accelerometer: sensors.contains(.accelerometer)
        case .gyroscope: sensors.contains(.gyroscope)
        case .magnetometer: sensors.contains(.magnetometer)
        case .deviceMotion: sensors.isSuperset(of: [.accelerometer, .gyroscope])
        }
    }

    /// Throws what keeps `stream` in `frame` from starting on the daemon's board.
    static func checkAvailable(_ stream: MotionStream, frame: ReferenceFrames, on daemon: DaemonClient,
                               isAvailable: Bool) throws(MotionManagerError) {
        let what = "Starting \(stream.name) updates"
        if let error = DaemonBackend.authorizationError(daemon, doing: what) { throw error }
        let board = "motiond's board \"\(daemon.welcome.boardName)\" (at \(daemon.path))"
        guard isAvailable else {
            throw MotionManagerError(.notAvailable, "\(board) has no \(stream == .deviceMotion ? "accelerometer and gyroscope" : stream.name). "
                                     + "Check availability before starting, or run motiond with a board that has one.")
        }
        guard stream == .deviceMotion else { return }
        guard let engineFrame = frame.engineFrame else {
            throw MotionManagerError(.invalidParameter, "Device motion takes exactly one reference frame; got \(frame.names).")
        }
        guard !engineFrame.usesMagnetometer || daemon.welcome.sensors.contains(.magnetometer) else {
            throw MotionManagerError(.notAvailable, "\(board) has no magnetometer, which the reference frame \(frame.names) needs. "
                                     + "Use .xArbitraryZVertical (see `availableAttitudeReferenceFrames`).")
        }
    }

    /// A magnetic-north device-motion sample in the true-north frame, `declination` degrees east:
    /// the attitude turned by −declination about the vertical (x north, y west, z up), as
    /// `DeviceMotionEstimator` turns its own, and the heading by +declination.
    static func turnedToTrueNorth(_ sample: MotionSample, declination: Double) -> MotionSample {
        guard case .deviceMotion(var motion, _) = sample else { return sample }
        let half = -declination * Double.pi / 360
        motion.attitude = Quaternion(w: Q2_30(cos(half)), x: .zero, y: .zero, z: Q2_30(sin(half))) * motion.attitude
        var heading = (motion.heading.doubleValue + declination).truncatingRemainder(dividingBy: 360)
        if heading < 0 { heading += 360 }
        motion.heading = Q16_16(heading)
        return .deviceMotion(motion, .xTrueNorthZVertical)
    }

    /// Subscribes `subscription` at `interval` (s). Samples arrive as the engine's; the daemon's
    /// drop notices and a restart's gap (gap ÷ interval updates) are counted as dropped in
    /// `store`, so a break is never silent; a stream the daemon ends delivers `.failed`.
    static func subscribe(_ subscription: EngineSubscription, on daemon: DaemonClient, interval: Double, store: PullStore) throws(MotionManagerError) {
        let stream = subscription.stream
        // True north: the daemon's magnetic north turned by this manager's declination (the
        // program's, or the system's location's: `ManagerCore.trueNorthDeclination`).
        let trueNorth = subscription.frame == .xTrueNorthZVertical
        let wireFrame = trueNorth ? AttitudeReferenceFrame.xMagneticNorthZVertical : subscription.frame
        do {
            try daemon.subscribe(wireStream(stream), interval: interval, frame: UInt8(ReferenceFrames(wireFrame).rawValue)) { delivery in
                switch delivery {
                case .samples(let batch):
                    for sample in DaemonSamples.motionSamples(batch) {
                        subscription.deliver(.sample(trueNorth ? turnedToTrueNorth(sample, declination: subscription.declination) : sample))
                    }
                case .dropped(let count, _):
                    store.countDrops(stream, Int(clamping: count))
                case .interrupted, .batch, .droppedBatches:
                    break
                case .resumed(let gap):
                    store.countDrops(stream, Int((gap / interval).rounded(.down)))
                case .ended(let error):
                    subscription.deliver(.failed(DaemonBackend.error(error, doing: "\(stream.name) updates from motiond")))
                }
            }
        } catch {
            throw DaemonBackend.error(error, doing: "Starting \(stream.name) updates from motiond")
        }
    }
}
