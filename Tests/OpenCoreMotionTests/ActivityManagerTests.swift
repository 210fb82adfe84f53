import Foundation
import OpenCoreMotion
import Locking
import TestSupport
import Testing

/// What an activity handler received, each with the wall-clock time it arrived (nil: a failure).
final class ActivityArrivals: Sendable {
    private let items = Lock<[(activity: CMMotionActivity?, arrived: Date)]>([])

    func handle(_ activity: CMMotionActivity?) { items.withLock { $0.append((activity, Date())) } }

    var received: [(activity: CMMotionActivity?, arrived: Date)] { items.withLock { $0 } }
    var activities: [CMMotionActivity] { received.compactMap(\.activity) }
}

/// A board file of its own in a fresh temporary folder: its own engine in this process (the
/// process keeps one engine per board file), so its board time starts when the first activity
/// manager of it brings it up, whichever other test runs the shared `boards/` files.
func privateBoard(_ name: String, _ contents: String) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ocm-activity-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent(name).path
    try contents.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// `boards/sim-walker.board` (`synthetic:walk`) as a private board: from the moment it is
/// brought up, 2 s still, 18 steps in 10 s, 6 s still, then walking again (an 18 s cycle).
func privateWalker() throws -> String {
    try privateBoard("walker.board", String(contentsOfFile: board("sim-walker.board"), encoding: .utf8))
}

/// `CMMotionActivityManager` live on a private simulated walker. Timing bounds are generous:
/// the board runs in real time on a shared machine.
@Suite(.serialized) struct ActivityManagerTests {
    @Test func availabilityAndErrorsFollowTheBoardsChips() async throws {
        #expect(CMMotionActivityManager.isActivityAvailable() == CMMotionActivityManager(daemonSocket: "/tmp/ocm-no-daemon-\(getpid()).sock").isActivityAvailable,
                "the class method answers for the system's board")
        #expect(CMMotionActivityManager.authorizationStatus() == .authorized)

        // A barometer alone: no activity; every call says so with Core Motion's code.
        let barometerOnly = try privateBoard("barometer.board", """
            board = barometer only
            [chip barometer]
            driver = bmp280
            bus = emulated
            address = 0x76
            """)
        let manager = CMMotionActivityManager(board: barometerOnly)
        #expect(manager.boardError == nil && !manager.isActivityAvailable)
        let queue = serialQueue()
        let updates = ActivityArrivals()
        manager.startActivityUpdates(to: queue, withHandler: updates.handle)
        let answers = Received<[CMMotionActivity]>()
        manager.queryActivityStarting(from: Date().addingTimeInterval(-60), to: Date(), to: queue, withHandler: answers.handle)
        try await drain(queue)
        #expect(updates.received.count == 1 && updates.activities.isEmpty, "one call, with nil")
        let error = try #require(manager.updatesError)
        #expect(error.code == .motionActivityNotAvailable && error.message.contains("no accelerometer"), "\(error)")
        #expect(error.message.contains("bmp280"), "names the chips: \(error)")
        #expect((answers.failures.first as? CMError)?.code == .motionActivityNotAvailable && answers.data.isEmpty)

