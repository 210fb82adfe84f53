import MotionAlgorithms
import MotionEngine
import Locking

/// One board's pedometer, shared by every pedometer of the board in the process (as the board's
/// engine is): a `PedometerStage` fed every accelerometer, gyroscope, barometer and thermometer
/// reading on the engine thread through a `ReadingTap`, the `PedometerHistory` built from what it reports,
/// and the live subscriptions it feeds.
///
/// It counts from the moment the first pedometer of the board opens it until the last one
/// closes it (Core Motion's coprocessor counts always; the daemon of a later issue will), and
/// keeps its history for the life of the process. Per reading the engine thread takes one
/// uncontended lock and runs the stage; the history grows by one record per step or floor;
/// updates are built only when one is due (about every 2.5 s while walking) and handed to the
/// subscriptions outside the lock, so a callback may query or stop.
package final class BoardPedometer: Sendable {
    package let board: LiveBoard
    /// Whether floors are counted (nil in the data otherwise, as Core Motion's).
    package let hasBarometer: Bool

    private struct Subscriber {
        let subscription: PedometerSubscription
        var schedule = PedometerUpdateSchedule()
    }

    private struct State {
        var stage = PedometerStage()
        var history = PedometerHistory()
        var subscribers: [Subscriber] = []
    }

    private let state = Lock(State())
    /// The engine tap while counting.
    private let tap: SharedTap
    /// Held by the engine thread while it runs subscriptions' sinks, so that `unsubscribe` can
    /// wait until a sink running now has returned.
    private let delivering = Lock(())

    private init(board: LiveBoard) {
        self.board = board
        // The gyroscope finds a walk's closing step and the steps through a turn (`StepDetector`),
        // as in a replay and in motiond's history: without it the live count would differ.
        tap = SharedTap(board: board, channels: [.accelerometer, .gyroscope, .barometer, .thermometer])
        hasBarometer = board.channels.contains(.barometer)
    }

    private static let pedometers = PerBoard<BoardPedometer>()

    /// The process's pedometer of `board`.
    package static func of(_ board: LiveBoard) -> BoardPedometer {
        pedometers.of(board) { BoardPedometer(board: $0) }
    }

    // MARK: Users

    /// One more pedometer uses the board: counting starts if it is the first. Throws why the
    /// board could not be brought up (the pedometer stays open: `startCounting` tries again).
    package func open() throws(MotionManagerError) {
        tap.addUser()
        try startCounting()
    }

    /// One pedometer less: the last one stops counting (the history stays).
    package func close() {
        tap.close()
    }

    /// Starts counting if it is not (the board failed, or could not be brought up before);
    /// returns once the board is up.
    package func startCounting() throws(MotionManagerError) {
        // The user's height and stride scale (`motionctl calibrate stride`), read at each start
        // so a new calibration applies from the next one.
        let profile: PedometerProfile
        do { profile = try PedometerProfile.load() } catch { throw MotionManagerError(.invalidParameter, error.description) }
        try tap.start(reset: {
            state.withLock { $0.stage = PedometerStage(stride: profile.stride) }  // the last session's bout detector is stale
        }, sink: { [self] event in handle(event) })
    }

    // MARK: Subscriptions

    package func subscribe(_ subscription: PedometerSubscription) {
        state.withLock { $0.subscribers.append(Subscriber(subscription: subscription)) }
    }

    /// Stops `subscription`: once this returns (outside a sink), its sink is not running and is
    /// not called again.
    package func unsubscribe(_ subscription: PedometerSubscription) {
        subscription.cancel()
        state.withLock { $0.subscribers.removeAll { $0.subscription === subscription } }
        if !board.isEngineThread { delivering.withLock { _ in } }
    }

    /// What was counted from `start` to `end` (engine clock, ns), from the history.
    package func data(from start: Int64, to end: Int64) -> PedometerValues {
        let totals = state.withLock { $0.history.data(from: start, to: end) }
        return PedometerValues(totals, start: start, end: end, hasBarometer: hasBarometer)
    }

    // MARK: The engine thread

    private func handle(_ event: TapEvent) {
        var feeds: [(PedometerSubscription, PedometerFeed)] = []  // allocates only when something is due
        switch event {
        case .reading(let reading):
            state.withLock { state in
                Self.feed(reading, stage: &state.stage, history: &state.history, subscribers: &state.subscribers,
                          hasBarometer: hasBarometer, into: &feeds)
            }
        case .failed(let failure):
            // The engine dropped the tap: every subscription hears why and ends.
            tap.dropped()
            state.withLock { state in
                feeds = state.subscribers.map { ($0.subscription, .failed(failure)) }
                state.subscribers = []
            }
        }
        guard !feeds.isEmpty else { return }
        delivering.withLock { _ in
            for (subscription, feed) in feeds { subscription.deliver(feed) }
        }
    }

    /// One reading through the stage into the history; the events it decided and the updates
    /// due go into `feeds`.
    private static func feed(_ reading: SensorReading, stage: inout PedometerStage, history: inout PedometerHistory,
                             subscribers: inout [Subscriber], hasBarometer: Bool,
                             into feeds: inout [(PedometerSubscription, PedometerFeed)]) {
        stage.process(reading) { output in
            history.append(output)
            guard case .event(let event) = output else { return }
            for subscriber in subscribers where subscriber.subscription.kind == .events {
                feeds.append((subscriber.subscription, .event(event)))
            }
        }
        let time = reading.timestampNanoseconds
        for index in subscribers.indices {
            guard case .updates(let start) = subscribers[index].subscription.kind,
                  subscribers[index].schedule.isDue(at: time, steps: history.totalSteps) else { continue }
            // A reading taken just before the start (FIFO chips are read up to 10 ms after their
            // samples) ends the span at its start, never before it.
            var values = PedometerValues(history.data(from: start, to: time + 1), start: start, end: max(time, start), hasBarometer: hasBarometer)
            values.currentCadence = stage.currentCadence
            values.currentPace = stage.currentPace
            feeds.append((subscribers[index].subscription, .update(values)))
        }
    }
}
