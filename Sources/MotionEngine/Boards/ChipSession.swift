import Chips
import FixedPoint
import LinuxGPIO
public import MotionAlgorithms

/// One chip on a running board: its reader, what tells the runtime a sample is ready, and its
/// schedule.
final class ChipSession {
    /// What makes the runtime read the chip.
    enum Trigger {
        /// Nothing: the chip is polled every `pollIntervalNanoseconds` on a fixed schedule.
        case timer
        /// The emulated chip's own interrupt pin (a simulated board whose chip names an
        /// `interrupt` line): edges exactly when the emulator produces a sample, if the driver
        /// routed data ready to the pin.
        case emulatedPin
        /// A real GPIO data-ready line, its edges stamped by the kernel.
        case line(DataReadyLine)
        /// An IIO buffer's file descriptor, readable when scans wait (stamped by the kernel).
        case iioBuffer(IIOBufferReader)

        /// The descriptor the runtime waits on, for real lines and IIO buffers.
        var fileDescriptor: Int32? {
            switch self {
            case .timer, .emulatedPin: nil
            case .line(let line): line.fileDescriptor
            case .iioBuffer(let reader): reader.capture.fileDescriptor
            }
        }
    }

    let chip: BoardDescription.Chip
    let reader: any ChipReader
    let emulation: Emulation?
    let trigger: Trigger
    /// Board time of the next read that no edge asks for: the timer's next tick, or the line's
    /// watchdog (a chip reset mid-stream forgets its interrupt routing; this read lets the
    /// driver see the reset and restore it).
    var nextPollNanoseconds: Int64 = 0
    /// Board time of the latest read (none yet: `Int64.min`).
    var lastReadNanoseconds: Int64 = .min
    /// Reads in a row that failed with a transient bus error.
    var consecutiveFailures = 0
    /// Board time of the first read.
    var firstReadNanoseconds: Int64?
    var stall = StallDetector()
    /// Timestamps on the chip's schedule; samples lost and repeated.
    var timing: SampleTiming
    var status: ChipStatus
    /// The chip's own fusion, when the board file asks for it (`chip-fusion = on`).
    let fusion: (any ChipFusionReader)?
    /// The mount as a rotation (identity for a mirroring one, which `chip-fusion` refuses):
    /// turns the chip's attitude into the device's, computed once.
    let mountRotation: Quaternion
    /// The driver's stamp of the latest fusion reading passed on (none yet: `Int64.min`).
    var lastFusionNanoseconds: Int64 = .min
    /// Whether reads follow the trigger's edges (an emulated pin, a line); off while the chip
    /// runs at a rate where it is polled instead (`BoardRuntime.setFIFORate`).
    private(set) var followsEdges = true
    /// How the trigger reads the chip, as `status.trigger` says while it follows its edges.
    private let triggerName: String

    init(chip: BoardDescription.Chip, reader: any ChipReader, emulation: Emulation?, trigger: Trigger) {
        self.chip = chip
        self.reader = reader
        self.emulation = emulation
        self.trigger = trigger
        fusion = chip.chipFusion ? reader as? any ChipFusionReader : nil
        mountRotation = chip.mount.rotation ?? .identity
        let triggerName: String
        switch trigger {
        case .timer: triggerName = "polled every \(Double(reader.pollIntervalNanoseconds) / 1e6) ms"
        case .emulatedPin: triggerName = "emulated data-ready pin"
        case .line(let line): triggerName = "data-ready line \(line.name) (\(line.location))"
        case .iioBuffer(let reader): triggerName = "IIO buffer, trigger \(reader.capture.triggerName ?? "none (chip FIFO)")"
        }
        let source: TimestampSource
        switch trigger {
        case .timer: source = reader is IIOAttributeReader ? .read : .sampleSchedule
        case .emulatedPin, .line: source = .dataReadyEdge
        case .iioBuffer(let reader): source = reader.capture.hasTimestamps ? .kernel : .read
        }
        timing = SampleTiming(source: source, samplePeriodNanoseconds: reader.samplePeriodNanoseconds,
                              channelPeriod: { reader.samplePeriodNanoseconds(of: $0) })
        self.triggerName = triggerName
        status = ChipStatus(label: chip.label, driver: chip.driver, trigger: triggerName,
                            samplePeriodNanoseconds: reader.samplePeriodNanoseconds, timestampSource: source)
        status.channelPeriodsNanoseconds = SensorChannel.allCases.map { reader.samplePeriodNanoseconds(of: $0) }
    }

    /// The emulated pin's next edge (nil: no emulated pin, or it will not rise).
    var nextEmulatedEdgeNanoseconds: Int64? {
        guard followsEdges, case .emulatedPin = trigger, let edge = emulation?.chip.nextDataReadyNanoseconds else { return nil }
        // Never twice at the same instant (a chip re-initialised at t restarts its schedule at t).
        return max(edge, lastReadNanoseconds &+ 1)
    }

    /// When the session is next due without a real edge: an emulated pin's next edge, or the
    /// next poll (timer tick or line watchdog).
    var nextDueNanoseconds: Int64 { min(nextEmulatedEdgeNanoseconds ?? .max, nextPollNanoseconds) }

