import MotionAlgorithms
import MotionEngine
import TestSupport
import Testing

/// The activity stage end to end on a real recording: UCI HAPT exp01 user01 (waist phone,
/// 50 Hz acc + gyro, CC BY 4.0), 140–240 s: standing, then four labelled walking legs.
@Suite(.blocking) struct ActivityStageTests {
    static func replay() throws -> [MotionActivityUpdate] {
        let playback = try RecordingPlayback(path: ProjectPaths.recording("uci_hapt_exp01_user01_stand_walk.csv.gz"))
        var stage = ActivityStage()
        var updates: [MotionActivityUpdate] = []
        _ = try playback.run { reading in stage.process(reading) { updates.append($0) } }
        return updates
    }

    /// The flags delivered and holding at `time` s.
    static func flags(_ updates: [MotionActivityUpdate], at time: Double) -> MotionActivityFlags? {
        updates.last { Double($0.deliveredNanoseconds) / 1e9 <= time }?.activity.flags
    }

    @Test func aRealRecordingStartsUnknownThenFindsStandingAndEveryWalkingLeg() throws {
        let updates = try Self.replay()
        #expect(updates.first?.activity.flags == .unknown)
        #expect(updates.first?.deliveredNanoseconds == 140_000_000_000)
        #expect(Self.flags(updates, at: 145) == .stationary, "standing before the walk")
        // Each labelled walking leg (start, end s) is walking within 5 s of its start (the
        // issue's goal) and until near its end.
        for (start, end) in [(149.9, 161.56), (167.1, 185.0), (193.12, 211.34), (214.98, 234.28)] {
            let times = Array(stride(from: start + 5, to: end - 1, by: 0.5))
            let walking = times.filter { (time: Double) -> Bool in Self.flags(updates, at: time) == .walking }.count
            let samples = times.count
            #expect(walking == samples, "leg at \(start) s: walking in \(walking) of \(samples) half-seconds")
        }
        #expect(!updates.contains { !$0.activity.flags.isDisjoint(with: [.running, .automotive, .cycling]) })
        // Delivery times never go back; start dates are never after delivery.
        #expect(zip(updates, updates.dropFirst()).allSatisfy { $0.deliveredNanoseconds <= $1.deliveredNanoseconds })
        #expect(updates.allSatisfy { $0.activity.startNanoseconds <= $0.deliveredNanoseconds })
    }

    @Test func theHistoryOfTheRecordingIsOneRecordPerLegAtMost() throws {
        var history = ActivityHistory()
        for update in try Self.replay() { history.record(update) }
        history.advance(toNanoseconds: 240_000_000_000)
        let walks = history.smoothed().filter { $0.activity.flags == .walking }
        // Four legs separated by 4–8 s turns: merged or not, never split inside a leg.
        #expect((1...4).contains(walks.count), "\(walks.count) walking records")
        #expect(walks.allSatisfy { $0.durationNanoseconds >= 10_000_000_000 })
    }

    /// motiond and `motionctl replay` take the activity from the pedometer stage's classifier
    /// (one per sample): it must give an `ActivityStage`'s updates exactly, on a walk with a
    /// gyroscope (UCI), phone walks without one (Oxford), a device handled at 286 Hz (BROAD)
    /// and a bicycle ride then a walk (the vehicle path, whose held bout the pedometer adds).
    @Test(arguments: ["uci_hapt_exp01_user01_stand_walk", "oxford_samsung_frontpocket_walk_90s", "broad_01_slow_rotation", "ride"])
    func thePedometerStagesActivityIsTheActivityStages(source: String) throws {
        var readings: [SensorReading] = []
        if source == "ride" {
            readings = PedometerVehicleTests.samples(ride: true, walk: 71.0...91.0)
        } else {
            let playback = try RecordingPlayback(path: ProjectPaths.recording("\(source).csv.gz"))
            _ = try playback.run { readings.append($0) }
        }
        var alone = ActivityStage()
        var pedometer = PedometerStage()
        var expected: [MotionActivityUpdate] = [], shared: [MotionActivityUpdate] = []
        for reading in readings {
            alone.process(reading) { expected.append($0) }
            pedometer.process(reading, output: { _ in }, activity: { shared.append($0) })
            #expect(pedometer.currentActivity == alone.current)
        }
        #expect(expected.count >= 3, "\(expected.count) updates: the recording must exercise the classifier")
        #expect(shared == expected)
    }
}
