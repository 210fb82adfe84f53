public import MotionEngine
internal import Glibc

/// One board's motion history on disk, persistent, bounded and crash-safe: pedometer records
/// (7 days), activity updates (7 days) and CMSensorRecorder's 50 Hz accelerometer (3 days),
/// for the daemon to answer Core Motion's history queries across restarts and reboots.
///
/// **Why an append-only log and not SQLite.** Measured for one hour of one-second commits,
/// in bytes handed to the kernel: SQLite in WAL mode (a 300-byte blob of 50 packed samples and
/// one indexed step row a commit) wrote 49.6 MB with 4 KB pages and 16.7 MB with 1 KB pages,
/// because every commit rewrites whole B-tree pages (the table's last leaf, the index's) into
/// the WAL and again at checkpoints; this log writes each record once: 1.16 MB in the first
/// hour of `StorageSizeTests` (50 Hz accelerometer from a real walk, a step every 5 s), 14 to 43
/// times less wear on an SD card. Three days of it take 85 MB on disk. The queries need
/// nothing SQL gives (time ranges over records appended in time order), there is no new
/// dependency (zlib, already linked, gives the CRC-32), and torn tails are found by our own
/// CRCs, which the power-cut test checks directly.
///
/// **Layout.** `directory/accelerometer/`, `pedometer/`, `activity/`: one `SegmentedLog` each,
/// hour-long segment files of CRC-checked blocks (`LogBlock`), one block per kind per commit.
///
/// **Writing.** `append` buffers in memory; `commit` (the owner calls it about once a second)
/// writes each kind's buffer as one block with one `write(2)`, deletes segments past retention
/// (whole files, a batch an hour), and every `syncIntervalNanoseconds` of real time (30 s)
/// `fdatasync`s. What `commit` returned from survives `kill -9`; what the last `sync` covered
/// survives a power cut. A kill during `commit` may leave some kinds of that batch stored and
/// not others (one block per kind): none of it was reported stored. Queries read committed
/// data only.
///
/// **Clock.** Times are ns on one clock that must go on across reboots (CLOCK_REALTIME for the
/// daemon). Within a kind they never go back: an accelerometer sample not after the previous
/// one is dropped (counted in `droppedAccelerometerSamples`); steps and floors are booked as
/// `PedometerHistory` books them, activity updates as `ActivityHistory` records them.
///
/// Not thread-safe: one owner (the daemon's history thread) calls it.
public final class HistoryStore {
    public let directory: String
    public let configuration: HistoryConfiguration
    let accelerometerLog: SegmentedLog
    let pedometerLog: SegmentedLog
    let activityLog: SegmentedLog

    /// How far in the past a step may be booked relative to the newest pedometer record (a
    /// bout's steps are credited from its first step, seconds back); older is booked at this
    /// bound. Keeps queries to the segments around their range.
    static let pedometerLatenessNanoseconds: Int64 = 600_000_000_000

    /// The most accelerometer samples buffered while commits fail (`maximumUnwrittenNanoseconds`).
    private var maximumPendingSamples: Int {
        Int(configuration.maximumUnwrittenNanoseconds / max(configuration.accelerometerPeriodNanoseconds, 1))
    }

    // Buffered until the next commit.
    private var pendingSamples: [AccelerometerCodec.Quantized] = []
    private var pendingSamplesRun: Int64 = 0
    private var pendingPedometer: [PedometerRecord] = []
    private var pendingActivity: [MotionActivityUpdate] = []
    private var pendingActivityTimes: [Int64] = []

    // What the next record is booked against (restored from the logs on open).
    private var lastSampleTime: Int64?
    private var currentRun: Int64 = 0
    /// The next sample starts a new continuity run whatever its gap (`startNewRun`).
    private var newRunPending = false
    private var lastStepTime: Int64?
    private var lastFloorTime: Int64?
    private var newestPedometerTime: Int64?
    private var lastActivityTime: Int64?
    /// The newest committed time of any kind: "now" for retention and for the ongoing activity.
    public private(set) var newestCommittedNanoseconds: Int64?
    private var lastSync = HistoryStore.monotonicNanoseconds()

    /// Accelerometer samples not after the previous one, dropped since open.
    public private(set) var droppedAccelerometerSamples = 0
    /// Of those, the samples dropped because commits failed for longer than the configuration's
    /// `maximumUnwrittenNanoseconds` (the rest came out of order).
    public private(set) var unwrittenAccelerometerSamples = 0

