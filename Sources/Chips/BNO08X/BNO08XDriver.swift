public import FixedPoint
public import MotionAlgorithms
public import SensorBus

/// The BNO08x's own outputs beyond the three raw sensors: its fused orientations, its step
/// counter and its classifiers, as the latest report of each.
public struct BNO08XFusedOutputs: Sendable, Equatable {
    /// An orientation and when it was sampled.
    public struct Attitude: Sendable, Equatable {
        /// Unit quaternion, Q2.30, rotating the chip's axes into the hub's world frame.
        public var quaternion: Quaternion
        /// The hub's heading accuracy estimate, rad, Q16.16 (the rotation vector's; nil for the
        /// game rotation vector, which has no heading).
        public var headingAccuracy: Q16_16?
        /// The report's status accuracy, 0 (unreliable) … 3 (high).
        public var accuracy: UInt8
        /// When it was sampled, ns (the report's delay applied).
        public var timestampNanoseconds: Int64
    }

    /// Rotation vector (0x05: accelerometer, gyroscope and magnetometer).
    public var rotationVector: Attitude?
    /// Game rotation vector (0x08: no magnetometer, heading drifts slowly).
    public var gameRotationVector: Attitude?
    /// Steps counted since the driver started, across resets and the 16-bit counter's wrap.
    public var steps: Int?
    public var stability: SH2Stability?
    /// The personal activity classifier's most likely activity and its confidence, %.
    public var activity: SH2Activity?
    public var activityConfidence: UInt8 = 0
}

/// A CEVA/Hillcrest BNO085 or BNO086 (a BNO080 successor: the same SH-2 firmware interface)
/// at 0x4A (0x4B with SA0 high), over SHTP on I2C (`SHTPTransport`). It has no registers: the
/// host enables reports (Set Feature, report interval in µs) and reads the packets the hub
/// sends when it has them.
///
/// Start: the driver resets the hub (executable channel, command 1). The hub answers as after
/// power-up: the SHTP advertisement on channel 0, then "reset complete" on channel 1; the driver
/// then asks for the product ID (0xF9) and, on its response (0xF8), enables every report it
/// reads. The emulator answers at once; a real hub takes its start-up time (BNO08X data sheet
/// 1000-3927, "start-up time"), so whatever the first reads do not finish, `read` finishes.
///
/// Reset mid-stream: a hub that resets (brown-out, watchdog, ESD) forgets its enabled reports
/// and announces itself as after power-up. Either announcement while streaming is counted once
/// in `recoveries`; the reports are enabled again once the hub says it is ready. A hub whose
/// reports stop without an announcement (lost in a bus glitch) gets its reports enabled again
/// after `silenceLimitNanoseconds` (`featureRefreshes`).
///
/// Timestamps: each batch's Base Timestamp Reference and each report's delay (SH-2 1000-3625,
/// its timestamp reports) place the sample before the read's `nowNanoseconds` (the data-ready edge that made the
/// host read, or the poll).
public final class BNO08XDriver<Bus: I2CBus> {
    public struct Configuration: Sendable, Equatable {
        /// Accelerometer and gyroscope rate, Hz (1…400: the gyroscope's maximum, BNO08X data
        /// sheet 1000-3927 table "maximum sensor rates"); the report interval is 10⁶ / rate µs.
        public var sampleRateHertz = 100
        /// Also enable the hub's rotation vector, game rotation vector (both at the sample
        /// rate), step counter, stability classifier (10 Hz) and activity classifier (1 Hz).
        public var fusedReports = true

        public init() {}
    }

    public enum State: Sendable, Equatable {
        /// A reset was sent or announced: waiting for "reset complete".
        case awaitingReset
        /// Waiting for the Product ID Response before enabling reports.
        case awaitingProductID
        /// Reports enabled.
        case streaming
    }