    /// After a read at `time`: when to read next if no edge comes first. A line that brought
    /// this read is trusted for a watchdog period; a line that stayed silent (a reset chip, a
    /// broken wire, a chip that cannot route data ready) degrades to timer polling until its
    /// edges come back, so no sample is lost meanwhile.
    func scheduleAfterRead(at time: Int64, byEdge: Bool) {
        let isFirstRead = lastReadNanoseconds == .min
        if isFirstRead { firstReadNanoseconds = time }
        lastReadNanoseconds = time
        switch trigger {
        case .timer:
            scheduleNextPoll(after: time)
        case .emulatedPin, .line, .iioBuffer:
            if !followsEdges {
                scheduleNextPoll(after: time)
            } else if byEdge {
                status.edges += 1
                nextPollNanoseconds = time + reader.lineWatchdogNanoseconds
            } else {
                if !isFirstRead { status.watchdogReads += 1 }
                nextPollNanoseconds = time + reader.pollIntervalNanoseconds
            }
        }
    }

    /// The next tick of a fixed polling schedule, so that late reads do not stretch the period.
    private func scheduleNextPoll(after time: Int64) {
        let interval = reader.pollIntervalNanoseconds
        if nextPollNanoseconds <= time { nextPollNanoseconds += ((time - nextPollNanoseconds) / interval + 1) * interval }
    }

    /// The chip was drained at `time` and now samples every `periodNanoseconds`, its reads
    /// following its trigger's edges or not (`edges`): the timing and status take the new
    /// period, and polling restarts from `time` at the reader's new poll interval.
    func rateChanged(periodNanoseconds: Int64, edges: Bool, at time: Int64) {
        timing.rateChanged(samplePeriodNanoseconds: periodNanoseconds)
        status.samplePeriodNanoseconds = periodNanoseconds
        status.channelPeriodsNanoseconds = Array(repeating: periodNanoseconds, count: SensorChannel.allCases.count)
        followsEdges = edges
        let polled = "polled every \(Double(reader.pollIntervalNanoseconds) / 1e6) ms"
        switch trigger {
        case .timer: status.trigger = polled
        case .emulatedPin, .line, .iioBuffer: status.trigger = edges ? triggerName : polled + " (its data-ready edges off at this rate)"
        }
        lastReadNanoseconds = time
        nextPollNanoseconds = time + reader.pollIntervalNanoseconds
    }
}

/// What a chip on a running board has done, for diagnostics (`motionctl stream --status`).
public struct ChipStatus: Sendable, Equatable {
    public var label: String
    public var driver: String
    /// How the chip is read: "polled every 5.0 ms", "data-ready line GPIO17 (gpiochip0 line 17)".
    public var trigger: String
    public var samplePeriodNanoseconds: Int64
    /// Per sensor channel (by raw value): its period, the chip's or a multiple of it (the
    /// ICM-20948's field at 1.1 kHz comes with every 11th sample).
    public var channelPeriodsNanoseconds: [Int64] = []
    /// Where the samples' timestamps come from.
    public var timestampSource: TimestampSource
    /// Readings delivered.
    public var readings = 0
    /// Reads brought by a data-ready edge (edges queued while the runtime was late count once).
    public var edges = 0
    /// Reads made because the chip's data-ready line stayed silent past its watchdog (a reset
    /// chip, a broken wire): the line degrades to timer polling until its edges come back.
    public var watchdogReads = 0
    /// Reads that failed with a transient bus error (NACK, EIO, timeout) and were retried, and
    /// the latest such error's message.
    public var busErrors = 0
    public var lastBusError: String?
    /// Episodes of a chip whose output froze (the same value `StallDetector.stuckRepeats`
    /// times) or that fell silent (no reading for 20 periods, at least 0.5 s).
    public var stuckEpisodes = 0
    public var silentEpisodes = 0
    /// FIFO overflows (samples lost before a drain) and chip resets recovered, from the driver.
    public var overflows = 0
    public var recoveries = 0
    /// Readings of the chip's own fusion passed on (`chip-fusion = on`), one per new attitude.
    public var chipFusionReadings = 0
    /// What the chip's driver counts beyond the counters above (a BNO08x's sequence gaps,
    /// feature refreshes, framing errors), by name, in the driver's order.
    public var driverCounters: [ChipCounter] = []
    /// Samples lost (missing from the stream: a FIFO overflow, a missed data-ready edge, a reset
    /// chip) and samples read again (withheld), per sensor channel (by `SensorChannel` raw value).
    public var droppedSamples = Array(repeating: 0, count: SensorChannel.allCases.count)
    public var duplicateSamples = Array(repeating: 0, count: SensorChannel.allCases.count)

    /// The period of one sensor channel's samples.
    public func samplePeriodNanoseconds(of channel: SensorChannel) -> Int64 {
        Int(channel.rawValue) < channelPeriodsNanoseconds.count ? channelPeriodsNanoseconds[Int(channel.rawValue)] : samplePeriodNanoseconds
    }

    /// Samples lost and repeated of one sensor channel.
    public func loss(_ channel: SensorChannel) -> SampleLoss {
        SampleLoss(dropped: droppedSamples[Int(channel.rawValue)], duplicated: duplicateSamples[Int(channel.rawValue)])
    }
}
