import MotionAlgorithms
package import MotionEngine

extension HighRateFIFO {
    /// Core Motion's batched device-motion rate, Hz.
    package static let deviceMotionTargetHertz = 200

    /// Every how many FIFO frames a batched device-motion sample is output: the FIFO rate over
    /// 200 Hz, rounded (MPU-6050 family 1000 / 5, BMI160 1600 / 8: exactly 200 Hz).
    package var deviceMotionDecimation: Int { max(1, (rateHertz + Self.deviceMotionTargetHertz / 2) / Self.deviceMotionTargetHertz) }

    /// The batched device-motion rate, Hz.
    package var deviceMotionRateHertz: Int { rateHertz / deviceMotionDecimation }
}

/// The engine thread's batched streams: every FIFO frame of the board's fast-running IMU goes
/// into each accelerometer client's batch and through each device-motion client's estimator
/// (fusion at the full FIFO rate, one output per `deviceMotionDecimation` frames); a batch goes to
/// its client's queue when it holds a second of samples. While the chip runs fast, the other
/// streams (raw, device motion, pedometer and activity taps) get one frame of every
/// `decimation`: what the chip gave them at the board file's rate, so their behaviour does not
/// change.
///
/// Confined to the engine thread (`EngineWorker` owns it), hence neither Sendable nor locked.
final class BatchedStage {
    /// The board's FIFO IMU at its highest rate (nil: no batched sensors on this board).
    let fifo: HighRateFIFO?
    private let calibration: BoardCalibration?
    private var accelerometers: [Collector<SensorReading>] = []
    private var motions: [MotionCollector] = []

    /// Every how many FIFO frames the other streams get one (1: the chip runs at the board's rate).
    private(set) var decimation = 1
    private var frameIndex = 0
    private var framePasses = true
    /// The FIFO period while the chip runs fast, ns (0: it does not).
    private(set) var periodNanoseconds: Int64 = 0
    private var lastFrameNanoseconds: Int64?
    /// The latest frame the other streams got while the chip runs fast.
    private var lastPassedFrameNanoseconds: Int64?
    private var overflowsSeen = 0

    init(board: BoardDescription, calibration: BoardCalibration?) {
        fifo = HighRateFIFO(board: board)
        self.calibration = calibration
    }

    var isEmpty: Bool { accelerometers.isEmpty && motions.isEmpty }

    func add(_ client: BatchedClient) {
        switch client {
        case .accelerometer(let client):
            accelerometers.append(Collector(client: client))
        case .deviceMotion(let client):
            motions.append(MotionCollector(collector: Collector(client: client), every: fifo?.deviceMotionDecimation ?? 1,
                                           estimator: DeviceMotionEstimator(calibration: calibration)))
        }
    }

    /// Removes the client; the rest of its batch is dropped (it stopped).
    func remove(id: Int) {
        accelerometers.removeAll { $0.client.id == id }
        motions.removeAll { $0.collector.client.id == id }
    }

    /// The board failed: every client's stream ends with `error`.
    func fail(_ error: MotionManagerError) {
        for entry in accelerometers { entry.client.cancel(error) }
        for entry in motions { entry.collector.client.cancel(error) }
        accelerometers = []
        motions = []
    }

    /// The chip now runs at `periodNanoseconds` (0: at the board's own rate, no batches), and
    /// the others get one frame of `decimation`, starting with the next. The engine switches the
    /// rate in place (the same runtime and time origin): the FIFO-gap count starts afresh, with
    /// the first frame at this period.
    func rateChanged(decimation: Int, periodNanoseconds: Int64, overflows: Int) {
        self.decimation = max(1, decimation)
        self.periodNanoseconds = periodNanoseconds
        frameIndex = 0
        lastFrameNanoseconds = nil
        lastPassedFrameNanoseconds = nil
        overflowsSeen = overflows
    }

    /// When the next frame for the other streams is due while the chip runs fast (CLOCK_MONOTONIC
    /// ns; nil: none passed yet, or the chip runs at the board's rate). The engine puts the chip
    /// back at the board's rate right after that frame, so that the other streams' next frame,
    /// the first at the board's rate, follows it by about one board period, not that plus up to
    /// `decimation - 1` fast periods (a gap in their stream).
    var nextPassingFrameNanoseconds: Int64? {
        guard periodNanoseconds > 0, let last = lastPassedFrameNanoseconds else { return nil }
        return last + Int64(decimation) * periodNanoseconds
    }

    /// The fast chip's FIFO overflow count so far (from the runtime's status): new ones are
    /// counted for every client.
    func observe(overflows: Int) {
        guard overflows > overflowsSeen else { return }
        let new = overflows - overflowsSeen
        overflowsSeen = overflows
        for entry in accelerometers { entry.client.countOverflows(new) }
        for entry in motions { entry.collector.client.countOverflows(new) }
    }

    /// Takes one reading (stamped on CLOCK_MONOTONIC); returns whether the other streams get it.
    func take(_ reading: SensorReading) -> Bool {
        guard periodNanoseconds > 0 else { return true }
        switch reading.value {
        case .acceleration:
            // A FIFO frame is an acceleration then an angular velocity (FIFODrain).
            framePasses = frameIndex % decimation == 0
            frameIndex &+= 1
            if framePasses { lastPassedFrameNanoseconds = reading.timestampNanoseconds }
            countGap(before: reading.timestampNanoseconds)
            for index in accelerometers.indices { accelerometers[index].append(reading) }
        case .angularVelocity:
            break
        case .magneticField, .pressure, .temperature:
            return true
        }
        for index in motions.indices { motions[index].take(reading) }
        return framePasses
    }

    /// Samples missing before a frame stamped `time`: a gap of more than 1.5 periods since the
    /// last one (the FIFO overflowed and was reset, or a read failed and the chip was reset).
    private func countGap(before time: Int64) {
        defer { lastFrameNanoseconds = time }
        guard let last = lastFrameNanoseconds, time - last > periodNanoseconds * 3 / 2 else { return }
        let missing = Int((time - last + periodNanoseconds / 2) / periodNanoseconds) - 1
        for entry in accelerometers { entry.client.countFIFODrop(samples: missing) }
        for entry in motions { entry.collector.client.countFIFODrop(samples: (missing + entry.every - 1) / entry.every) }
    }
}

/// One client's batch being filled: handed over when it holds a second of samples.
private struct Collector<Element: Sendable> {
    let client: BatchClient<Element>
    private var pending: [Element] = []

    init(client: BatchClient<Element>) {
        self.client = client
        pending.reserveCapacity(client.frequencyHertz)
    }

    mutating func append(_ element: Element) {
        pending.append(element)
        guard pending.count >= client.frequencyHertz else { return }
        client.deliver(pending)
        pending = []
        pending.reserveCapacity(client.frequencyHertz)
    }
}

/// A device-motion client: its own estimator, fed every frame, and one output of `every`.
private struct MotionCollector {
    var collector: Collector<DeviceMotion>
    let every: Int
    var estimator: DeviceMotionEstimator
    private var outputs = 0

    init(collector: Collector<DeviceMotion>, every: Int, estimator: DeviceMotionEstimator) {
        self.collector = collector
        self.every = every
        self.estimator = estimator
    }

    mutating func take(_ reading: SensorReading) {
        guard estimator.update(reading) else { return }
        defer { outputs &+= 1 }
        if outputs % every == 0 { collector.append(estimator.motion) }  // built only for the samples kept
    }
}