    public let transport: SHTPTransport<Bus>
    public var bus: Bus { transport.bus }
    public var address: UInt8 { transport.address }
    public let configuration: Configuration
    /// Accelerometer and gyroscope report period, ns.
    public let samplePeriodNanoseconds: Int64
    /// Magnetometer report period, ns: the sample period, at most 100 Hz (an assumption of this
    /// project for the calibrated field; the data sheet's table allows more for the raw one).
    public let magnetometerPeriodNanoseconds: Int64
    /// The reports enabled and their intervals, µs.
    public let features: [SH2Feature]

    public private(set) var state = State.awaitingReset
    public private(set) var productID: SH2ProductID?
    /// Resets the hub announced while streaming, each recovered from (reports enabled again).
    public private(set) var recoveries = 0
    /// Every reset announcement (advertisement or reset complete), the driver's own reset included.
    public private(set) var resetAnnouncements = 0
    /// Reports enabled again because they stopped without a reset being announced.
    public private(set) var featureRefreshes = 0
    /// Get Feature Responses: the interval the hub took for each report ID, µs.
    public private(set) var confirmedIntervals: [UInt8: UInt32] = [:]
    /// Batches that ended inside a report (a truncated packet), that held an unknown report ID,
    /// and reports of known IDs not decoded here.
    public private(set) var truncatedBatches = 0
    public private(set) var unknownReportBatches = 0
    public private(set) var skippedReports = 0
    /// Readings that found the caller's buffer full (never with the board runtime's).
    public private(set) var droppedReadings = 0
    /// The latest fused outputs.
    public private(set) var fused = BNO08XFusedOutputs()
    /// Packets lost (sequence gaps) and transfers that were not packets, from the transport.
    public var lostPackets: Int { transport.sequences.lost }
    public var framingErrors: Int { transport.framingErrors }
    /// How long reports may stop while streaming before they are enabled again, ns.
    public var silenceLimitNanoseconds: Int64 { max(500_000_000, 20 * magnetometerPeriodNanoseconds) }

    /// Packets read per `read` at most: a hub sending faster than that is read again at once.
    static var packetsPerRead: Int { 8 }
    /// Reads in a row that found only junk before the driver gives up on the chip.
    static var junkLimit: Int { 16 }
    /// Reads without progress before a lost announcement or answer is asked for again.
    static var patienceReads: Int { 50 }

    private var junkInARow = 0
    private var readsWithoutProgress = 0
    private var lastReportNanoseconds: Int64?
    private var rawSteps: UInt16?
    private var stepsBeforeRaw = 0

    public init(bus: Bus, address: UInt8 = 0x4A, configuration: Configuration = .init(), transferLimit: Int = 256) throws(ChipError) {
        transport = SHTPTransport(bus: bus, address: address, transferLimit: transferLimit)
        self.configuration = configuration
        let rate = Int64(min(400, max(1, configuration.sampleRateHertz)))
        let interval = UInt32(1_000_000 / rate)
        let fieldInterval = max(interval, 10_000)
        samplePeriodNanoseconds = Int64(interval) * 1000
        magnetometerPeriodNanoseconds = Int64(fieldInterval) * 1000
        var features = [SH2Feature(reportID: SH2ReportID.accelerometer, reportIntervalMicroseconds: interval),
                        SH2Feature(reportID: SH2ReportID.gyroscopeCalibrated, reportIntervalMicroseconds: interval),
                        SH2Feature(reportID: SH2ReportID.magneticFieldCalibrated, reportIntervalMicroseconds: fieldInterval)]
        if configuration.fusedReports {
            features += [SH2Feature(reportID: SH2ReportID.rotationVector, reportIntervalMicroseconds: interval),
                         SH2Feature(reportID: SH2ReportID.gameRotationVector, reportIntervalMicroseconds: interval),
                         SH2Feature(reportID: SH2ReportID.stepCounter, reportIntervalMicroseconds: 100_000),
                         SH2Feature(reportID: SH2ReportID.stabilityClassifier, reportIntervalMicroseconds: 100_000),
                         // Sensor-specific word: the activities to classify, a bit per SH2Activity (all nine).
                         SH2Feature(reportID: SH2ReportID.personalActivityClassifier, reportIntervalMicroseconds: 1_000_000, sensorSpecific: 0x1FF)]
        }
        self.features = features
        try transport.send(channel: SHTPChannel.executable, cargo: [SH2Executable.reset], "resetting the BNO08x (executable channel, command 1)")
        // What the hub answers at once (the emulator: everything; a real hub: often nothing yet).
        var scratch = [SensorReading](repeating: SensorReading(timestampNanoseconds: 0, value: .temperature(Q16_16(rawValue: 0))), count: 64)
        for _ in 0..<4 where state != .streaming {
            _ = try scratch.withUnsafeMutableBufferPointer { (buffer) throws(ChipError) in try read(into: buffer, nowNanoseconds: 0) }
        }
        lastReportNanoseconds = nil
    }

