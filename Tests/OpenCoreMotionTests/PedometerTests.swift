import Foundation
import OpenCoreMotion
import Locking
import Testing

/// What a pedometer handler received, each with the wall-clock time it arrived.
final class Arrivals<Item: Sendable>: Sendable {
    private let items = Lock<[(item: Item, arrived: Date)]>([])
    private let errors = Lock<[any Error]>([])

    func handle(_ item: Item?, _ error: (any Error)?) {
        if let item { items.withLock { $0.append((item, Date())) } }
        if let error { errors.withLock { $0.append(error) } }
    }

    var received: [(item: Item, arrived: Date)] { items.withLock { $0 } }
    var failures: [any Error] { errors.withLock { $0 } }
}

/// Sleeps until `date` (wall clock).
func sleep(until date: Date) async throws {
    try await Task.sleep(for: .seconds(max(0, date.timeIntervalSinceNow)))
}

/// `CMPedometer` live on `boards/sim-walker.board` (`synthetic:walk`): from the moment the
/// board is brought up, 2 s still, 18 steps in 10 s, 6 s still, then walking again (an 18 s
/// cycle). Timing bounds are generous: the board runs in real time on a shared machine.
@Suite(.serialized) struct PedometerTests {
    @Test func availabilityFollowsTheBoardsChips() {
        let walker = CMPedometer(board: board("sim-walker.board"))
        #expect(walker.boardError == nil)
        #expect(walker.isStepCountingAvailable && walker.isDistanceAvailable && walker.isPaceAvailable && walker.isCadenceAvailable)
        #expect(walker.isPedometerEventTrackingAvailable && walker.isFloorCountingAvailable)
        // No barometer, no floors. (Not the simulated MPU-9250: a pedometer brings its board up,
        // and the motion manager's tests expect to start that board's recording from its start.)
        let lsm6dsox = CMPedometer(board: board("sim-lsm6dsox-lis3mdl.board"))
        #expect(lsm6dsox.isStepCountingAvailable && !lsm6dsox.isFloorCountingAvailable)
        // The class methods answer for the system's board (none configured here: nothing).
        let system = CMPedometer(daemonSocket: "/tmp/ocm-no-daemon-\(getpid()).sock")
        #expect(CMPedometer.isStepCountingAvailable() == system.isStepCountingAvailable)
        #expect(CMPedometer.isFloorCountingAvailable() == system.isFloorCountingAvailable)
        #expect(CMPedometer.authorizationStatus() == .authorized)
    }

    /// In-process there is no history (Core Motion's comes from the coprocessor; ours from
    /// motiond): a query is an error saying to start motiond, never an empty answer. A range
    /// given backwards is still the caller's error first.
    @Test func queriesInProcessSayToStartMotiondAndBadRangesAreErrors() async throws {
        let pedometer = CMPedometer(board: board("sim-lsm6dsox-lis3mdl.board"))
        let now = Date()
        let answers = Arrivals<CMPedometerData>()
        pedometer.queryPedometerData(from: now.addingTimeInterval(-60), to: now, withHandler: answers.handle)
        try await drain(pedometer.handlerQueue)
        pedometer.queryPedometerData(from: now, to: now.addingTimeInterval(-60), withHandler: answers.handle)
        try await drain(pedometer.handlerQueue)
        #expect(answers.received.isEmpty && answers.failures.count == 2)
        let history = try #require(answers.failures.first as? CMError)
        #expect(history.code == .notAvailable && history.message.contains("motiond") && history.message.contains("startUpdates"), "\(history)")
        let range = try #require(answers.failures.last as? CMError)
        #expect(range.code == .invalidParameter && range.message.contains("after its end"), "\(range)")
    }

