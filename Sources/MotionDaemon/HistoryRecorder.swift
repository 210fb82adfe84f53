internal import Glibc
import MotionAlgorithms
import MotionDaemonProtocol
import MotionEngine
package import MotionHistory
package import MotionManagerCore
import Locking

/// The coprocessor part of the daemon: the board's pedometer, activity classifier and 50 Hz
/// accelerometer recorder, run from start to exit whether or not anyone listens, written to
/// the `HistoryStore`, and the history queries answered from it.
///
/// Threads: the engine thread runs the stages (a `ReadingTap`) and the 50 Hz subscription and
/// puts what they produce into `inbox` (wall-clock times, `DaemonClock`); the history thread
/// (`run`) alone owns the store: every `commitIntervalNanoseconds` it appends the inbox and
/// commits, and it answers queued queries (after committing, so a query sees everything
/// recorded until it was asked). A long accelerometer answer goes out ten minutes at a time,
/// only while the client's replies backlog is small, so neither a slow client nor a huge
/// query holds up the commits.
package final class HistoryRecorder: Sendable {
    package let board: LiveBoard
    package let clock: DaemonClock
    package let directory: String
    private let hasBarometer: Bool

    /// How often what was recorded is committed (made to survive `kill -9`).
    package static let commitIntervalNanoseconds: Int64 = 1_000_000_000
    /// CMSensorRecorder's rate.
    package static let recorderIntervalNanoseconds: Int64 = 20_000_000
    /// An accelerometer query may span at most this much (CMSensorRecorder's longest recording).
    package static let longestAccelerometerQueryNanoseconds: Int64 = 12 * 3_600_000_000_000

    private struct Inbox {
        var samples: [AccelerometerSample] = []
        var pedometer: [PedometerOutput] = []
        var activity: [MotionActivityUpdate] = []
        var queries: [Query] = []
        /// Stored pedometer totals wanted by pedometer streams that start before the daemon.
        var baselines: [(from: Int64, to: Int64, baseline: PedometerBaseline)] = []
        var failure: String?
        var stopping = false
    }

    /// A query waiting on the history thread; an accelerometer answer remembers how far it got.
    struct Query: Sendable {
        enum Kind: Sendable {
            case pedometer(from: Int64, to: Int64)
            case activity(from: Int64, to: Int64)
            case accelerometer(next: Int64, to: Int64)
        }
        var kind: Kind
        let request: UInt32
        let outbox: ClientOutbox
    }

    /// What `status` shows about the history.
    package struct Statistics: Sendable {
        package var bytesWritten = 0
        package var commits = 0
        package var droppedSamples = 0
        package var lastError: String?
    }

    private let inbox = Lock(Inbox())
    private let statistics = Lock(Statistics())
    /// The pedometer stage, whose classifier also gives the activity history (one classifier
    /// per sample, not two); touched only by the engine thread (the lock is never contended).
    private let stage: Lock<PedometerStage>
    /// The store, handed to the history thread by `run`.
    private let storeBox: StoreBox

    package init(board: LiveBoard, clock: DaemonClock, store: HistoryStore) throws(DaemonError) {
        self.board = board
        self.clock = clock
        directory = store.directory
        hasBarometer = board.channels.contains(.barometer)
        let profile: PedometerProfile
        do { profile = try PedometerProfile.load() } catch {
            throw DaemonError("the pedometer profile could not be read: \(error)", advice: "Fix or remove it (motionctl calibrate stride writes it).")
        }
        stage = Lock(PedometerStage(stride: profile.stride))
        // This daemon's engine is a new stream: its first sample starts a new continuity run
        // even after a restart quicker than two 50 Hz periods (the gap rule alone would join
        // it to the last daemon's run).
        store.startNewRun()
        storeBox = StoreBox(store)
    }

    package var currentStatistics: Statistics { statistics.withLock { $0 } }

    /// Brings the board up with the stages' tap and the 50 Hz recorder; returns once it runs.
    package func start() throws(DaemonError) {
        let tap = ReadingTap(channels: [.accelerometer, .gyroscope, .barometer, .thermometer]) { [self] event in
            switch event {
            case .reading(let reading): process(reading)
            case .failed(let failure): fail("the board stopped: \(failure)")
            }
        }
        let recorder = EngineSubscription(stream: .accelerometer) { [self] _, event in
            switch event {
            case .sample(let sample):
                let g = sample.coreMotionAcceleration
                let recorded = AccelerometerSample(timeNanoseconds: clock.wallNanoseconds(sample.timestampNanoseconds), x: g.x, y: g.y, z: g.z)
                inbox.withLock { $0.samples.append(recorded) }
            case .failed(let failure):
                fail("the board stopped: \(failure)")
            }
        }
        do throws(MotionManagerError) {
            try board.add(tap)
            try board.add(recorder, intervalNanoseconds: Self.recorderIntervalNanoseconds)
        } catch {
            throw DaemonError("the board \(board.path) could not be brought up: \(error)", advice: "Check the board file and its devices (motionctl probe), then restart motiond.")
        }
    }

    /// One reading through the stage (engine thread).
    private func process(_ reading: SensorReading) {
        stage.withLock { stage in
            // Every reading: the gyroscope's find the closing steps and keep the steps through
            // turns (StepDetector), as they do in a replay.
            stage.process(reading, output: { output in
                if case .event = output { return }
                let wall = clock.wall(output)
                inbox.withLock { $0.pedometer.append(wall) }
            }, activity: { update in
                let wall = clock.wall(update)
                inbox.withLock { $0.activity.append(wall) }
            })
        }
    }

    private func fail(_ message: String) {
        inbox.withLock { if $0.failure == nil { $0.failure = message } }
    }

    // MARK: Queries (any thread)

    package func queryPedometer(request: UInt32, from: Int64, to: Int64, outbox: ClientOutbox) {
        enqueue(Query(kind: .pedometer(from: from, to: to), request: request, outbox: outbox))
    }

    package func queryActivity(request: UInt32, from: Int64, to: Int64, outbox: ClientOutbox) {
        enqueue(Query(kind: .activity(from: from, to: to), request: request, outbox: outbox))
    }

    package func queryAccelerometer(request: UInt32, from: Int64, to: Int64, outbox: ClientOutbox) {
        enqueue(Query(kind: .accelerometer(next: from, to: to), request: request, outbox: outbox))
    }

    /// Hands `baseline` the stored totals of [from, to) (wall ns) once they are read.
    func queryBaseline(from: Int64, to: Int64, for baseline: PedometerBaseline) {
        inbox.withLock { $0.baselines.append((from, to, baseline)) }
    }

    private func enqueue(_ query: Query) {
        query.outbox.queryRunning.store(true, ordering: .releasing)
        inbox.withLock { $0.queries.append(query) }
    }

    /// Asks `run` to commit, sync and return.
    package func stop() {
        inbox.withLock { $0.stopping = true }
    }

    // MARK: The history thread

    /// Records until `stop` (returns nil) or a failure (returns it: the board stopped, or the
    /// store could not be written). Closes the store either way.
    package func run() -> String? {
        let store = storeBox.store
        var lastCommit = WallClock.engineNanoseconds
        // Commits failed in a row (a full disk fails every one: `DaemonLog` keeps that to a
        // line and a summary a minute).
        var failedCommits = 0
        // The store's count of samples dropped for want of a disk when the failures began, and
        // whether the log said they are being dropped (once a failure).
        var unwrittenBeforeFailure = 0
        var warnedUnwritten = false
        let unwrittenLimit = "\(store.configuration.maximumUnwrittenNanoseconds / 60_000_000_000) minutes"
        while true {
            usleep(20_000)
            let (samples, pedometer, activity, queries, baselines, failure, stopping) = inbox.withLock { inbox in
                defer {
                    inbox.samples.removeAll(keepingCapacity: true)
                    inbox.pedometer.removeAll(keepingCapacity: true)
                    inbox.activity.removeAll(keepingCapacity: true)
                    inbox.queries.removeAll()
                    inbox.baselines.removeAll()
                }
                return (inbox.samples, inbox.pedometer, inbox.activity, inbox.queries, inbox.baselines, inbox.failure, inbox.stopping)
            }
            for sample in samples { store.append(sample) }
            for output in pedometer { store.append(output) }
            for update in activity { store.append(update) }
            let now = WallClock.engineNanoseconds
            if !queries.isEmpty || stopping || failure != nil || now - lastCommit >= Self.commitIntervalNanoseconds {
                lastCommit = now
                do {
                    if stopping || failure != nil { try store.close() } else { try store.commit() }
                    statistics.withLock { $0.commits += 1; $0.lastError = nil }
                    if failedCommits > 0 {
                        let lost = store.unwrittenAccelerometerSamples - unwrittenBeforeFailure
                        DaemonLog.say("history: commits work again after \(failedCommits) failed"
                                      + (lost > 0 ? "; \(lost) accelerometer samples past the \(unwrittenLimit) held in memory meanwhile were not kept (a gap in CMSensorRecorder's history)" : ""))
                        failedCommits = 0
                    }
                } catch {
                    let message = error.description
                    statistics.withLock { $0.lastError = message }
                    DaemonLog.say("history: \(message)")
                    if failedCommits == 0 { unwrittenBeforeFailure = store.unwrittenAccelerometerSamples }
                    failedCommits += 1
                }
                if failedCommits > 0, !warnedUnwritten, store.unwrittenAccelerometerSamples > unwrittenBeforeFailure {
                    warnedUnwritten = true
                    DaemonLog.say("history: writes have failed for longer than the \(unwrittenLimit) of accelerometer history held in memory: later samples are dropped until the disk takes them again (free space in \(store.directory))")
                }
                if failedCommits == 0 { warnedUnwritten = false }
                statistics.withLock {
                    $0.bytesWritten = store.bytesWritten
                    $0.droppedSamples = store.droppedAccelerometerSamples
                }
            }
            if let failure { return failure }
            if stopping { return nil }
            for wanted in baselines {
                // The part before the daemon started is all committed: no commit needed.
                wanted.baseline.setBase((try? store.pedometerData(from: wanted.from, to: wanted.to)) ?? PedometerRangeTotals())
            }
            var unfinished: [Query] = []
            for query in queries {
                if let rest = answer(query, store: store) { unfinished.append(rest) }
            }
            if !unfinished.isEmpty { inbox.withLock { $0.queries.insert(contentsOf: unfinished, at: 0) } }
        }
    }

    /// Answers `query`, or a part of it: returns what is left of it. The client may ask again
    /// as soon as it has the last part, so the query stops counting as running just before.
    private func answer(_ query: Query, store: HistoryStore) -> Query? {
        let outbox = query.outbox
        let final: DaemonMessage
        do throws(HistoryError) {
            switch query.kind {
            case .pedometer(let from, let to):
                let totals = try store.pedometerData(from: from, to: to)
                final = .pedometerData(request: query.request, HistoryConversion.pedometer(totals, from: from, to: to, hasBarometer: hasBarometer))
            case .activity(let from, let to):
                let records = try store.activity(from: from, to: to, now: clock.nowWallNanoseconds)
                final = .activityRecords(request: query.request, records.map(HistoryConversion.activity))
            case .accelerometer(let next, let to):
                guard outbox.replyBacklog < 2 << 20 else { return query }  // the client reads slowly: later
                let end = min(to, next &+ 600_000_000_000)
                var chunk: [RecordedSample] = []
                try store.forEachAccelerometerSample(from: next, to: end) { recorded in
                    let sample = recorded.sample
                    chunk.append(RecordedSample(time: HistoryConversion.seconds(sample.timeNanoseconds), x: sample.x, y: sample.y, z: sample.z,
                                                run: recorded.runIdentifier))
                    if chunk.count == 4096 {
                        outbox.reply(.accelerometerData(request: query.request, isLast: false, chunk))
                        chunk.removeAll(keepingCapacity: true)
                    }
                }
                guard end >= to else {
                    if !chunk.isEmpty { outbox.reply(.accelerometerData(request: query.request, isLast: false, chunk)) }
                    var rest = query
                    rest.kind = .accelerometer(next: end, to: to)
                    return rest
                }
                final = .accelerometerData(request: query.request, isLast: true, chunk)
            }
        } catch {
            final = .error(request: query.request, code: .notAvailable, message: "The history could not be read: \(error.problem) (\(error.path))",
                           advice: error.advice)
        }
        outbox.queryRunning.store(false, ordering: .releasing)
        outbox.reply(final)
        return nil
    }
}

/// The store on its way to the history thread.
///
/// `@unchecked Sendable`, and why it is safe: `HistoryStore` is not thread-safe, and only the
/// history thread (`HistoryRecorder.run`) touches it once the recorder is made; the main thread
/// only opened it before.
private final class StoreBox: @unchecked Sendable {
    let store: HistoryStore
    init(_ store: HistoryStore) { self.store = store }
}
