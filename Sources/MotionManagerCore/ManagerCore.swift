import Geomagnetism
import Glibc
import MotionAlgorithms
package import MotionDaemonClient
import MotionDaemonProtocol
package import MotionEngine
import Locking

/// What a motion manager is, without Core Motion's classes: a board, the update interval of each
/// of the four streams, their running subscriptions, the frame and declination of device motion,
/// the latest sample of each stream and the updates dropped for slow handlers. `CMMotionManager`
/// (the Swift API) and `ocm_motion_manager` (the C API) both wrap one; neither the core nor the C
/// library needs Foundation.
///
/// Thread-safe: every member may be used from any thread (Sendable; shared state sits in a
/// Mutex). Its deinit stops every stream it started.
package final class ManagerCore: DaemonOrBoardCore, Sendable {
    /// The board file, resolved (absolute); motiond's board file when the daemon serves it.
    package let boardPath: String
    /// The board's engine; nil when motiond serves the board (`daemon`) or the board file could
    /// not be loaded (`boardError`).
    package let board: LiveBoard?
    /// The connection to motiond when it serves this manager (`DaemonBackend`'s rule).
    package let daemon: DaemonClient?
    /// Where the samples come from.
    /// Why the board file could not be loaded (every sensor is then unavailable).
    package let boardError: MotionManagerError?
    /// The loader's own error, for the C API's status codes.
    package let boardFailure: EngineError?

    /// The shortest update interval in seconds: live streams run at up to 100 Hz.
    package static let minimumUpdateInterval = 0.01

    package let store = PullStore()
    private let state = Lock(State())

    private struct State {
        var intervals: [Double] = Array(repeating: ManagerCore.minimumUpdateInterval, count: MotionStream.allCases.count)
        var subscriptions: [EngineSubscription?] = Array(repeating: nil, count: MotionStream.allCases.count)
        var frame: ReferenceFrames = .xArbitraryZVertical
        /// Set by the program (nil: from the system's location, `SystemLocation`).
        var declination: Double?
    }

    /// A manager of the board file at `board` (resolved as `LiveBoard.resolve` does), or of the
    /// system's board when nil: motiond's when it runs, else `SystemBoard`'s in-process
    /// (`DaemonBackend` has the rule; `daemonSocket` overrides `OPENCOREMOTION_SOCKET`). Loading
    /// only reads the file; the chips are brought up by the first `start`.
    package init(board: String?, daemonSocket: String? = nil) {
        (daemon, self.board, boardPath, boardError, boardFailure) = DaemonBackend.source(board: board, daemonSocket: daemonSocket, name: "motion manager")
    }

    deinit {
        for stream in MotionStream.allCases { stop(stream) }
        daemon?.close()
    }

    // MARK: Availability

    package func isAvailable(_ stream: MotionStream) -> Bool {
        if let daemon { return DaemonStreams.isAvailable(stream, sensors: daemon.welcome.sensors) }
        guard let board else { return false }
        if let channel = stream.channel { return board.channels.contains(channel) }
        return board.channels.isSuperset(of: [.accelerometer, .gyroscope])
    }

    package func isActive(_ stream: MotionStream) -> Bool { state.withLock { $0.subscriptions[stream.rawValue] != nil } }

    /// The frames device motion can use on this board: all four with a magnetometer,
    /// `xArbitraryZVertical` without, none without an accelerometer and a gyroscope.
    package var availableReferenceFrames: ReferenceFrames {
        guard isAvailable(.deviceMotion) else { return [] }
        let hasMagnetometer = daemon.map { $0.welcome.sensors.contains(.magnetometer) } ?? board?.channels.contains(.magnetometer) ?? false
        let frames = AttitudeReferenceFrame.available(hasMagnetometer: hasMagnetometer)
        return frames.reduce(into: []) { $0.insert(ReferenceFrames($1)) }
    }

    /// The frame of the device-motion updates started last (`xArbitraryZVertical` before any).
    package var referenceFrame: ReferenceFrames { state.withLock { $0.frame } }

    /// Degrees east of true north of magnetic north, for `xTrueNorthZVertical` streams started
    /// afterwards (not finite: back to the system's location). Until set, it comes from
    /// `/etc/opencoremotion/location` by the World Magnetic Model (`SystemLocation`); reads 0
    /// then.
    package var magneticDeclination: Double {
        get { state.withLock { $0.declination ?? 0 } }
        set { state.withLock { $0.declination = newValue.isFinite ? newValue : nil } }
    }

    /// The declination a true-north stream starting now uses: the program's, else the system's
    /// location's by the World Magnetic Model, else Core Motion's `trueNorthNotAvailable` with
    /// what to configure.
    package func trueNorthDeclination(location: () throws(EngineError) -> SystemLocation? = { () throws(EngineError) in try SystemLocation.load() },
                                      unixSeconds: Int = Int(time(nil))) throws(MotionManagerError) -> Double {
        if let declination = state.withLock({ $0.declination }) { return declination }
        let file = SystemLocation.configurationFile()
        let found: SystemLocation?
        do throws(EngineError) {
            found = try location()
        } catch {
            throw MotionManagerError(.trueNorthNotAvailable, "True north needs where the board is, and \(error)")
        }
        guard let found else {
            throw MotionManagerError(.trueNorthNotAvailable, "True north needs where the board is: write \"latitude = DEGREES\" and \"longitude = DEGREES\" "
                                     + "(north and east) to \(file), or set magneticDeclination; or use xMagneticNorthZVertical.")
        }
        do throws(GeomagneticError) {
            return try found.declination(atUnixSeconds: unixSeconds)
        } catch {
            throw MotionManagerError(.trueNorthNotAvailable, "True north from \(file): the World Magnetic Model gives no declination today (\(error)); "
                                     + "set magneticDeclination instead.")
        }
    }

    // MARK: Intervals

    /// A stream's interval in seconds.
    package func updateInterval(_ stream: MotionStream) -> Double { state.withLock { $0.intervals[stream.rawValue] } }

    /// Sets a stream's interval in seconds, at least `minimumUpdateInterval` (NaN is ignored);
    /// a running stream changes at the engine's next step.
    package func setUpdateInterval(_ stream: MotionStream, _ seconds: Double) {
        guard !seconds.isNaN else { return }
        let interval = max(Self.minimumUpdateInterval, seconds)
        let running = state.withLock { state in
            state.intervals[stream.rawValue] = interval
            return state.subscriptions[stream.rawValue]
        }
        if let running, let daemon { try? DaemonStreams.subscribe(running, on: daemon, interval: interval, store: store) }
        if let running, let board { board.setInterval(running, nanoseconds: Self.nanoseconds(interval)) }
    }

    static func nanoseconds(_ seconds: Double) -> Int64 {
        Int64(min(seconds, 1e9) * 1e9)
    }

    // MARK: Starting and stopping

    /// Starts `stream` (replacing a running one): samples go to the pull store and, if given,
    /// to `deliver` on the engine thread. Returns once the engine runs it; throws when the board
    /// lacks the sensor or the frame, or could not be brought up.
    package func start(_ stream: MotionStream, frame: ReferenceFrames = .xArbitraryZVertical,
                       deliver: (@Sendable (EngineSubscription, EngineEvent) -> Void)?) throws(MotionManagerError) {
        // The same checks either way: the daemon's sensors, or the board file's chips.
        let board: LiveBoard?
        if let daemon {
            try DaemonStreams.checkAvailable(stream, frame: frame, on: daemon, isAvailable: isAvailable(stream))
            board = nil
        } else {
            board = try checkAvailable(stream, frame: frame)
        }
        let store = self.store
        let interval = state.withLock { $0.intervals[stream.rawValue] }
        let declination = stream == .deviceMotion && frame.engineFrame == .xTrueNorthZVertical ? try trueNorthDeclination() : 0
        let subscription = EngineSubscription(stream: stream, frame: frame.engineFrame ?? .xArbitraryZVertical, declination: declination) {
            subscription, event in
            if case .sample(let sample) = event { store.keep(sample) }
            deliver?(subscription, event)
        }
        let previous = state.withLock { state in
            defer {
                state.subscriptions[stream.rawValue] = subscription
                if stream == .deviceMotion { state.frame = frame }
            }
            return state.subscriptions[stream.rawValue]
        }
        do {
            if let board {
                if let previous { board.remove(previous) }
                try board.add(subscription, intervalNanoseconds: Self.nanoseconds(interval))
            } else if let daemon {
                previous?.cancel()  // the daemon's stream is re-subscribed with the new handler
                try DaemonStreams.subscribe(subscription, on: daemon, interval: interval, store: store)
            }
        } catch {
            state.withLock { state in
                if state.subscriptions[stream.rawValue] === subscription { state.subscriptions[stream.rawValue] = nil }
            }
            throw error
        }
    }

    /// Stops `stream`: once this returns, nothing more of it is delivered (push handlers
    /// already queued are skipped). The pull store keeps its last sample.
    package func stop(_ stream: MotionStream) {
        let running = state.withLock { state in
            defer { state.subscriptions[stream.rawValue] = nil }
            return state.subscriptions[stream.rawValue]
        }
        if let running, let board { board.remove(running) }
        if let running, let daemon {
            running.cancel()
            daemon.unsubscribe(DaemonStreams.wireStream(stream))
        }
    }

    /// The board, or the error Core Motion reports when it cannot give `stream` in `frame`.
    private func checkAvailable(_ stream: MotionStream, frame: ReferenceFrames) throws(MotionManagerError) -> LiveBoard {
        guard let board else { throw boardError ?? MotionManagerError(.notAvailable, "The board file \(boardPath) could not be loaded.") }
        let named = "The board file \(board.path) (\"\(board.description.name)\")"
        let chips = "its chips are \(BoardSensors.chipList(board.description))"
        if let channel = stream.channel {
            guard board.channels.contains(channel) else {
                throw MotionManagerError(.notAvailable, "\(named) has no \(stream.name): \(chips). Check `is\(Self.propertyStem(stream))Available` "
                                         + "before starting, or use a board file with a chip that has one (driver = \(BoardSensors.drivers(giving: channel))).")
            }
            return board
        }
        let missing = [SensorChannel.accelerometer, .gyroscope].filter { !board.channels.contains($0) }
        guard missing.isEmpty else {
            let names = missing.map { $0 == .accelerometer ? "accelerometer" : "gyroscope" }.joined(separator: " and ")
            throw MotionManagerError(.notAvailable, "\(named) has no \(names), which device motion needs: \(chips). "
                                     + "Check `isDeviceMotionAvailable` before starting, or use a board file with an IMU (driver = "
                                     + "\(BoardSensors.drivers(giving: .gyroscope))).")
        }
        guard let engineFrame = frame.engineFrame else {
            throw MotionManagerError(.invalidParameter, "Device motion takes exactly one reference frame; got \(frame.names).")
        }
        guard !engineFrame.usesMagnetometer || board.channels.contains(.magnetometer) else {
            throw MotionManagerError(.notAvailable, "\(named) has no magnetometer, which the reference frame \(frame.names) needs: \(chips). "
                                     + "Use .xArbitraryZVertical (see `availableAttitudeReferenceFrames`), or a board file with a magnetometer "
                                     + "(driver = \(BoardSensors.drivers(giving: .magnetometer))).")
        }
        return board
    }

    private static func propertyStem(_ stream: MotionStream) -> String {
        switch stream {
        case .accelerometer: "Accelerometer"
        case .gyroscope: "Gyro"
        case .magnetometer: "Magnetometer"
        case .deviceMotion: "DeviceMotion"
        }
    }
}

