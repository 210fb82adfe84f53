/// Watches the timestamps of one sensor's samples: how many arrived, at what rate, and where
/// the stream had gaps or went wrong.
///
/// Every later stage assumes a steady rate (filters are set up for one sample period), so the
/// engine keeps one monitor per sensor and reports what it saw instead of trusting the nominal
/// rate of a board file or a recording's `rate.*` line. Integer only: the period is tracked in
/// nanoseconds with an exponential moving average whose weight is a power of two, so the result
/// is the same on every platform.
public struct SampleStreamMonitor: Sendable, BitwiseCopyable {
    /// What one timestamp meant for the stream.
    public enum Event: UInt8, Sendable, BitwiseCopyable {
        /// The first sample of the stream.
        case first
        /// Within `gapFactor` periods of the previous sample.
        case regular
        /// Later than `gapFactor` smoothed periods after the previous sample: samples were lost
        /// or the sensor paused. The smoothed period is not updated by a gap.
        case gap
        /// The same timestamp as the previous sample (allowed by the recording format; a
        /// duplicate from a driver that reports at a coarser clock).
        case repeatedTimestamp
        /// Earlier than the previous sample. Never allowed; the sample must not be processed.
        case backwards
    }

    /// Weight of a new period in the moving average, as a right shift: 2⁻⁴ = 1/16, so the
    /// average follows a rate change within about 16 samples while one late sample moves it
    /// by at most 1/16 of its lateness.
    public static let averagingShift: Int64 = 4

    /// An interval longer than this many smoothed periods counts as a gap (2: one lost sample).
    public static let gapFactor: Int64 = 2

    public private(set) var sampleCount: Int64 = 0
    public private(set) var firstTimestampNanoseconds: Int64 = 0
    public private(set) var lastTimestampNanoseconds: Int64 = 0
    /// Moving average of the sample period in nanoseconds; 0 until two samples arrived.
    public private(set) var smoothedPeriodNanoseconds: Int64 = 0
    public private(set) var gapCount: Int64 = 0
    public private(set) var longestGapNanoseconds: Int64 = 0
    public private(set) var repeatedTimestampCount: Int64 = 0
    public private(set) var backwardsCount: Int64 = 0

    @inlinable
    public init() {}

    /// Records one sample's timestamp (nanoseconds on a monotonic clock) and classifies it.
    /// A `.backwards` sample is counted but changes nothing else.
    public mutating func record(timestampNanoseconds timestamp: Int64) -> Event {
        if sampleCount == 0 {
            sampleCount = 1
            firstTimestampNanoseconds = timestamp
            lastTimestampNanoseconds = timestamp
            return .first
        }
        // Subtraction of two monotonic-clock readings: cannot overflow for any clock that runs
        // for less than 292 years.
        let interval = timestamp &- lastTimestampNanoseconds
        if interval < 0 {
            backwardsCount += 1
            return .backwards
        }
        sampleCount += 1
        lastTimestampNanoseconds = timestamp
        if interval == 0 {
            repeatedTimestampCount += 1
            return .repeatedTimestamp
        }
        if smoothedPeriodNanoseconds == 0 {
            smoothedPeriodNanoseconds = interval
            return .regular
        }
        if interval > Self.gapFactor * smoothedPeriodNanoseconds {
            gapCount += 1
            longestGapNanoseconds = max(longestGapNanoseconds, interval)
            return .gap
        }
        // average += (interval - average) / 16, rounded to nearest (ties up): the difference is
        // bounded by gapFactor × average, far from overflow.
        let difference = interval - smoothedPeriodNanoseconds
        smoothedPeriodNanoseconds += (difference + (1 << (Self.averagingShift - 1))) >> Self.averagingShift
        return .regular
    }

    /// The mean rate over the whole stream in millihertz (the kernel's `milli_hz` unit), from
    /// the first and last timestamps; 0 until two distinct timestamps arrived.
    public var averageRateMilliHertz: Int64 {
        let span = lastTimestampNanoseconds - firstTimestampNanoseconds
        guard sampleCount > 1, span > 0 else { return 0 }
        // (count − 1) periods in `span` ns: rate = (count − 1) × 10¹² / span mHz. The product
        // stays below 2⁶³ for up to 9.2 million samples; beyond that divide first.
        let periods = sampleCount - 1
        if periods < 9_000_000 {
            return (periods * 1_000_000_000_000 + span / 2) / span
        }
        return periods * 1_000_000 / max(1, span / 1_000_000)
    }

    /// The current rate in millihertz from the smoothed period; 0 until known.
    public var currentRateMilliHertz: Int64 {
        guard smoothedPeriodNanoseconds > 0 else { return 0 }
        return (1_000_000_000_000 + smoothedPeriodNanoseconds / 2) / smoothedPeriodNanoseconds
    }
}
