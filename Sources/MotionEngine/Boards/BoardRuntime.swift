import Chips
import FixedPoint
import LinuxGPIO
import LinuxI2C
import LinuxIIO
import LinuxSerial
import Recordings
public import MotionAlgorithms
import SensorBus

/// A board brought up from its description and run: each chip's driver on its bus (a real
/// `/dev/i2c-N`, the chip's emulator, or its kernel IIO driver), read when a sample is ready.
///
/// What makes the runtime read a chip, best first:
/// - its **data-ready line** (`interrupt = GPIO17` in the board file): the runtime sleeps in
///   poll(2) on the line and reads the chip on each edge, stamping the newest sample with the
///   edge's kernel timestamp (CLOCK_MONOTONIC, taken in the interrupt handler), FIFO frames
///   before it back-dated at the sample period. On a simulated board the line is the
///   emulator's own pin, which rises exactly when the emulator produces a sample, if the
///   driver routed data ready to it. A line silent for longer than the chip's watchdog (a chip
///   reset mid-stream forgets its interrupt routing, a wire breaks) gets a read anyway, so the
///   driver notices the reset and restores the routing, and the chip is polled on its timer
///   until edges come back: no sample is lost. Such reads are counted in `status`.
/// - otherwise a **timer**: FIFO chips every quarter of their FIFO's span (at most 10 ms),
///   chips with one sample in their output registers every half period, barometers and IIO
///   sysfs devices once per period, each on a fixed schedule.
///
/// A polled read's samples are stamped on the chip's sample schedule, not at the read; samples
/// lost (an interval over 1.5 periods) or repeated (withheld) are counted per sensor in `status`
/// (`SampleTiming`).
///
/// Readings leave in device axes (the board's mounting applied) through `deliver`, from a
/// buffer the runtime owns: no allocation per sample on the I2C path.
public final class BoardRuntime {
    public let description: BoardDescription
    let sessions: [ChipSession]
    /// The sessions woken by a file descriptor (a real data-ready line, an IIO buffer), in the
    /// order of `descriptorWait`'s descriptors.
    private let waitingSessions: [ChipSession]
    private let descriptorWait: DescriptorWait?
    private let motion: (any MotionSource)?
    private var clock: BoardClock
    private let scratch: UnsafeMutableBufferPointer<SensorReading>
    /// The board time reached so far.
    public private(set) var nowNanoseconds: Int64 = 0
    /// Told when a chip misbehaves without an error (outputs stuck, no data): the stream goes
    /// on, the episode is counted in `status`, and this says what happened and what to do.
    public var onWarning: ((String) -> Void)?
    /// Told each new attitude of a chip that computes its own (BNO08x, BNO055) when its section
    /// says `chip-fusion = on`: the chip's attitude in device axes with its steps, classes and
    /// calibration status, after the readings of the same read. Counted in `status`.
    public var onChipFusion: ((ChipFusionReading) -> Void)?
    /// Told when a chip that calibrates itself (a BNO055) has learned a calibration profile
    /// worth keeping: the chip's label and the profile's values, to save in the board's
    /// calibration file (`BoardCalibration.bno055Profiles`) and give back at the next start
    /// (`BoardDescription.withStoredProfiles`).
    public var onChipProfile: ((_ label: String, _ values: [Int16]) -> Void)? {
        didSet {
            for session in sessions {
                guard let learning = session.reader as? any ProfileLearningReader else { continue }
                let (label, report) = (session.chip.label, onChipProfile)
                learning.onLearnedProfile = report.map { report in { report(label, $0) } }
            }
        }
    }