        // A board file that cannot be loaded.
        let missing = CMMotionActivityManager(board: "/nonexistent/walker.board")
        #expect(!missing.isActivityAvailable && missing.boardError?.code == .motionActivityNotAvailable)
        #expect(missing.boardError?.message.contains("/nonexistent/walker.board") == true)
    }

    @Test func liveUpdatesOnASimulatedWalkAndQueriesNeedMotiond() async throws {
        let walker = try privateWalker()
        let manager = CMMotionActivityManager(board: walker)  // the board comes up: its time 0
        let start = Date()
        #expect(manager.isActivityAvailable && manager.boardError == nil)
        let queue = serialQueue()
        let updates = ActivityArrivals()
        manager.startActivityUpdates(to: queue, withHandler: updates.handle)

        // Mid-walk, a second manager of the board gets the current activity at once.
        // Started once the first manager has been told of the walk (by the pipeline's progress,
        // not the wall clock's: a loaded machine runs the board's pipeline seconds late).
        while !updates.activities.contains(where: \.walking), Date() < start.addingTimeInterval(60) {
            try await Task.sleep(for: .milliseconds(100))
        }
        let walkOverBeforeLateStart = updates.activities.drop { !$0.walking }.contains { !$0.walking }
        let late = CMMotionActivityManager(board: walker)
        let lateUpdates = ActivityArrivals()
        late.startActivityUpdates(to: queue, withHandler: lateUpdates.handle)

        // Through the walk (2…12 s) and into the still phase (12…20 s) until stationary is
        // called again (at about 15 s), then stop. A loaded machine (a sanitizer build beside
        // other work) runs the board's pipeline late by a second or more: wait for the call
        // itself, not for a time (at most 60 s: a pipeline that never calls it fails below).
        try await sleep(until: start.addingTimeInterval(16))
        while !updates.activities.contains(where: { $0.stationary && $0.startDate > start.addingTimeInterval(10) }),
              Date() < start.addingTimeInterval(60) {
            try await Task.sleep(for: .milliseconds(200))
        }
        manager.stopActivityUpdates()
        late.stopActivityUpdates()
        try await drain(queue)
        let count = updates.received.count
        try await Task.sleep(for: .seconds(2))  // stationary's confidence climbs at about 16.5 s
        try await drain(queue)
        #expect(updates.received.count == count, "nothing after stop")

        // What the recording's first cycle brought (it starts over at 20 s): the calls that
        // started in it, by the board's clock, however late they arrived.
        let received = updates.received.filter { ($0.activity?.startDate ?? start).timeIntervalSince(start) < 19.5 }
        #expect(received.allSatisfy { $0.activity != nil } && manager.updatesError == nil)
        let activities = received.compactMap(\.activity)
        let seconds = { (date: Date) in date.timeIntervalSince(start) }
        print("updates", received.map { "\($0.activity?.activityNames ?? "nil") \($0.activity.map { "\($0.confidence)" } ?? "") "
                + String(format: "since %.2f at %.2f", seconds($0.activity?.startDate ?? start), seconds($0.arrived)) })

        // unknown at once, then stationary (the first 2 s are still), walking, and stationary
        // again after the walk (with "no call" in between while the last steps fade).
        let first = try #require(activities.first)
        // Dates and timestamps are the board's (its samples' time), not the delivery's: a
        // loaded machine delivers them late, and delivery latency is `motionctl timing --api`'s.
        let decided = { (activity: CMMotionActivity) in seconds(Date(engineNanoseconds: activity.timestampNanoseconds)) }
        #expect(first.unknown && first.confidence == .low && decided(first) < 1, "\(first) decided at \(decided(first)) s")
        var names: [String] = []
        for activity in activities where names.last != activity.activityNames { names.append(activity.activityNames) }
        let calls = names.filter { $0 != "none" }
        #expect(calls == ["unknown", "stationary", "walking", "stationary"], "\(names)")
        // Walking: from the first step (≈ 2.2 s), decided within 5 s of it, confidence
        // climbing, and never running or a vehicle.
        let walking = received.filter { $0.activity?.walking == true }
        let firstWalking = try #require(walking.first)
        let walkStart = seconds(firstWalking.activity!.startDate)
        #expect(abs(walkStart - 2.2) < 0.6, "walking since \(walkStart) s")
        #expect(decided(firstWalking.activity!) - walkStart < 5, "decided at \(decided(firstWalking.activity!)) s")
        // (High needs 10 s in the state; the simulated walk's 18 steps take 10 s, and walking is
        // called from the bout's confirmation to the predicted pause.)
        let confidences = walking.map { $0.activity!.confidence.rawValue }
        #expect(confidences.first == CMMotionActivityConfidence.low.rawValue && confidences.contains(CMMotionActivityConfidence.medium.rawValue)
                && zip(confidences, confidences.dropFirst()).allSatisfy { $0 < $1 }, "\(confidences)")
        #expect(!activities.contains { $0.running || $0.automotive || $0.cycling })
        #expect(activities.allSatisfy { $0.startDate.timeIntervalSince1970 <= Date(timeIntervalSinceNow: 0).timeIntervalSince1970 })

        // The late manager's first update: the walk going on, with its start date.
        if !walkOverBeforeLateStart {
            let lateFirst = try #require(lateUpdates.activities.first)
            #expect(lateFirst.walking && abs(seconds(lateFirst.startDate) - walkStart) < 0.01, "\(lateFirst)")
        } else {
            print("the walk's call had ended before the late manager started: its first update is not checked")
        }

        // Queries need motiond's history (MotionDaemonClientTests query it): in-process, even
        // with the walk just classified live, the answer is an error that says so; a range
        // given backwards is the caller's error first.
        let answers = Received<[CMMotionActivity]>()
        manager.queryActivityStarting(from: start, to: Date(), to: queue, withHandler: answers.handle)
        try await drain(queue)
        manager.queryActivityStarting(from: Date(), to: start, to: queue, withHandler: answers.handle)
        try await drain(queue)
        #expect(answers.data.isEmpty && answers.failures.count == 2)
        let history = try #require(answers.failures.first as? CMError)
        #expect(history.code == .motionActivityNotAvailable && history.message.contains("motiond"), "\(history)")
        let error = try #require(answers.failures.last as? CMError)
        #expect(error.code == .invalidParameter && error.message.contains("earlier date first"), "\(error)")
    }
}
