import Glibc
import MotionAlgorithms
import MotionEngine
import MotionManagerCore
import Locking

/// Publishes what one board computes to the broker: device motion at the configured rate,
/// pedometer updates and pause/resume events, activity transitions, altitude when the board has
/// a barometer, and raw samples when asked for (MQTTConfiguration). The board runs in this
/// process through MotionManagerCore (ManagerCore, PedometerCore, ActivityCore), exactly as the
/// Swift and C APIs run it; motiond calls this same class.
///
/// Topics are `<prefix>/<board-id>/<stream>`; `<prefix>/<board-id>/status` is a retained
/// "online" at every connect and the retained "offline" last will, and
/// `<prefix>/<board-id>/board` a retained JSON description (BoardDescriptionMessage).
package final class BoardPublisher: Sendable {
    package let connection: BoardConnection
    private let boardPath: String
    private let log: @Sendable (String) -> Void
    /// CLOCK_REALTIME − CLOCK_MONOTONIC when publishing started: every timestamp is moved by the
    /// same offset, so a wall-clock jump while publishing cannot reorder a stream.
    private let clockOffsetNanoseconds = WallClock.offsetNanoseconds
    private let sources = Lock(Sources())

    /// What runs the board in this process while publishing.
    private struct Sources {
        var manager: ManagerCore?
        var pedometer: PedometerCore?
        var activity: ActivityCore?
        var altitude: AltitudeTap?
    }

    /// Loads nothing yet: `start` brings the board up. `boardID` overrides the configuration's
    /// (default: the board file's name without `.board`). `log` gets one line per connection
    /// change or board failure (never a secret).
    package init(board boardPath: String, configuration: MQTTConfiguration, boardID: String? = nil,
                 log: @escaping @Sendable (String) -> Void) throws(MQTTClientError) {
        let id = boardID ?? configuration.boardID ?? Self.defaultID(boardPath)
        self.boardPath = boardPath
        self.log = log
        let description = BoardDescriptionMessage(boardID: id, boardPath: boardPath, configuration: configuration)
        connection = try BoardConnection(boardID: id, configuration: configuration, description: description.json, log: log)
    }

    package var boardID: String { connection.boardID }
    package var configuration: MQTTConfiguration { connection.configuration }

    /// "sim-walker" for "…/boards/sim-walker.board" (MQTT's wildcards and spaces become '-').
    static func defaultID(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let stem = name.hasSuffix(".board") ? String(name.dropLast(6)) : name
        return String(stem.map { "+# \t".contains($0) ? "-" : $0 })
    }

    /// Connects (in the background) and starts every enabled stream the board has. Returns one
    /// line per enabled stream the board cannot give (it is skipped); throws if the board file
    /// cannot be loaded, or no enabled stream could start (then it disconnects again).
    @discardableResult
    package func start() throws(MQTTPublisherError) -> [String] {
        let manager = ManagerCore(board: boardPath)
        if let error = manager.boardError { throw MQTTPublisherError(error.message) }
        do throws(MQTTClientError) { try connection.start() } catch { throw MQTTPublisherError(error.description) }
        // Give the first connection a moment, so the first samples are not counted lost; a
        // broker that is not there yet is not waited for (QoS 1 messages wait for it).
        let deadline = MQTTClock.monotonicSeconds() + 2
        while !connection.isConnected, MQTTClock.monotonicSeconds() < deadline { usleep(10_000) }
        var skipped: [String] = []
        sources.withLock { $0.manager = manager }
        for stream in MQTTStream.allCases where configuration.settings(stream).enabled {
            do throws(MotionManagerError) {
                try start(stream, manager: manager)
            } catch {
                skipped.append("\(stream.topicName): \(error.message)")
            }
        }
        if skipped.count == MQTTStream.allCases.filter({ configuration.settings($0).enabled }).count {
            stop(waitingUpTo: 0)
            throw MQTTPublisherError("no stream of \(boardPath) could start:\n  " + skipped.joined(separator: "\n  "))
        }
        return skipped
    }

    private func start(_ stream: MQTTStream, manager: ManagerCore) throws(MotionManagerError) {
        let settings = configuration.settings(stream)
        switch stream {
        case .deviceMotion, .accelerometer, .gyroscope, .magnetometer:
            let source: MotionStream = switch stream {
            case .accelerometer: .accelerometer
            case .gyroscope: .gyroscope
            case .magnetometer: .magnetometer
            default: .deviceMotion
            }
            manager.setUpdateInterval(source, 1 / settings.rateHertz)
            try manager.start(source) { [weak self] _, event in
                switch event {
                case .sample(let sample): self?.publish(sample, as: stream)
                case .failed(let failure): self?.log("\(self?.boardID ?? ""): the board stopped: \(failure.message)")
                }
            }
        case .pedometer, .pedometerEvent:
            let pedometer = sources.withLock { sources in
                if sources.pedometer == nil { sources.pedometer = PedometerCore(board: boardPath) }
                return sources.pedometer!
            }
            let deliver: @Sendable (PedometerSubscription, PedometerFeed) -> Void = { [weak self] _, feed in
                switch feed {
                case .update(let values): self?.publish(values)
                case .event(let event): self?.publish(event)
                case .failed(let failure): self?.log("\(self?.boardID ?? ""): the pedometer stopped: \(failure.message)")
                }
            }
            if stream == .pedometer {
                try pedometer.startUpdates(from: WallClock.engineNanoseconds, deliver: deliver)
            } else {
                try pedometer.startEventUpdates(deliver: deliver)
            }
        case .activity:
            let activity = ActivityCore(board: boardPath)
            sources.withLock { $0.activity = activity }
            try activity.startUpdates { [weak self] _, feed in
                switch feed {
                case .update(let update): self?.publish(update)
                case .failed(let failure): self?.log("\(self?.boardID ?? ""): activity stopped: \(failure.message)")
                }
            }
        case .altitude:
            guard let board = manager.board, board.channels.contains(.barometer) else {
                throw MotionManagerError(.notAvailable, "the board \(boardPath) has no barometer, so no altitude is published")
            }
            let tap = AltitudeTap(board: board, intervalNanoseconds: Int64(1e9 / settings.rateHertz)) { [weak self] time, relative, pressure in
                self?.emit(.altitude, time, .altitude(relativeAltitudeMeters: relative, pressureKilopascals: pressure))
            }
            try tap.start()
            sources.withLock { $0.altitude = tap }
        }
    }

    /// Stops every stream, publishes the retained "offline" itself (a clean stop sends no will),
    /// waits up to `seconds` for QoS 1 messages to be acknowledged and disconnects. Returns how
    /// many QoS 1 messages were still unacknowledged (lost with this process).
    @discardableResult
    package func stop(waitingUpTo seconds: Double = 2) -> Int {
        let (manager, pedometer, activity, altitude) = sources.withLock { sources in
            defer { (sources.manager, sources.pedometer, sources.activity, sources.altitude) = (nil, nil, nil, nil) }
            return (sources.manager, sources.pedometer, sources.activity, sources.altitude)
        }
        for stream in MotionStream.allCases { manager?.stop(stream) }
        pedometer?.stopUpdates()
        pedometer?.stopEventUpdates()
        activity?.stopUpdates()
        altitude?.stop()
        return connection.stop(waitingUpTo: seconds)
    }

    package var isConnected: Bool { connection.isConnected }
    package var counts: ConnectionCounts { connection.counts }

    // MARK: Publishing (engine thread)

    private func publish(_ sample: MotionSample, as stream: MQTTStream) {
        if let motion = sample.deviceMotionValues {
            emit(stream, motion.timestampNanoseconds, .deviceMotion(DeviceMotionFields(motion)))
        } else {
            let vector: (x: Double, y: Double, z: Double) =
                stream == .accelerometer ? sample.coreMotionAcceleration : (sample.vector.x.doubleValue, sample.vector.y.doubleValue, sample.vector.z.doubleValue)
            emit(stream, sample.timestampNanoseconds, .vector(x: Float(vector.x), y: Float(vector.y), z: Float(vector.z)))
        }
    }

    private func publish(_ values: PedometerValues) {
        emit(.pedometer, values.endNanoseconds, .pedometer(PedometerFields(values, offset: clockOffsetNanoseconds)))
    }

    private func publish(_ event: PedometerEvent) {
        emit(.pedometerEvent, event.deliveredNanoseconds,
             .pedometerEvent(isResume: event.kind == .resume, timeUnixNanoseconds: event.timeNanoseconds + clockOffsetNanoseconds))
    }

    private func publish(_ update: MotionActivityUpdate) {
        emit(.activity, update.deliveredNanoseconds,
             .activity(ActivityFields(flags: update.activity.flags.rawValue, confidence: update.activity.confidence.rawValue,
                                      startUnixNanoseconds: update.activity.startNanoseconds + clockOffsetNanoseconds)))
    }

    /// Publishes one message stamped `engineNanoseconds` (CLOCK_MONOTONIC).
    private func emit(_ stream: MQTTStream, _ engineNanoseconds: Int64, _ fields: MotionMessage.Fields) {
        connection.emit(stream, unixNanoseconds: engineNanoseconds + clockOffsetNanoseconds, fields)
    }
}

/// A board could not be published: the board file, the broker settings or the client.
package struct MQTTPublisherError: Error, Sendable, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