    /// Brings every chip up. `root` resolves relative `motion` paths (`BoardLocations.motionFile`);
    /// `speed` paces a simulated board against the wall clock (1: real time, 0: as fast as
    /// possible); boards with real chips always run in real time.
    public init(_ description: BoardDescription, root: String, speed: Double = 1) throws(EngineError) {
        self.description = description
        var motion: (any MotionSource)?
        if let path = description.chips.compactMap(\.motionRecording).first {
            motion = syntheticMotion(named: path)
            if motion == nil { motion = try RecordedMotion(path: BoardLocations.motionFile(path, root: root)) }
        }
        self.motion = motion
        var sessions: [ChipSession] = []
        var buses: [Int: LinuxI2CBus] = [:]
        var contexts: [String: IIOContext] = [:]
        for chip in description.chips {
            sessions.append(try Self.session(for: chip, motion: motion, buses: &buses, contexts: &contexts))
        }
        self.sessions = sessions
        waitingSessions = sessions.filter { $0.trigger.fileDescriptor != nil }
        descriptorWait = waitingSessions.isEmpty ? nil : DescriptorWait(waitingSessions.compactMap(\.trigger.fileDescriptor))
        let simulated = description.chips.allSatisfy { $0.bus == .emulated }
        clock = BoardClock(simulated: simulated, speed: speed)
        for session in sessions {
            if case .iioBuffer(let reader) = session.trigger { reader.originNanoseconds = clock.originNanoseconds }
        }
        // Room for a whole FIFO in one read (the largest, the LSM6DS3TR-C's 341 frames, is 682
        // readings): `SampleTiming.settle` takes a read's newest reading for the chip's latest
        // sample, which a read the buffer cut short would not hold.
        scratch = .allocate(capacity: 1024)
        scratch.initialize(repeating: SensorReading(timestampNanoseconds: 0, value: .temperature(.zero)))
    }

    deinit { scratch.deallocate() }

    /// Whether a simulated board's recording has ended.
    public var isFinished: Bool { motion?.isFinished ?? false }

    /// Plays a simulated board's ended recording again from the board time reached, on the
    /// running chips: their sample schedules, the board clock and the loss counts go on, so the
    /// interval across the loop is an ordinary one (one period) and judged like any other. A
    /// new runtime instead would restart every chip at a new origin, leaving a gap between the
    /// two runtimes that depends on how late the engine was and that no counter sees.
    public func startRecordingOver() throws(EngineError) {
        try motion?.startOver(at: nowNanoseconds)
    }

    /// Whether the board runs on virtual time (every chip emulated).
    public var isSimulated: Bool { clock.isSimulated }

    /// CLOCK_MONOTONIC (ns) at board time 0: a reading stamped t was taken at this + t.
    public var monotonicOriginNanoseconds: Int64 { clock.originNanoseconds }

    /// What each chip has done so far, in board order.
    public var status: [ChipStatus] {
        sessions.map { session in
            var status = session.status
            status.recoveries = session.reader.recoveries
            status.overflows = session.reader.overflows
            status.driverCounters = session.reader.driverCounters
            for channel in 0..<SensorChannel.allCases.count {
                status.droppedSamples[channel] = session.timing.droppedByChannel[channel]
                status.duplicateSamples[channel] = session.timing.duplicatedByChannel[channel]
            }
            return status
        }
    }

    /// Waits until the next moment something is due (a data-ready edge, a chip's timer or
    /// watchdog), but not past board time `limit`, reads what is due and delivers its
    /// readings; returns the board time reached. Readings of one chip come in time order; chips
    /// read at the same moment come in board order.
    @discardableResult
    public func step(notAfter limit: Int64 = .max, deliver: (SensorReading) -> Void) throws(EngineError) -> Int64 {
        var due = limit
        for session in sessions { due = min(due, session.nextDueNanoseconds) }
        if let descriptorWait {
            switch descriptorWait.wait(untilMonotonic: due == .max ? .max : clock.originNanoseconds + due) {
            case .failure(let error):
                throw .dataReadyWaitFailed(errno: error.code)
            case .success(let index?):
                try serviceDescriptor(waitingSessions[index], deliver: deliver)
                return nowNanoseconds
            case .success(nil):
                break
            }
        } else {
            clock.wait(until: due)
        }
        // Real boards read at the time they woke; simulated ones exactly when due.
        let now = clock.isSimulated ? due : max(due, clock.now())
        nowNanoseconds = max(nowNanoseconds, now)
        for session in sessions where session.nextDueNanoseconds <= due {
            let byEdge = session.nextEmulatedEdgeNanoseconds.map { $0 <= due } ?? false
            try read(session, at: now, sampleTime: now, byEdge: byEdge, deliver: deliver)
        }
        if let failure = motion?.failure { throw .recording(failure) }
        return nowNanoseconds
    }