    // MARK: Reading

    /// Reads the packets the hub has (at most `packetsPerRead`), writing its accelerometer,
    /// gyroscope and field reports into `readings` (m/s², rad/s, µT in Q16.16, chip axes,
    /// stamped from `nowNanoseconds` by the hub's timestamps) and keeping the rest in `fused`.
    /// Returns how many readings were written.
    public func read(into readings: UnsafeMutableBufferPointer<SensorReading>, nowNanoseconds: Int64) throws(ChipError) -> Int {
        var written = 0
        var progressed = false
        packets: for _ in 0..<Self.packetsPerRead {
            let received: SHTPReceived
            do {
                received = try transport.receive()
            } catch {
                // A hub mid-reset may not acknowledge its address for a while.
                if state != .streaming, case .bus(let busError) = error, busError.kind == .noAcknowledge,
                   readsWithoutProgress < Self.patienceReads {
                    break packets
                }
                throw error
            }
            switch received {
            case .nothing:
                junkInARow = 0
            case .dropped(let problem):
                junkInARow += 1
                if junkInARow >= Self.junkLimit {
                    junkInARow = 0
                    throw .unexpectedPackets(chip: "BNO08x", bus: bus.name, address: address, what: problem.description)
                }
                continue packets
            case .packet(let header):
                junkInARow = 0
                progressed = true
                try handle(header, readings: readings, written: &written, now: nowNanoseconds)
                // Room for a whole packet of the shortest reports (10 bytes each)?
                if readings.count - written >= transport.capacity / 10 + 1 { continue packets }
            }
            break packets
        }
        try keepGoing(progressed: progressed, now: nowNanoseconds)
        return written
    }

    private func handle(_ header: SHTPHeader, readings: UnsafeMutableBufferPointer<SensorReading>, written: inout Int, now: Int64) throws(ChipError) {
        switch header.channel {
        case SHTPChannel.command:
            // The advertisement (first cargo byte 0x00, tag-length-value records after it) comes
            // only after a reset (SHTP 1000-3535, "advertisement": it answers an advertise request too, which
            // this driver never sends).
            if transport.withCargo({ $0.first == 0x00 }) { try resetAnnounced(ready: false) }
        case SHTPChannel.executable:
            if transport.withCargo({ $0.first == SH2Executable.resetComplete }) { try resetAnnounced(ready: true) }
        case SHTPChannel.control:
            try control()
        case SHTPChannel.inputReports, SHTPChannel.wakeReports:
            reports(readings: readings, written: &written, now: now)
        default:
            break  // channel 5: not enabled here
        }
    }

    /// A reset announcement: counted once per reset while streaming; "reset complete" means the
    /// hub takes commands again, so the product ID is asked for (its answer enables reports).
    private func resetAnnounced(ready: Bool) throws(ChipError) {
        resetAnnouncements += 1
        if state == .streaming {
            recoveries += 1
            rawSteps = nil  // the hub's step counter starts again at 0
        }
        transport.deviceReset()  // its sequence numbers, and those it expects, start again at 0
        state = .awaitingReset
        readsWithoutProgress = 0
        if ready { try askForProductID() }
    }

