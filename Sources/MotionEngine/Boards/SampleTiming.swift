public import MotionAlgorithms

/// Where a chip's sample timestamps come from (`ChipStatus.timestampSource`): never from when
/// the runtime happened to read the chip, except where the last case says so.
public enum TimestampSource: String, Sendable, Equatable {
    /// The data-ready edge that announced the sample (the kernel's timestamp of a real line, the
    /// emulator's pin); FIFO frames before it back-dated at the sample period.
    case dataReadyEdge = "data-ready edge"
    /// The kernel's IIO timestamp, taken in its interrupt or trigger handler.
    case kernel = "kernel IIO timestamp"
    /// The chip's own sample schedule: found by polling (its data-ready status, its FIFO), each
    /// sample stamped one period after the previous one, kept inside the window in which it
    /// must have appeared (after the previous poll, not after this one).
    case sampleSchedule = "chip sample schedule"
    /// The read: a kernel IIO device read through sysfs (its driver measures when asked), or an
    /// IIO buffer without a timestamp channel (the kernel gave none).
    case read = "read time"
}

/// One chip's timestamps on a running board: stamps the samples of polled reads on the chip's
/// sample schedule, and counts per sensor channel the samples lost (an interval spanning more
/// than 1.5 periods: a FIFO overflow, a missed data-ready edge, a reset chip) and the samples
/// delivered again (a timestamp not after the previous one: withheld from the stream, so
/// timestamps strictly increase). Fixed storage: nothing is allocated per reading.
struct SampleTiming {
    let source: TimestampSource
    private(set) var samplePeriodNanoseconds: Int64
    /// Samples missing from the stream, and samples withheld as repeats, over all channels.
    private(set) var dropped = 0
    private(set) var duplicated = 0
    /// Per channel (by raw value): the same counts, and the latest timestamp delivered.
    private(set) var droppedByChannel = InlineArray<5, Int>(repeating: 0)
    private(set) var duplicatedByChannel = InlineArray<5, Int>(repeating: 0)
    private var lastTimestamps = InlineArray<5, Int64>(repeating: .min)
    /// Per channel, after a rate change: the longer of the two periods, against which the one
    /// interval spanning the change is judged (0: no change pending).
    private var spanningPeriods = InlineArray<5, Int64>(repeating: 0)
    /// Board time of the previous read, and the newest sample's stamp so far.
    private var lastReadNanoseconds: Int64?
    private var newestStampNanoseconds: Int64?

    /// Per channel, a period longer than the chip's for a sensor that comes with some samples
    /// only (0: the chip's period).
    private var channelPeriods = InlineArray<5, Int64>(repeating: 0)

    init(source: TimestampSource, samplePeriodNanoseconds: Int64, channelPeriod: (SensorChannel) -> Int64 = { _ in 0 }) {
        self.source = source
        self.samplePeriodNanoseconds = max(1, samplePeriodNanoseconds)
        for channel in SensorChannel.allCases where channelPeriod(channel) > samplePeriodNanoseconds {
            channelPeriods[Int(channel.rawValue)] = channelPeriod(channel)
        }
    }

    /// After a read at `readTime` gave `count` readings (stamped by the reader: the newest at the
    /// read's sample time, older FIFO frames a period apart): a polled read's readings (a timer's,
    /// or a data-ready line's watchdog read) move onto the chip's schedule. The newest sample is
    /// due `frames` periods after the previous newest; it appeared after the previous read (else
    /// that read would have taken it), within the last period (it is the chip's latest) and by
    /// this read, so a due time before that window moves on by whole periods (samples were lost
    /// while the chip went unread: the interval shows it) and one after it is pulled back to the
    /// read (the chip runs fast).
    mutating func settle(_ readings: UnsafeMutableBufferPointer<SensorReading>, count: Int, readTime: Int64, byEdge: Bool) {
        defer { lastReadNanoseconds = readTime }
        guard count > 0 else { return }
        var newest = Int64.min, oldest = Int64.max
        for index in 0..<count {
            newest = max(newest, readings[index].timestampNanoseconds)
            oldest = min(oldest, readings[index].timestampNanoseconds)
        }
        defer { newestStampNanoseconds = max(newestStampNanoseconds ?? .min, newest) }
        guard !byEdge, source == .sampleSchedule || source == .dataReadyEdge, let previous = newestStampNanoseconds, let lastRead = lastReadNanoseconds else { return }
        let period = samplePeriodNanoseconds
        let frames = (newest - oldest + period / 2) / period + 1
        // The newest sample is the chip's latest: taken within the last period, too.
        let windowStart = max(lastRead, readTime - period)
        var due = previous + frames * period
        if due <= windowStart { due += ((windowStart - due) / period + 1) * period }
        due = min(due, readTime)
        let shift = due - newest
        guard shift != 0 else { return }
        for index in 0..<count { readings[index].timestampNanoseconds += shift }
        newest = due
    }

    /// The chip now samples every `samplePeriodNanoseconds` (its FIFO drained just before and
    /// flushed since). Its last sample at the old rate came within an old period before the
    /// change, its first at the new rate comes within a new period after it, so the interval
    /// spanning the change is at most the sum of the two: it is judged against the longer
    /// period or two thirds of the sum, whichever is larger (1.5 times that covers the sum),
    /// as an interval at one rate is against its own. Later intervals are judged against the
    /// new period; the schedule (`settle`) goes on from the newest stamp, one new period per frame.
    mutating func rateChanged(samplePeriodNanoseconds period: Int64) {
        let old = samplePeriodNanoseconds, new = max(1, period)
        let spanning = max(max(old, new), (2 * (old + new) + 2) / 3)
        for channel in 0..<5 where lastTimestamps[channel] != .min { spanningPeriods[channel] = spanning }
        for channel in 0..<5 { channelPeriods[channel] = 0 }  // only FIFO chips change rate: one period for all
        samplePeriodNanoseconds = new
    }

    /// Whether `reading` goes on to the stream: not when its timestamp is not after its
    /// channel's previous one (counted as duplicated). Counts the samples an interval of more
    /// than 1.5 periods skipped as dropped.
    mutating func admit(_ reading: SensorReading) -> Bool {
        let channel = Int(reading.value.channel.rawValue)
        let time = reading.timestampNanoseconds
        let last = lastTimestamps[channel]
        guard last != .min else {
            lastTimestamps[channel] = time
            return true
        }
        let interval = time - last
        if interval <= 0 {
            duplicated += 1
            duplicatedByChannel[channel] += 1
            return false
        }
        let period = max(samplePeriodNanoseconds, spanningPeriods[channel], channelPeriods[channel])
        spanningPeriods[channel] = 0
        if 2 * interval > 3 * period {
            let missing = Int((interval + period / 2) / period) - 1
            dropped += missing
            droppedByChannel[channel] += missing
        }
        lastTimestamps[channel] = time
        return true
    }
}

extension BoardRuntime {
    /// Samples of `channel` lost and repeated so far, over the board's chips (nothing allocated:
    /// the engine asks after every step).
    public func sampleLoss(_ channel: SensorChannel) -> SampleLoss {
        var loss = SampleLoss()
        for session in sessions {
            loss.dropped += session.timing.droppedByChannel[Int(channel.rawValue)]
            loss.duplicated += session.timing.duplicatedByChannel[Int(channel.rawValue)]
        }
        return loss
    }
}
