import Foundation
// `public`: this package builds with InternalImportsByDefault, and the iOS-style extension
// below has public members (an app in plain Swift 6 mode imports publicly already).
public import OpenCoreMotion
import Testing
import TestSupport

// The history half of Apple's Core Motion talks, written as an iOS developer writes it, run on
// the real motiond (history is motiond's, as Core Motion's is the coprocessor's: in-process a
// query is an error saying to start motiond, docs/swift-api.md). Each program keeps the talk's
// names and structure; the differences, one line each, are the ones a test needs: the managers
// are given the test daemon's private socket where an app writes `CMPedometer()` (motiond's
// system socket), and so availability is asked of the instance (`pedometer.isStepCountingAvailable`)
// where the talk asks the class (`CMPedometer.isStepCountingAvailable()`), which answers for the
// system's daemon or board. UIKit's view controller and labels are a main-actor class and its
// properties.

// iOS's `for data in list` over recorded samples (the 2015 talk's loop): the app's own
// extension, as AppleMembersTests writes it for the in-process suite.
extension CMSensorDataList: Sequence {
    public typealias Iterator = NSFastEnumerationIterator
    public func makeIterator() -> NSFastEnumerationIterator {
        return NSFastEnumerationIterator(self)
    }
}

// MARK: - WWDC 2014 "Motion Tracking & Core Motion" (session 612) and WWDC 2015 "What's New in Core Motion" (session 705)

// The talks' fitness screen: live steps from now (2014), pause and resume events (2015), the
// activity as it changes, and the last day's steps and activities from history, keeping only the
// activities Core Motion is confident of.
@MainActor final class StepsViewController {
    let pedometer: CMPedometer
    let activityManager: CMMotionActivityManager

    // The screen's labels.
    var stepsLabel = ""
    var todayLabel = ""
    var steps = 0
    var distance = 0.0
    var events: [CMPedometerEventType] = []
    var activities: [CMMotionActivity] = []
    var historySteps: Int?
    var historyActivities: [CMMotionActivity]?
    var confidentActivities: [CMMotionActivity]?
    var errors: [String] = []

    // The talks' `let pedometer = CMPedometer()` and `let activityManager = CMMotionActivityManager()`.
    init(daemonSocket: String) {
        pedometer = CMPedometer(daemonSocket: daemonSocket)
        activityManager = CMMotionActivityManager(daemonSocket: daemonSocket)
    }

    func startUpdating() {
        if pedometer.isStepCountingAvailable {
            pedometer.startUpdates(from: Date()) { data, error in
                guard let data = data, error == nil else { return }
                DispatchQueue.main.async {
                    self.steps = data.numberOfSteps.intValue
                    self.distance = data.distance?.doubleValue ?? 0
                    self.stepsLabel = "\(data.numberOfSteps) steps"
                }
            }
        }
        if pedometer.isPedometerEventTrackingAvailable {
            pedometer.startEventUpdates { event, error in
                guard let event = event else { return }
                DispatchQueue.main.async {
                    self.events.append(event.type)
                }
            }
        }
        if activityManager.isActivityAvailable {
            activityManager.startActivityUpdates(to: OperationQueue.main) { activity in
                guard let activity = activity else { return }
                self.activities.append(activity)
            }
        }
    }

    func stopUpdating() {
        pedometer.stopUpdates()
        pedometer.stopEventUpdates()
        activityManager.stopActivityUpdates()
    }

    func loadHistory() {
        let now = Date()
        let yesterday = now.addingTimeInterval(-24 * 60 * 60)
        pedometer.queryPedometerData(from: yesterday, to: now) { data, error in
            DispatchQueue.main.async {
                if let data = data {
                    self.historySteps = data.numberOfSteps.intValue
                    self.todayLabel = "\(data.numberOfSteps) steps in the last day"
                } else {
                    self.errors.append("pedometer: \(error.map { "\($0)" } ?? "no data")")
                }
            }
        }
        activityManager.queryActivityStarting(from: yesterday, to: now, to: OperationQueue.main) { activities, error in
            guard let activities = activities else {
                self.errors.append("activity: \(error.map { "\($0)" } ?? "no activities")")
                return
            }
            self.historyActivities = activities
            self.confidentActivities = activities.filter { $0.confidence == .high }
        }
    }
}

/// Waits on the main actor (which runs the main queue the programs' handlers use) until
/// `condition` holds; whether it did. 60 s is for a hang only, never a timing claim.
@MainActor func waitOnMain(_ condition: () -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .seconds(60)
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        try await Task.sleep(for: .milliseconds(10))
    }
    return true
}

@Suite(.serialized) struct PedometerAndActivityTalkTests {
    /// On motiond's simulated walker (still 2 s, 18 steps in 10 s, still 6 s): the screen
    /// counts the walk live with its events, then history holds it, and what Core Motion is
    /// confident of is a subset of the history's walk and rest, never a vehicle.
    @MainActor @Test func theFitnessScreenCountsLiveAndReadsTheLastDay() async throws {
        let daemon = try Motiond("talks-pedometer")
        defer { daemon.remove() }
        try daemon.start()
        let screen = StepsViewController(daemonSocket: daemon.socket)
        screen.startUpdating()
        defer { screen.stopUpdating() }
        // The bout counted, its pause heard and a confident activity seen (the walk's by its
        // end, else the rest after it some 5 s later).
        #expect(try await waitOnMain { screen.steps >= 16 && screen.events.contains(.pause) && screen.activities.contains { $0.confidence == .high } },
                "\(screen.steps) steps, \(screen.activities.map { "\($0.activityNames) \($0.confidence)" })")
        let stepsAtQuery = screen.steps
        screen.loadHistory()
        #expect(try await waitOnMain { (screen.historySteps != nil && screen.confidentActivities != nil) || screen.errors.count > 0 })
        screen.stopUpdating()

