import FixedPoint
import MotionAlgorithms
import MotionEngine

/// The engine thread's state: the board runtime, the fan-out of raw readings to subscriptions
/// at their intervals (`SensorSubscribers`) and one device-motion estimator per device-motion
/// subscription (each starts its own arbitrary reference, as Core Motion's does at start).
///
/// Confined to the engine thread (`LiveBoard.runSession` creates it there and never lets it
/// escape), hence neither Sendable nor locked.
final class EngineWorker {
    let board: LiveBoard
    let runtime: BoardRuntime
    /// CLOCK_MONOTONIC (ns) at the runtime's board time 0.
    let origin: Int64
    private let subscribers = SensorSubscribers()
    private var raw: [Int: (subscription: EngineSubscription, token: SensorSubscribers.Token)] = [:]
    private var motions: [MotionSubscriber] = []
    /// The current runtime's loss counts already added to `board.sampleLoss`.
    private var forwardedLoss = InlineArray<5, SampleLoss>(repeating: SampleLoss())
    /// Stages fed every reading of their channels (the pedometer), by tap id.
    private var taps: [Int: (tap: ReadingTap, token: SensorSubscribers.Token)] = [:]
    /// Whether the board's FIFO IMU runs at its highest rate (batched clients run,
    /// `BatchedStage`) rather than at the board file's.
    var fifoRunsFast = false
    /// Board time at which the FIFO IMU goes back to the board file's rate (the last batched
    /// client left; `EngineWorker+Batched`), nil when no switch back waits.
    var switchBackDueNanoseconds: Int64?
    let batched: BatchedStage

    private struct MotionSubscriber {
        let subscription: EngineSubscription
        var estimator: DeviceMotionEstimator
        var gate: IntervalGate
    }

    init(board: LiveBoard) throws(EngineError) {
        self.board = board
        // What `motionctl calibrate` stored for this board (gyroscope bias, accelerometer, magnetometer),
        // and the profiles its self-calibrating chips learned (a BNO055's), given back as they start.
        calibration = try BoardCalibration.load(path: BoardCalibration.path(forBoard: board.path))
        runtime = try BoardRuntime(board.description.withStoredProfiles(calibration),
                                   root: BoardLocations.dataRoot(forBoardFile: board.path), speed: 1)
        origin = PacedClock.monotonicNanoseconds()
        let profiles = ChipProfileSaver(path: BoardCalibration.path(forBoard: board.path),
                                        board: board.path.split(separator: "/").last.map(String.init) ?? board.path)
        runtime.onChipProfile = { profiles.save(label: $0, values: $1) }
        profileSaver = profiles
        // What the online calibration learns (the magnetometer's offset, the gyroscope's bias)
        // goes back to that file.
        if board.channels.contains(.magnetometer) || board.channels.contains(.gyroscope) {
            saver = OnlineCalibrationSaver(path: BoardCalibration.path(forBoard: board.path),
                                           board: board.path.split(separator: "/").last.map(String.init) ?? board.path)
        }
        batched = BatchedStage(board: board.description, calibration: calibration)
    }

    private let calibration: BoardCalibration?
    private var saver: OnlineCalibrationSaver?
    /// Saves what a BNO055 learned (its failures kept in it, as the online saver's are).
    private let profileSaver: ChipProfileSaver

    var isIdle: Bool { raw.isEmpty && motions.isEmpty && taps.isEmpty && batched.isEmpty }

    func apply(_ command: Command) {
        switch command {
        case .add(let subscription, let interval, let completion):
            if let channel = subscription.stream.channel {
                raw[subscription.id] = (subscription, subscribe(subscription, channel, interval))
            } else {
                motions.append(MotionSubscriber(
                    subscription: subscription,
                    estimator: DeviceMotionEstimator(frame: subscription.frame, declination: subscription.declination, calibration: calibration),
                    gate: IntervalGate(intervalNanoseconds: interval)))
            }
            completion?.finish(nil)
        case .remove(let id, let completion):
            if let entry = raw.removeValue(forKey: id) { subscribers.unsubscribe(entry.token) }
            for motion in motions where motion.subscription.id == id { saver?.finish(motion.estimator) }
            motions.removeAll { $0.subscription.id == id }
            completion?.finish(nil)
        case .addTap(let tap, let completion):
            taps[tap.id] = (tap, subscribers.subscribe(tap.channels) { tap.deliver(.reading($0)) })
            completion?.finish(nil)
        case .removeTap(let id, let completion):
            if let entry = taps.removeValue(forKey: id) { subscribers.unsubscribe(entry.token) }
            completion?.finish(nil)
        case .addBatched(let client, let completion):
            completion?.finish(addBatched(client))
        case .removeBatched(let id, let completion):
            removeBatched(id: id)
            completion?.finish(nil)
        case .setInterval(let id, let interval):
            if let entry = raw[id], let channel = entry.subscription.stream.channel {
                subscribers.unsubscribe(entry.token)
                raw[id] = (entry.subscription, subscribe(entry.subscription, channel, interval))
            }
            for index in motions.indices where motions[index].subscription.id == id {
                motions[index].gate = IntervalGate(intervalNanoseconds: interval)
            }
        }
    }

