import MotionAlgorithms
import MotionDaemonProtocol
import MotionEngine
import MotionManagerCore

/// The daemon's answers to each request (poll loop thread).
extension Daemon {
    func handle(_ message: ClientMessage, from session: ClientSession) {
        guard session.greeted else {
            guard case .hello(let version, let name) = message else {
                refuse(session, code: .badRequest, "The first message must be hello", advice: "Use an OpenCoreMotion client library.")
                return
            }
            guard version >= Framing.oldestVersion, version <= Framing.version else {
                refuse(session, code: .unsupportedVersion, "This motiond speaks protocol versions \(Framing.oldestVersion)…\(Framing.version), the client \(version)",
                       advice: "Use a client library of the same OpenCoreMotion release as motiond (\(OpenCoreMotionVersion.string)).")
                return
            }
            session.name = name
            session.version = version
            session.greeted = true
            let rates = batchRates
            session.outbox.reply(.welcome(.init(version: Framing.welcomeVersion(forClient: version), daemonVersion: OpenCoreMotionVersion.string,
                                                boardName: board.description.name, sensors: sensors, authorization: session.decision.status,
                                                historyAllowed: session.decision.historyAllowed, clockOffset: Double(clock.offsetNanoseconds) / 1e9,
                                                accelerometerBatchHertz: rates.accelerometer, deviceMotionBatchHertz: rates.deviceMotion)))
            return
        }
        let request = message.request
        guard session.decision.status == .authorized else {
            // The welcome told it its status; this answer tells it why and what to do. Then it
            // is closed: a user who may not have data holds no connection (and no descriptor).
            session.outbox.reply(.error(request: request, code: .unauthorized,
                                        message: "User \(session.peer.userName) (uid \(session.peer.uid)) may not read motion data", advice: session.decision.advice))
            session.closing = true
            return
        }
        switch message {
        case .hello:
            session.outbox.reply(.error(request: 0, code: .badRequest, message: "hello was sent twice", advice: "Send hello once, first."))
        case .subscribe(_, let stream, let interval, let from, let frame):
            if let problem = subscribe(session, stream: stream, interval: interval, from: from, frame: frame) {
                session.outbox.reply(.error(request: request, code: problem.code, message: problem.message, advice: problem.advice))
            } else {
                session.outbox.reply(.ok(request: request))
            }
        case .unsubscribe(_, let stream):
            if let subscription = session.subscriptions.removeValue(forKey: stream) { unsubscribe(subscription) }
            session.outbox.clear(stream)
            session.outbox.reply(.ok(request: request))
        case .queryPedometer(_, let from, let to), .queryActivity(_, let from, let to), .queryAccelerometer(_, let from, let to):
            query(message, session: session, from: from, to: to)
        case .recordAccelerometer(_, let duration):
            guard duration > 0, duration <= 43_200 else {
                session.outbox.reply(.error(request: request, code: .badRequest, message: "A recording lasts more than 0 s and at most 12 h (43 200 s), not \(duration) s",
                                            advice: "Call recordAccelerometer again before the 12 h end for a longer recording."))
                return
            }
            // The daemon records the accelerometer at 50 Hz all the time (3 days kept): the
            // request only says until when the caller may count on it.
            session.outbox.reply(.recording(request: request, until: Double(clock.nowWallNanoseconds) / 1e9 + duration))
        case .status:
            session.outbox.reply(.status(request: request, status(forVersion: session.version)))
        case .subscribeAltitude(_, let stream, let seaLevelPressure, let uncertainty):
            let problem: Problem? = if !stream.isAltitude {
                Problem(code: .badRequest, message: "subscribeAltitude takes an altitude stream, not \(stream.name)", advice: "Use subscribe for it.")
            } else {
                subscribeAltitude(session, stream: stream, seaLevelPressure: seaLevelPressure, uncertainty: uncertainty)
            }
            if let problem {
                session.outbox.reply(.error(request: request, code: problem.code, message: problem.message, advice: problem.advice))
            } else {
                session.outbox.reply(.ok(request: request))
            }
        }
    }

    var sensors: WireSensors {
        var sensors: WireSensors = []
        let pairs: [(SensorChannel, WireSensors)] = [(.accelerometer, .accelerometer), (.gyroscope, .gyroscope), (.magnetometer, .magnetometer),
                                                     (.barometer, .barometer), (.thermometer, .thermometer)]
        for (channel, bit) in pairs where board.channels.contains(channel) { sensors.insert(bit) }
        return sensors
    }

