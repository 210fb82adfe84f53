internal import Glibc

/// How much a `HistoryStore` keeps and how often it makes it durable. Times are ns.
public struct HistoryConfiguration: Sendable {
    public static let hour: Int64 = 3_600_000_000_000
    public static let day: Int64 = 24 * hour

    /// Core Motion's windows: pedometer and activity 7 days, CMSensorRecorder 3 days. Data is
    /// deleted a whole segment at a time, so up to `segmentSpanNanoseconds` more is kept.
    public var pedometerRetentionNanoseconds: Int64 = 7 * day
    public var activityRetentionNanoseconds: Int64 = 7 * day
    public var accelerometerRetentionNanoseconds: Int64 = 3 * day
    /// Each kind's log is cut into files this long (1 h): the unit of pruning, and of what a
    /// query reads (an hour of 50 Hz accelerometer is about 0.9 MB).
    public var segmentSpanNanoseconds: Int64 = hour
    /// CMSensorRecorder's rate (50 Hz): a gap of more than two periods between samples starts
    /// a new continuity run.
    public var accelerometerPeriodNanoseconds: Int64 = 20_000_000
    /// `commit` makes data durable (fdatasync) when this much real time (CLOCK_MONOTONIC) has
    /// passed since the last sync: a power cut loses at most this much plus the uncommitted
    /// second, a killed process only the uncommitted second. 30 s keeps an SD card's writes
    /// near the data's own size (each sync programs at least one flash page per file).
    public var syncIntervalNanoseconds: Int64 = 30_000_000_000
    /// While commits fail (a full disk, a read-only file system), at most this much
    /// accelerometer history waits in memory for the disk (10 minutes: 30 000 samples at 50 Hz,
    /// under half a megabyte); later samples are dropped and counted
    /// (`HistoryStore.droppedAccelerometerSamples`, `unwrittenAccelerometerSamples`), where
    /// holding them all grew the daemon by 70 MB a day. Steps, floors and activity are a
    /// hundredth of that and all wait.
    public var maximumUnwrittenNanoseconds: Int64 = 600_000_000_000
    /// Where torn tails, damage and failed deletions are told (one line each, for people).
    public var report: @Sendable (String) -> Void = HistoryConfiguration.reportToStandardError

    public init() {}

    public static let reportToStandardError: @Sendable (String) -> Void = { message in
        let line = "motion history: \(message)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }
}