    private func subscribe(_ subscription: EngineSubscription, _ channel: SensorChannel, _ interval: Int64) -> SensorSubscribers.Token {
        subscribers.subscribe([channel], intervalNanoseconds: interval) { reading in
            switch reading.value {
            case .acceleration: subscription.deliver(.sample(.accelerometer(reading)))
            case .angularVelocity: subscription.deliver(.sample(.gyroscope(reading)))
            case .magneticField: subscription.deliver(.sample(.magnetometer(reading)))
            case .pressure, .temperature: break
            }
        }
    }

    /// Runs the board up to `commandLatencyNanoseconds` ahead, delivering what it reads. A
    /// simulated board whose recording has ended plays it again on the same chips (their sample
    /// schedule and timestamps go on); a board that fails tells every subscription why and
    /// drops them all.
    func step() {
        do {
            let limit = min(runtime.nowNanoseconds + LiveBoard.commandLatencyNanoseconds, switchBackDueNanoseconds ?? .max)
            try runtime.step(notAfter: limit) { reading in publish(reading) }
            if let due = switchBackDueNanoseconds, runtime.nowNanoseconds >= due { switchBack() }
            board.sampleLoss.forward(runtime, &forwardedLoss)
            if !batched.isEmpty { batched.observe(overflows: fastChipOverflows) }
            // The same runtime plays the recording again: its chips, clock and loss counts go
            // on, so no gap opens at the loop (`BoardRuntime.startRecordingOver`).
            if runtime.isFinished { try runtime.startRecordingOver() }
        } catch {
            let failure = MotionManagerError(.unknown, "The board file \(board.path) (\"\(board.description.name)\") stopped: \(error)")
            for entry in raw.values {
                entry.subscription.deliver(.failed(failure))
                subscribers.unsubscribe(entry.token)
            }
            for motion in motions {
                saver?.finish(motion.estimator)
                motion.subscription.deliver(.failed(failure))
            }
            for entry in taps.values {
                entry.tap.deliver(.failed(failure))
                subscribers.unsubscribe(entry.token)
            }
            batched.fail(failure)
            raw = [:]
            motions = []
            taps = [:]
        }
    }

    func publish(_ reading: SensorReading) {
        var stamped = reading
        stamped.timestampNanoseconds = origin + reading.timestampNanoseconds
        guard batched.take(stamped) else { return }
        subscribers.publish(stamped)
        for index in motions.indices {
            let fused = motions[index].estimator.update(stamped)
            saver?.observe(motions[index].estimator, at: stamped.timestampNanoseconds)
            // The device motion is built only for the samples the subscription's interval admits.
            guard fused, motions[index].gate.admits(stamped.timestampNanoseconds) else { continue }
            motions[index].subscription.deliver(.sample(.deviceMotion(motions[index].estimator.motion, motions[index].subscription.frame)))
        }
    }
}

/// Thins a stream by time, as `SensorSubscribers` does for raw readings: a sample passes when
/// the interval has passed since the previous one was due, less an eighth of it (at most 5 ms)
/// so that a jittery source is not thinned to every other interval.
struct IntervalGate {
    let intervalNanoseconds: Int64
    private var nextDue: Int64 = .min

    init(intervalNanoseconds: Int64) {
        self.intervalNanoseconds = max(0, intervalNanoseconds)
    }

    mutating func admits(_ time: Int64) -> Bool {
        let interval = intervalNanoseconds
        guard interval > 0 else { return true }
        guard nextDue == .min || time >= nextDue - min(interval / 8, 5_000_000) else { return false }
        nextDue = nextDue == .min || time - nextDue >= interval ? time + interval : nextDue + interval
        return true
    }
}