    /// Runs until just before board time `end` (or until a simulated board's recording ends),
    /// delivering every reading stamped before `end`.
    public func run(untilNanoseconds end: Int64, deliver: (SensorReading) -> Void) throws(EngineError) {
        while !isFinished && nowNanoseconds < end - 1 { try step(notAfter: end - 1, deliver: deliver) }
    }

    /// Reads a chip whose descriptor is readable: an IIO buffer's scans (stamped by the
    /// kernel), or a line's queued edges, once, stamped with the newest edge.
    private func serviceDescriptor(_ session: ChipSession, deliver: (SensorReading) -> Void) throws(EngineError) {
        if case .iioBuffer = session.trigger {
            nowNanoseconds = max(nowNanoseconds, clock.now())
            try read(session, at: nowNanoseconds, sampleTime: nowNanoseconds, byEdge: true, deliver: deliver)
            return
        }
        guard case .line(let line) = session.trigger else { return }
        let queued: (count: Int, newest: DataReadyLine.Event)?
        do { queued = try line.readQueuedEdges() } catch { throw .gpio(label: session.chip.label, error) }
        guard let queued else { return }
        let edgeTime = clock.boardTime(monotonic: queued.newest.timestampNanoseconds)
        nowNanoseconds = max(nowNanoseconds, clock.now())
        try read(session, at: nowNanoseconds, sampleTime: min(edgeTime, nowNanoseconds), byEdge: true, deliver: deliver)
    }

    /// Consecutive failed reads of one chip, all transient bus errors, after which the stream
    /// stops with the last error: a glitch is ridden out, a chip gone for good is reported.
    static let transientFailureLimit = 5

    /// Reads everything the chip has (emulators first run up to `time`) and delivers it mounted.
    /// A transient bus error (no acknowledge, EIO, timeout, short transfer: a glitch on the
    /// wires) is counted and the read retried on the chip's timer: a FIFO chip keeps its samples
    /// meanwhile, so none is lost, and a register chip loses at most the samples of the failed
    /// reads. Only `transientFailureLimit` failures in a row stop the stream.
    private func read(_ session: ChipSession, at time: Int64, sampleTime: Int64, byEdge: Bool,
                      deliver: (SensorReading) -> Void) throws(EngineError) {
        do {
            try readAll(session, at: time, sampleTime: sampleTime, byEdge: byEdge, deliver: deliver)
            session.consecutiveFailures = 0
            if let finding = session.stall.check(nowNanoseconds: time, samplePeriodNanoseconds: session.reader.samplePeriodNanoseconds,
                                                 startNanoseconds: session.firstReadNanoseconds ?? time) {
                report(finding, session)
            }
        } catch let error where error.isTransientBusError && session.consecutiveFailures + 1 < Self.transientFailureLimit {
            session.consecutiveFailures += 1
            session.status.busErrors += 1
            session.status.lastBusError = error.description
            session.scheduleAfterRead(at: time, byEdge: false)
            return
        }
        session.scheduleAfterRead(at: time, byEdge: byEdge)
    }

    /// Runs the chip's emulator to `time`, then reads until the chip has nothing more (a FIFO
    /// may hold more than the buffer), delivering every admitted reading mounted. Errors go
    /// to the caller as they are.
    func readAll(_ session: ChipSession, at time: Int64, sampleTime: Int64, byEdge: Bool,
                 deliver: (SensorReading) -> Void) throws(EngineError) {
        session.emulation?.advance(time)
        while true {
            let count = try session.reader.read(sampleTime: sampleTime, into: scratch)
            session.timing.settle(scratch, count: count, readTime: time, byEdge: byEdge)
            for index in 0..<count where session.timing.admit(scratch[index]) {
                if let finding = session.stall.observe(scratch[index]) { report(finding, session) }
                deliver(Self.mounted(scratch[index], session.chip.mount))
                session.status.readings += 1
            }
            if count < scratch.count { break }
        }
        passOnChipFusion(session)
    }