    struct Problem {
        var code: WireErrorCode
        var message: String
        var advice: String
    }

    /// Starts (or re-times) one stream for `session`; what is wrong, or nil.
    private func subscribe(_ session: ClientSession, stream: WireStream, interval: Double, from: Double, frame: UInt8) -> Problem? {
        guard interval.isFinite, interval >= 0 else {
            return Problem(code: .badRequest, message: "The interval \(interval) s is not a duration", advice: "Give 0 (every sample) or more seconds.")
        }
        let needed: [SensorChannel] = switch stream {
        case .accelerometer, .pedometer, .pedometerEvents, .activity: [.accelerometer]
        case .gyroscope: [.gyroscope]
        case .magnetometer: [.magnetometer]
        case .deviceMotion, .batchedAccelerometer, .batchedDeviceMotion: [.accelerometer, .gyroscope]
        case .relativeAltitude, .absoluteAltitude: [.barometer]
        }
        if let missing = needed.first(where: { !board.channels.contains($0) }) {
            return Problem(code: .notAvailable, message: "The board \"\(board.description.name)\" has no \(missing) for the \(stream.name) stream",
                           advice: "Run motiond with a board that has one (--board).")
        }
        if stream.isAltitude {  // a plain subscribe: against the standard atmosphere
            let standard = AltitudeReference.standardAtmosphere
            return subscribeAltitude(session, stream: stream, seaLevelPressure: standard.seaLevelKilopascals,
                                     uncertainty: standard.uncertaintyKilopascals)
        }
        if stream.isBatched { return subscribeBatched(session, stream: stream) }
        let nanoseconds = Int64(min(interval, 3600) * 1e9)
        if let existing = session.subscriptions[stream] {
            guard case .engine(let engine, _) = existing else { return nil }  // pedometer and activity streams have no interval
            board.setInterval(engine, nanoseconds: nanoseconds)
            session.subscriptions[stream] = .engine(engine, intervalSeconds: interval)
            return nil
        }
        let outbox = session.outbox, clock = clock
        switch stream {
        case .accelerometer, .gyroscope, .magnetometer, .deviceMotion:
            let motionStream: MotionStream = switch stream {
            case .accelerometer: .accelerometer
            case .gyroscope: .gyroscope
            case .magnetometer: .magnetometer
            default: .deviceMotion
            }
            var referenceFrame = AttitudeReferenceFrame.xArbitraryZVertical
            if stream == .deviceMotion {
                guard let chosen = ReferenceFrames(rawValue: UInt(frame == 0 ? 1 : frame)).engineFrame else {
                    return Problem(code: .badRequest, message: "\(frame) is not one CMAttitudeReferenceFrame bit", advice: "Give 1, 2, 4 or 8.")
                }
                if chosen == .xMagneticNorthZVertical || chosen == .xTrueNorthZVertical, !board.channels.contains(.magnetometer) {
                    return Problem(code: .notAvailable, message: "The board \"\(board.description.name)\" has no magnetometer for a north-referenced frame",
                                   advice: "Use xArbitraryZVertical, or a board with a magnetometer.")
                }
                referenceFrame = chosen
            }
            let subscription = EngineSubscription(stream: motionStream, frame: referenceFrame) { _, event in
                guard case .sample(let sample) = event else { return }  // a board failure stops the daemon (HistoryRecorder)
                if let vector = clock.vector(sample) {
                    outbox.offer(vector, stream: stream)
                } else if let motion = clock.deviceMotion(sample) {
                    outbox.offer(motion)
                }
            }
            do throws(MotionManagerError) {
                try board.add(subscription, intervalNanoseconds: nanoseconds)
            } catch {
                return Problem(code: .notAvailable, message: "The board could not deliver \(stream.name): \(error)", advice: "See motiond's log.")
            }
            session.subscriptions[stream] = .engine(subscription, intervalSeconds: interval)
        case .pedometer, .pedometerEvents:
            let start = clock.engineNanoseconds(wireSeconds: from)
            let kind: PedometerSubscription.Kind = stream == .pedometer ? .updates(fromNanoseconds: start) : .events
            // Steps before the daemon started are in the history, not in the live counter.
            var baseline: PedometerBaseline?
            if stream == .pedometer, start < pedometerStarted {
                let wanted = PedometerBaseline(outbox: outbox, from: from)
                recorder.queryBaseline(from: clock.wallNanoseconds(start), to: clock.wallNanoseconds(pedometerStarted), for: wanted)
                baseline = wanted
            }
            let subscription = PedometerSubscription(kind) { [baseline] _, feed in
                switch feed {
                case .update(let values):
                    if let baseline { baseline.deliver(clock.pedometer(values)) } else { outbox.offer(clock.pedometer(values)) }
                case .event(let event): outbox.offer(clock.pedometerEvent(event))
                case .failed: break
                }
            }
            BoardPedometer.of(board).subscribe(subscription)
            session.subscriptions[stream] = .pedometer(subscription)
        case .relativeAltitude, .absoluteAltitude, .batchedAccelerometer, .batchedDeviceMotion:
            break  // subscribeAltitude, subscribeBatched
        case .activity:
            let subscription = ActivitySubscription { _, feed in
                if case .update(let update) = feed { outbox.offer(clock.activity(update)) }
            }
            BoardActivity.of(board).subscribe(subscription)
            session.subscriptions[stream] = .activity(subscription)
        }
        return nil
    }