        #expect(screen.errors.isEmpty, "\(screen.errors)")
        print("talks: live \(screen.steps) steps, events \(screen.events.map(\.rawValue)), history \(screen.historySteps ?? -1) steps, "
              + "activities \(screen.historyActivities?.map { "\($0.activityNames) \($0.confidence)" } ?? [])")
        // Live: the bouts counted, about 0.7 m each, each a resume at its first step and a pause
        // after its last. (The walker's recording starts over when it ends, and a machine under
        // load meets the conditions above a bout or two later: the query may come mid-bout. Its
        // count per bout is PedometerTests' business.)
        #expect(stepsAtQuery >= 16, "\(stepsAtQuery) steps")
        #expect(zip(screen.events, screen.events.dropFirst()).allSatisfy { $0 != $1 }, "\(screen.events.map(\.rawValue))")
        #expect(screen.distance > 0.6 * Double(screen.steps) && screen.distance < 0.8 * Double(screen.steps), "\(screen.distance) m")
        #expect(screen.stepsLabel == "\(screen.steps) steps")
        #expect(Array(screen.events.prefix(2)) == [.resume, .pause], "\(screen.events.map(\.rawValue))")
        // The last day: the daemon's history from its start, holding at least the live count
        // when asked (the live updates began after the daemon did), and no more than the live
        // count after the answer plus what live updates, 2.5 s apart, may not have said yet.
        let historySteps = try #require(screen.historySteps)
        #expect(historySteps >= stepsAtQuery && historySteps <= screen.steps + 5, "\(historySteps) vs \(stepsAtQuery)…\(screen.steps) live")
        #expect(screen.todayLabel == "\(historySteps) steps in the last day")
        let history = try #require(screen.historyActivities)
        #expect(history.contains { $0.walking }, "\(history)")
        let confident = try #require(screen.confidentActivities)
        #expect(!confident.isEmpty && confident.allSatisfy { $0.confidence == .high })
        #expect(confident.allSatisfy { $0.walking || $0.stationary }, "\(confident)")
        #expect(confident.count <= history.count)
    }
}

// MARK: - WWDC 2015 "What's New in Core Motion" (session 705): the sensor recorder

// The talk's recorder: ask the system to record the accelerometer for a while, then later read
// the recorded samples back for a time range and go through them.
final class AccelerometerHistory {
    // The talk's `let recorder = CMSensorRecorder()`.
    let recorder: CMSensorRecorder
    var samples: [CMAcceleration] = []
    var dates: [Date] = []

    init(daemonSocket: String) {
        recorder = CMSensorRecorder(daemonSocket: daemonSocket)
    }

    func startRecording() {
        // Availability: the class method answers for the system's daemon (see the file's top).
        recorder.recordAccelerometer(forDuration: 20 * 60)  // Record for 20 minutes
    }

    func readRecording(from startDate: Date, to endDate: Date) {
        samples = []
        dates = []
        if let list = recorder.accelerometerData(from: startDate, to: endDate) {
            for data in list {
                if let accData = data as? CMRecordedAccelerometerData {
                    let accel = accData.acceleration
                    // Do something here.
                    samples.append(accel)
                    dates.append(accData.startDate)
                }
            }
        }
    }
}

@Suite(.serialized, .blocking) struct SensorRecorderTalkTests {
    /// Recorded at 50 Hz by motiond on the walker (device flat: about 1 g, down the z axis
    /// while still), read back as the talk reads it.
    @Test func recordedAccelerometerIsReadBackAsTheTalkReadsIt() throws {
        let daemon = try Motiond("talks-recorder")
        defer { daemon.remove() }
        let start = Date()
        try daemon.start()
        let history = AccelerometerHistory(daemonSocket: daemon.socket)
        history.startRecording()
        #expect(history.recorder.lastError == nil, "\(String(describing: history.recorder.lastError))")
        // At least two seconds of samples, waited for by count.
        _ = eventually(within: 60) {
            history.readRecording(from: start, to: Date())
            return history.samples.count >= 100
        }
        #expect(history.samples.count >= 100, "\(history.samples.count) samples; \(String(describing: history.recorder.lastError))")
        #expect(history.recorder.lastError == nil)
        // In order, 20 ms apart (50 Hz), within the range asked.
        let steps = zip(history.dates, history.dates.dropFirst()).map { $1.timeIntervalSince($0) }
        #expect(steps.allSatisfy { abs($0 - 0.02) < 0.002 }, "\(Set(steps.map { ($0 * 1000).rounded() }))")
        #expect(history.dates.allSatisfy { $0 >= start && $0 <= Date() })
        // Core Motion's units: g, the walker flat face up (z ≈ −1 while it stands, within its
        // steps' 0.26 g bounce while it walks).
        #expect(history.samples.allSatisfy { abs($0.z + 1) < 0.5 && abs($0.x) < 0.2 && abs($0.y) < 0.2 })
    }
}