    /// The chip's own fusion, once per new attitude, its attitude turned into device axes.
    private func passOnChipFusion(_ session: ChipSession) {
        guard let onChipFusion, let fusion = session.fusion, var reading = fusion.latestChipFusion,
              reading.timestampNanoseconds > session.lastFusionNanoseconds else { return }
        session.lastFusionNanoseconds = reading.timestampNanoseconds
        // chip = M⁻¹ · device, so (device axes → frame) = (chip axes → frame) ⊗ m*.
        reading.attitude = reading.attitude * session.mountRotation.conjugate
        reading.gameAttitude = reading.gameAttitude.map { $0 * session.mountRotation.conjugate }
        session.status.chipFusionReadings += 1
        onChipFusion(reading)
    }

    /// Counts a stall and tells `onWarning`: the chip answers, but what it says is not a sensor's.
    private func report(_ finding: StallDetector.Finding, _ session: ChipSession) {
        let chip = "Chip \"\(session.chip.label)\" (\(session.chip.driver))"
        switch finding {
        case .stuck(let channel):
            session.status.stuckEpisodes += 1
            onWarning?("\(chip): its \(SensorKind(channel).recordingName) output has not changed in \(StallDetector.stuckRepeats) readings, "
                       + "which a working sensor's noise never allows: the sensing element or its ADC is stuck. "
                       + "Power-cycle the board; if it persists, the chip is damaged.")
        case .silent(let nanoseconds):
            session.status.silentEpisodes += 1
            onWarning?("\(chip): no reading for \(Double(nanoseconds / 1_000_000) / 1000) s although it samples every "
                       + "\(Double(session.reader.samplePeriodNanoseconds / 1000) / 1000) ms: \(session.reader.silenceExplanation).")
        }
    }

    /// Opens one chip: its bus or IIO device, its driver, and what triggers its reads.
    private static func session(for chip: BoardDescription.Chip, motion: (any MotionSource)?, buses: inout [Int: LinuxI2CBus],
                                contexts: inout [String: IIOContext]) throws(EngineError) -> ChipSession {
        let reader: any ChipReader
        var emulation: Emulation?
        if let family = SerialChipFamily.all[chip.driver] {
            (reader, emulation) = try serialReader(for: chip, family: family, motion: motion)
            return ChipSession(chip: chip, reader: reader, emulation: emulation, trigger: .timer)
        }
        switch chip.bus {
        case .iio(let device, let uri):
            reader = try iioReader(for: chip, device: device, uri: uri, contexts: &contexts)
        case .serial:
            preconditionFailure("the board parser admits a serial bus only for serial families")  // our bug if reached
        case .emulated, .i2c:
            guard let family = ChipFamily.all[chip.driver] else {
                preconditionFailure("the board parser admits only known drivers")  // our bug if reached
            }
            let bus: BoardBus
            if case .i2c(let number) = chip.bus {
                if let open = buses[number] {
                    bus = BoardBus(.linux(open))
                } else {
                    do {
                        let linux = try LinuxI2CBus(bus: number)
                        buses[number] = linux
                        bus = BoardBus(.linux(linux))
                    } catch {
                        throw .chip(label: chip.label, .bus(error))
                    }
                }
            } else {
                let emulated = family.emulate(chip, EmulatedSenses(motion: motion, chip: chip, noise: family.noise))
                guard let emulatedBus = emulated.bus else { preconditionFailure("an I2C family's emulator is its bus") }  // our bug if reached
                emulation = emulated
                bus = BoardBus(.emulated(emulatedBus))
            }
            do { reader = try family.open(bus, chip) } catch { throw .chip(label: chip.label, error) }
        }
        let trigger: ChipSession.Trigger
        switch (chip.interruptLine, chip.bus) {
        case (_, .iio):
            // An IIO chip's interrupt belongs to its kernel driver; its buffer wakes us.
            trigger = (reader as? IIOBufferReader).map { .iioBuffer($0) } ?? .timer
        case (nil, _):
            trigger = .timer
        case (_, .emulated):
            trigger = .emulatedPin
        case (_, .serial):
            trigger = .timer
        case (let name?, .i2c):
            do { trigger = .line(try DataReadyLine(name: name, consumer: "opencoremotion \(chip.label)")) } catch {
                throw .gpio(label: chip.label, error)
            }
        }
        return ChipSession(chip: chip, reader: reader, emulation: emulation, trigger: trigger)
    }