    /// Starts (or restarts: relative altitude from 0 again) an altitude stream for `session`:
    /// its own `AltimeterSubscription` on the board's barometer, the in-process altimeter's
    /// stage and pace (the first update a second after the start, then about every second);
    /// what is wrong, or nil.
    private func subscribeAltitude(_ session: ClientSession, stream: WireStream, seaLevelPressure: Double, uncertainty: Double) -> Problem? {
        guard board.channels.contains(.barometer) else {
            return Problem(code: .notAvailable, message: "The board \"\(board.description.name)\" has no barometer for the \(stream.name) stream",
                           advice: "Run motiond with a board that has one (--board).")
        }
        let reference: AltitudeReference
        do throws(MotionManagerError) {
            reference = try AltitudeReference.checked(kilopascals: seaLevelPressure, uncertainty: uncertainty)
        } catch {
            return Problem(code: .badRequest, message: error.message, advice: "Give the sea-level pressure (QNH) and its uncertainty in kPa.")
        }
        if let old = session.subscriptions.removeValue(forKey: stream) { unsubscribe(old) }
        let outbox = session.outbox, clock = clock
        let altimeter = AltimeterSubscription(reference: reference) { _, feed in
            if case .update(let values) = feed { outbox.offer(clock.altitude(values), stream: stream) }  // a board failure stops the daemon
        }
        let tap = altimeter.makeTap()
        do throws(MotionManagerError) {
            try board.add(tap)
        } catch {
            return Problem(code: .notAvailable, message: "The board could not deliver \(stream.name): \(error)", advice: "See motiond's log.")
        }
        session.subscriptions[stream] = .altitude(altimeter, tap)
        return nil
    }

    /// Hands a history query to the history thread.
    private func query(_ message: ClientMessage, session: ClientSession, from: Double, to: Double) {
        let request = message.request
        func fail(_ code: WireErrorCode, _ text: String, _ advice: String) {
            session.outbox.reply(.error(request: request, code: code, message: text, advice: advice))
        }
        guard session.decision.historyAllowed else {
            return fail(.unauthorized, "The administrator's motiond policy gives user \(session.peer.userName) live data only, no history",
                        "Ask the administrator (the policy file's `live-only` line).")
        }
        guard !from.isNaN, !to.isNaN, from <= to else {
            return fail(.badRequest, "The range \(from) … \(to) runs backwards", "Give from ≤ to, CLOCK_REALTIME seconds.")
        }
        guard !session.outbox.queryRunning.load(ordering: .acquiring) else {
            return fail(.busy, "A query of this connection is still being answered", "Wait for its answer, then ask again.")
        }
        let start = DaemonClock.wallNanoseconds(wireSeconds: from), end = DaemonClock.wallNanoseconds(wireSeconds: to)
        switch message {
        case .queryPedometer: recorder.queryPedometer(request: request, from: start, to: end, outbox: session.outbox)
        case .queryActivity: recorder.queryActivity(request: request, from: start, to: end, outbox: session.outbox)
        default:
            guard end &- start <= HistoryRecorder.longestAccelerometerQueryNanoseconds, end &- start >= 0 else {
                return fail(.badRequest, "An accelerometer query spans at most 12 h, not \(to - from) s", "Ask for the range in parts of 12 h or less.")
            }
            recorder.queryAccelerometer(request: request, from: start, to: end, outbox: session.outbox)
        }
    }
}