    /// Opens (creating it if missing) the history in `directory`, continuing after what is
    /// there; a torn tail left by a crash or power cut is cut off and reported.
    public init(directory: String, configuration: HistoryConfiguration = HistoryConfiguration()) throws(HistoryError) {
        self.directory = directory
        self.configuration = configuration
        let span = configuration.segmentSpanNanoseconds, report = configuration.report
        accelerometerLog = try SegmentedLog(directory: "\(directory)/accelerometer", kind: "accelerometer", spanNanoseconds: span, report: report)
        pedometerLog = try SegmentedLog(directory: "\(directory)/pedometer", kind: "pedometer", spanNanoseconds: span,
                                        latenessNanoseconds: Self.pedometerLatenessNanoseconds, report: report)
        activityLog = try SegmentedLog(directory: "\(directory)/activity", kind: "activity", spanNanoseconds: span, report: report)
        try restore()
    }

    /// The history folder of one board under a root (e.g. /var/lib/motiond): `root/BOARD`,
    /// with the board file's name without folder or `.board`.
    public static func directory(root: String, board: String) -> String {
        var name = board.split(separator: "/").last.map(String.init) ?? board
        if name.hasSuffix(".board") { name.removeLast(6) }
        return "\(root)/\(name)"
    }

    /// Bytes handed to `write(2)` since open, all kinds (what an SD card is asked to store).
    public var bytesWritten: Int { accelerometerLog.bytesWritten + pedometerLog.bytesWritten + activityLog.bytesWritten }

    // MARK: Recording

    /// Buffers one accelerometer sample (g) until the next commit.
    public func append(_ sample: AccelerometerSample) {
        // Times within a block are kept to 1 µs from its first sample: round here, so that what
        // later decisions (order, runs) see is exactly what a query will read back.
        var time = sample.timeNanoseconds
        if let first = pendingSamples.first?.time { time = first + ((time - first) + 500) / 1000 * 1000 }
        // Commits have failed for long: the samples waiting in memory are bounded (the next one
        // kept after the disk recovers starts a new run: the gap is real).
        guard pendingSamples.count < maximumPendingSamples else {
            droppedAccelerometerSamples += 1
            unwrittenAccelerometerSamples += 1
            return
        }
        if let last = lastSampleTime {
            guard time > last else { droppedAccelerometerSamples += 1; return }
            if newRunPending || time - last > 2 * configuration.accelerometerPeriodNanoseconds { currentRun = time }
        } else {
            currentRun = time
        }
        newRunPending = false
        if pendingSamples.isEmpty { pendingSamplesRun = currentRun }
        lastSampleTime = time
        pendingSamples.append(AccelerometerCodec.Quantized(
            time: time, axes: (AccelerometerCodec.quantize(sample.x), AccelerometerCodec.quantize(sample.y), AccelerometerCodec.quantize(sample.z))))
    }

    /// The next accelerometer sample starts a new continuity run, however soon it follows the
    /// last one: the source restarted (a new daemon's engine), so the samples on either side
    /// are not one stream even when the break was shorter than two periods. Without this, a
    /// reopened store continues the run its log ends with when the gap allows (a writer that
    /// resumes the same stream).
    public func startNewRun() { newRunPending = true }

    /// Buffers one pedometer output (steps and floors; events are not history), booked as
    /// `PedometerHistory.append` books it.
    public func append(_ output: PedometerOutput) {
        switch output {
        case .step(let requested, let length):
            var time = max(requested, lastStepTime ?? .min)
            if let newest = newestPedometerTime { time = max(time, newest - Self.pedometerLatenessNanoseconds) }
            var active: Int64 = 0
            if let previous = lastStepTime, time > previous, time - previous < 2_000_000_000 { active = time - previous }
            lastStepTime = time
            pendingPedometer.append(.step(time: time, lengthMicrometres: Int64((length * 1e6).rounded()), activeNanoseconds: active))
        case .floor(let requested, let ascended):
            var time = max(requested, lastFloorTime ?? .min)
            if let newest = newestPedometerTime { time = max(time, newest - Self.pedometerLatenessNanoseconds) }
            lastFloorTime = time
            pendingPedometer.append(.floor(time: time, ascended: ascended))
        case .event:
            return
        }
        newestPedometerTime = max(newestPedometerTime ?? .min, pendingPedometer[pendingPedometer.count - 1].time)
    }