    private func askForProductID() throws(ChipError) {
        state = .awaitingProductID
        try transport.send(channel: SHTPChannel.control, cargo: SH2ProductID.request, "asking the BNO08x for its product ID (0xF9)")
    }

    private func control() throws(ChipError) {
        let message = transport.withCargo { (cargo) -> (product: SH2ProductID?, feature: SH2Feature?) in (SH2ProductID(cargo), SH2Feature(cargo)) }
        if let feature = message.feature { confirmedIntervals[feature.reportID] = feature.reportIntervalMicroseconds }
        guard let product = message.product else { return }
        productID = product
        guard state != .streaming else { return }  // one response per firmware component
        try enableFeatures()
    }

    private func enableFeatures() throws(ChipError) {
        for feature in features {
            try transport.send(channel: SHTPChannel.control, cargo: feature.bytes(),
                               "enabling the BNO08x's report \(hex(feature.reportID)) (Set Feature 0xFD)")
        }
        state = .streaming
        readsWithoutProgress = 0
    }

    private func reports(readings: UnsafeMutableBufferPointer<SensorReading>, written: inout Int, now: Int64) {
        var count = written
        var dropped = 0
        var fused = self.fused
        var rawSteps = self.rawSteps
        var stepsBeforeRaw = self.stepsBeforeRaw
        let summary = transport.withCargo { cargo in
            SH2Decoder.walk(cargo) { report, offset in
                let time = now + offset * 1000
                func deliver(_ value: SensorValue) {
                    guard count < readings.count else { dropped += 1; return }
                    readings[count] = SensorReading(timestampNanoseconds: time, value: value)
                    count += 1
                }
                switch report.value {
                case .acceleration(let v): deliver(.acceleration(v))
                case .angularVelocity(let v): deliver(.angularVelocity(v))
                case .magneticField(let v): deliver(.magneticField(v))
                case .rotationVector(let q, let accuracy):
                    fused.rotationVector = .init(quaternion: q, headingAccuracy: accuracy, accuracy: report.accuracy, timestampNanoseconds: time)
                case .gameRotationVector(let q):
                    fused.gameRotationVector = .init(quaternion: q, headingAccuracy: nil, accuracy: report.accuracy, timestampNanoseconds: time)
                case .stepCount(let steps, _):
                    // 16 bits on the wire: the difference modulo 2¹⁶ is the steps since the last report.
                    if let previous = rawSteps { stepsBeforeRaw += Int(steps &- previous) } else { stepsBeforeRaw += Int(steps) }
                    rawSteps = steps
                    fused.steps = stepsBeforeRaw
                case .stability(let stability): fused.stability = stability
                case .activity(let activity, let confidence):
                    fused.activity = activity
                    fused.activityConfidence = confidence
                }
            }
        }
        self.fused = fused
        self.rawSteps = rawSteps
        self.stepsBeforeRaw = stepsBeforeRaw
        droppedReadings += dropped
        written = count
        if summary.truncated { truncatedBatches += 1 }
        if summary.unknownID != nil { unknownReportBatches += 1 }
        skippedReports += summary.skipped
        if summary.decoded > 0 { lastReportNanoseconds = now }
    }

    /// Asks again for what did not come: the product ID when a reset's answers were lost, the
    /// reports when they stopped while streaming with no reset announced.
    private func keepGoing(progressed: Bool, now: Int64) throws(ChipError) {
        if state == .streaming {
            let last = lastReportNanoseconds ?? now
            if lastReportNanoseconds == nil { lastReportNanoseconds = now }
            if now - last > silenceLimitNanoseconds {
                featureRefreshes += 1
                lastReportNanoseconds = now
                try enableFeatures()
            }
            return
        }
        readsWithoutProgress = progressed ? 0 : readsWithoutProgress + 1
        if readsWithoutProgress >= Self.patienceReads {
            readsWithoutProgress = 0
            try askForProductID()
        }
    }
}