    @Test func aBoardFileThatCannotBeLoadedIsAnErrorForEveryHandler() async throws {
        let pedometer = CMPedometer(board: "/nonexistent/walker.board")
        #expect(!pedometer.isStepCountingAvailable && pedometer.boardError?.message.contains("/nonexistent/walker.board") == true)
        let updates = Arrivals<CMPedometerData>()
        let events = Arrivals<CMPedometerEvent>()
        pedometer.startUpdates(from: Date(), withHandler: updates.handle)
        pedometer.startEventUpdates(handler: events.handle)
        pedometer.queryPedometerData(from: .distantPast, to: Date(), withHandler: updates.handle)
        try await drain(pedometer.handlerQueue)
        #expect(updates.received.isEmpty && events.received.isEmpty)
        #expect(updates.failures.count == 2 && events.failures.count == 1)
        #expect(updates.failures.allSatisfy { ($0 as? CMError)?.code == .notAvailable })
    }

    @Test func liveUpdatesEventsAndQueriesOnASimulatedWalk() async throws {
        // A walker of its own: the shared boards/sim-walker.board may already be running for
        // another suite in this process (MotionMQTTTests' publishers), its walk then started
        // before this test's `start` (the events came 0.62 s early).
        let walker = try privateWalker()
        let pedometer = CMPedometer(board: walker)  // the board comes up: its time 0
        let start = Date()
        let updates = Arrivals<CMPedometerData>()
        let events = Arrivals<CMPedometerEvent>()
        pedometer.startEventUpdates(handler: events.handle)
        pedometer.startUpdates(from: start, withHandler: updates.handle)

        // After the first bout (once its pause has come: by the pipeline's progress, not the
        // wall clock's, as a loaded machine runs the board's pipeline seconds late), a second
        // pedometer's updates from the same start get the bout from the board's history in
        // their first update.
        while events.received.count < 2, Date() < start.addingTimeInterval(60) {
            try await Task.sleep(for: .milliseconds(100))
        }
        let late = CMPedometer(board: walker)
        let lateUpdates = Arrivals<CMPedometerData>()
        late.startUpdates(from: start, withHandler: lateUpdates.handle)

        // Through the still phase (12…20 s) and into the next bout until its resume and an
        // update dated 3.5 s after it have come (at about 24 s), then stop: wait for them, not
        // for a time (at most 60 s: a pipeline that never sends them fails below).
        try await sleep(until: start.addingTimeInterval(24))
        while events.received.count < 3 || !updates.received.contains(where: { $0.item.endDate > start.addingTimeInterval(23.6) }),
              Date() < start.addingTimeInterval(60) {
            try await Task.sleep(for: .milliseconds(200))
        }
        pedometer.stopUpdates()
        pedometer.stopEventUpdates()
        late.stopUpdates()
        try await drain(pedometer.handlerQueue)
        let (updateCount, eventCount) = (updates.received.count, events.received.count)
        try await Task.sleep(for: .seconds(3))  // walking: updates would come
        try await drain(pedometer.handlerQueue)
        #expect(updates.received.count == updateCount && events.received.count == eventCount, "nothing after stop")

        #expect(updates.failures.isEmpty && events.failures.isEmpty && lateUpdates.failures.isEmpty)
        let received = updates.received
        let seconds = received.map { $0.item.endDate.timeIntervalSince(start) }
        let steps = received.map { $0.item.numberOfSteps.intValue }
        print("updates at", seconds.map { String(format: "%.2f", $0) }, "steps", steps)
        print("events", events.received.map { "\($0.item.type == .pause ? "pause" : "resume") \(String(format: "%.2f", $0.item.date.timeIntervalSince(start)))" })

        // One at once, still standing: no steps, no cadence; floors 0 (a barometer), not nil.
        let first = try #require(received.first?.item)
        #expect(seconds[0] < 1, "first update at \(seconds[0]) s")
        #expect(first.numberOfSteps == 0 && first.currentCadence == nil && first.floorsAscended == 0)
        #expect(abs(first.startDate.timeIntervalSince(start)) < 0.001, "dates go through the engine's clock and back")
        // Cumulative, and never closer than Core Motion's 2.5 s.
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0 <= $1 }, "\(steps)")
        let gaps = zip(seconds, seconds.dropFirst()).map { $1 - $0 }
        #expect(gaps.allSatisfy { $0 > 2.4 }, "\(gaps)")
        // While walking (4…13 s) about every 2.5 s; none while still (a gap over 4 s in 12…22 s).
        let walking = zip(seconds, gaps).filter { $0.0 > 4 && $0.0 + $0.1 < 13 }.map(\.1)
        #expect(walking.count >= 2 && walking.allSatisfy { $0 < 3.5 }, "\(gaps)")
        #expect(zip(seconds, gaps).contains { $0.0 > 10 && $0.0 < 22 && $0.1 > 4 }, "\(seconds)")
        // The first bout: 18 steps at 1.8 steps/s, about 0.7 m each (1.70 m tall by default).
        let bout = try #require(received.last { $0.item.endDate.timeIntervalSince(start) < 19 }?.item)
        #expect((16...20).contains(bout.numberOfSteps.intValue), "\(bout)")
        let stepLength = (bout.distance?.doubleValue ?? 0) / bout.numberOfSteps.doubleValue
        #expect(stepLength > 0.6 && stepLength < 0.8, "\(stepLength) m")
        let mid = try #require(received.first { $0.item.currentCadence != nil }?.item)
        #expect(abs((mid.currentCadence?.doubleValue ?? 0) - 1.8) < 0.3, "\(mid)")
        #expect(mid.currentPace != nil && mid.averageActivePace != nil)

        // Events: a resume at the first step (≈ 2.1 s), a pause at the last (≈ 11.6 s), a resume
        // at the next bout's first (≈ 20.1 s), each delivered within about a second of the
        // pipeline's deciding it (pedometer.py measures it on real walks). Not held: each comes
        // before any update dated 3 s after it, through the same handler queue. (Compared with
        // the pipeline's own outputs, not the wall clock: a loaded machine runs the pipeline
        // seconds late, and timing claims belong to the benchmarks.)
        let kinds = events.received.map { ($0.item.type, $0.item.date.timeIntervalSince(start)) }
        #expect(kinds.map(\.0) == [.resume, .pause, .resume], "\(kinds)")
        if kinds.count == 3 {
            #expect(abs(kinds[0].1 - 2.1) < 0.6 && abs(kinds[1].1 - 11.6) < 0.6 && abs(kinds[2].1 - 20.1) < 0.6, "\(kinds)")
        }
        for event in events.received {
            let overtaking = received.filter { $0.item.endDate.timeIntervalSince(event.item.date) >= 3 && $0.arrived < event.arrived }
            #expect(overtaking.isEmpty, "\(event.item.type == .pause ? "pause" : "resume") at \(event.item.date.timeIntervalSince(start)) s held past updates to \(overtaking.map { $0.item.endDate.timeIntervalSince(start) }) s")
        }
        #expect(received.contains { $0.item.endDate.timeIntervalSince(events.received.last?.item.date ?? .distantFuture) >= 3 },
                "an update dated 3 s after the last event, to compare it with")

        // The late pedometer's first update already holds the first bout.
        let lateFirst = try #require(lateUpdates.received.first?.item)
        #expect(lateFirst.numberOfSteps.intValue >= bout.numberOfSteps.intValue, "\(lateFirst) vs \(bout)")

        // Queries need motiond's history (MotionDaemonClientTests query it); in-process, even
        // with the walk just counted live, the answer is the error, not this process's counts.
        let answers = Arrivals<CMPedometerData>()
        pedometer.queryPedometerData(from: start, to: Date(), withHandler: answers.handle)
        try await drain(pedometer.handlerQueue)
        #expect(answers.received.isEmpty && (answers.failures.first as? CMError)?.code == .notAvailable)
    }
}