/// The latest sample of each stream (what the pull properties and `ocm_motion_manager_copy_latest`
/// read) and the updates dropped for slow handlers. Written by the engine thread (and, for the
/// drops, by whoever hands updates to a queue), read by any.
package final class PullStore: Sendable {
    private struct Contents {
        var latest: [MotionSample?] = Array(repeating: nil, count: MotionStream.allCases.count)
        var dropped: [Int] = Array(repeating: 0, count: MotionStream.allCases.count)
    }

    private let contents = Lock(Contents())

    func keep(_ sample: MotionSample) {
        contents.withLock { $0.latest[sample.stream.rawValue] = sample }
    }

    package func latest(_ stream: MotionStream) -> MotionSample? {
        contents.withLock { $0.latest[stream.rawValue] }
    }

    package func countDrop(_ stream: MotionStream) {
        contents.withLock { $0.dropped[stream.rawValue] += 1 }
    }

    /// Counts `count` updates lost on the way from motiond (its drops, a restart's gap).
    func countDrops(_ stream: MotionStream, _ count: Int) {
        guard count > 0 else { return }
        contents.withLock { $0.dropped[stream.rawValue] += count }
    }

    package func dropped(_ stream: MotionStream) -> Int {
        contents.withLock { $0.dropped[stream.rawValue] }
    }
}