    /// Opens a chip on a UART (its port, or its emulator feeling the board's motion). A UART
    /// has no data-ready line: the chip is polled.
    private static func serialReader(for chip: BoardDescription.Chip, family: SerialChipFamily,
                                     motion: (any MotionSource)?) throws(EngineError) -> (any ChipReader, Emulation?) {
        switch chip.bus {
        case .serial(let device):
            do { return (family.open(BoardSerialLine(.port(try SerialPort(path: device))), chip), nil) } catch {
                throw .chip(label: chip.label, .serial(error))
            }
        default:
            let emulator = family.emulate(EmulatedSenses(motion: motion, chip: chip, noise: family.noise))
            return (family.open(BoardSerialLine(.emulated(emulator)), chip), .stream(emulator))
        }
    }

    /// Opens the chip's IIO device (one context per URI), setting its rate if the board asks.
    private static func iioReader(for chip: BoardDescription.Chip, device name: String, uri: String,
                                  contexts: inout [String: IIOContext]) throws(EngineError) -> any ChipReader {
        do {
            let context = try contexts[uri] ?? IIOContext(uri: uri)
            contexts[uri] = context
            guard let device = context.sensorDevices().first(where: { $0.name == name }) else {
                let present = context.sensorDevices().map(\.name)
                throw EngineError.iioDeviceMissing(label: chip.label, device: name, uri: uri, present: present)
            }
            var rate = device.samplingFrequency ?? 10
            if let requested = chip.rateHertz, !device.availableSamplingFrequencies.isEmpty {
                rate = try device.setSamplingFrequency(nearest: Double(requested))
            }
            let period = Int64(1e9 / max(rate, 0.1))
            guard case .buffer(let trigger) = chip.iioCapture else {
                return IIOAttributeReader(device, label: chip.label, samplePeriodNanoseconds: period)
            }
            // A few scans per wake-up (about 20 ms at most), so latency stays low.
            let scans = max(1, min(16, Int(0.02 * rate)))
            return IIOBufferReader(try IIOBufferedCapture(device: device, trigger: trigger, scansPerRefill: scans),
                                   label: chip.label, samplePeriodNanoseconds: period)
        } catch let error as EngineError {
            throw error
        } catch let error as IIOError {
            throw .iio(label: chip.label, error)
        } catch {
            throw .iio(label: chip.label, IIOError(context: uri, problem: "\(error)"))
        }
    }

    /// The reading in device axes: vectors permuted and signed per the board's `mount`.
    static func mounted(_ reading: SensorReading, _ mount: BoardDescription.AxisMapping) -> SensorReading {
        func map(_ vector: Vector3) -> Vector3 {
            func axis(_ index: Int) -> Q16_16 {
                let (source, sign) = mount.axes[index]
                let component = source == 0 ? vector.x : source == 1 ? vector.y : vector.z
                return sign < 0 ? -component : component
            }
            return Vector3(x: axis(0), y: axis(1), z: axis(2))
        }
        var result = reading
        switch reading.value {
        case .acceleration(let vector): result.value = .acceleration(map(vector))
        case .angularVelocity(let vector): result.value = .angularVelocity(map(vector))
        case .magneticField(let vector): result.value = .magneticField(map(vector))
        case .pressure, .temperature: break
        }
        return result
    }
}