    /// Buffers one activity update (a transition or a confidence change).
    public func append(_ update: MotionActivityUpdate) {
        let time = max(update.deliveredNanoseconds, lastActivityTime ?? .min)
        lastActivityTime = time
        pendingActivity.append(update)
        pendingActivityTimes.append(time)
    }

    /// Writes everything buffered (one block per kind), prunes expired segments, and syncs if
    /// the sync interval has passed. When it returns, the data survives the process being killed.
    public func commit() throws(HistoryError) {
        var newest = newestCommittedNanoseconds ?? .min
        if !pendingSamples.isEmpty {
            let block = AccelerometerCodec.encode(pendingSamples, runIdentifier: pendingSamplesRun,
                                                  periodNanoseconds: configuration.accelerometerPeriodNanoseconds)
            try accelerometerLog.append(block)
            newest = max(newest, block.lastTime)
            pendingSamples.removeAll(keepingCapacity: true)
        }
        if !pendingPedometer.isEmpty {
            // Sorted by time, so a block's first and last times bound it (a bout's first steps
            // may come after a floor booked later in time).
            var records = pendingPedometer
            records.sort { $0.time < $1.time }
            let block = PedometerCodec.encode(records)
            try pedometerLog.append(block)
            newest = max(newest, block.lastTime)
            pendingPedometer.removeAll(keepingCapacity: true)
        }
        if !pendingActivity.isEmpty {
            let block = ActivityCodec.encode(pendingActivity, recordTimes: pendingActivityTimes)
            try activityLog.append(block)
            newest = max(newest, block.lastTime)
            pendingActivity.removeAll(keepingCapacity: true)
            pendingActivityTimes.removeAll(keepingCapacity: true)
        }
        guard newest != .min else { return }
        newestCommittedNanoseconds = newest
        accelerometerLog.prune(before: newest - configuration.accelerometerRetentionNanoseconds)
        pedometerLog.prune(before: newest - configuration.pedometerRetentionNanoseconds)
        activityLog.prune(before: newest - configuration.activityRetentionNanoseconds)
        if Self.monotonicNanoseconds() - lastSync >= configuration.syncIntervalNanoseconds { try sync() }
    }

    /// Makes everything committed survive a power cut (fdatasync of each log; `commit` calls it
    /// every `syncIntervalNanoseconds`).
    public func sync() throws(HistoryError) {
        try accelerometerLog.sync()
        try pedometerLog.sync()
        try activityLog.sync()
        lastSync = Self.monotonicNanoseconds()
    }

    /// Commits and syncs: call before exiting.
    public func close() throws(HistoryError) {
        try commit()
        try sync()
    }

    // MARK: Restoring

    /// Picks up where the logs end: the last sample's time and run, the last step and floor,
    /// the last activity time, and "now".
    private func restore() throws(HistoryError) {
        var newest = Int64.min
        if let block = try accelerometerLog.lastBlock(),
           let last = AccelerometerCodec.decode(block, periodNanoseconds: configuration.accelerometerPeriodNanoseconds)?.last {
            lastSampleTime = last.sample.timeNanoseconds
            currentRun = last.runIdentifier
            newest = max(newest, block.lastTime)
        }
        if let block = try activityLog.lastBlock() {
            lastActivityTime = block.lastTime
            newest = max(newest, block.lastTime)
        }
        try restorePedometer()
        if let pedometer = newestPedometerTime { newest = max(newest, pedometer) }
        if newest != .min { newestCommittedNanoseconds = newest }
    }

    /// The latest step and floor, from the newest blocks back until both are found.
    private func restorePedometer() throws(HistoryError) {
        for index in pedometerLog.segments.indices.reversed() {
            for block in try pedometerLog.blocks(ofSegment: index).reversed() {
                newestPedometerTime = max(newestPedometerTime ?? .min, block.lastTime)
                for record in PedometerCodec.decode(block)?.reversed() ?? [] {
                    switch record {
                    case .step(let time, _, _): if lastStepTime == nil { lastStepTime = time }
                    case .floor(let time, _): if lastFloorTime == nil { lastFloorTime = time }
                    }
                }
                if lastStepTime != nil, lastFloorTime != nil { return }
            }
        }
    }

    static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
