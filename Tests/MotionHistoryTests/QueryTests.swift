import Foundation
import MotionAlgorithms
import MotionEngine
import MotionHistory
import TestSupport
import Testing

/// The store answers as the in-memory histories do, across commits and reopenings.
@Suite(.blocking) struct QueryTests {
    static let second: Int64 = 1_000_000_000
    static let hour = 3600 * second

    /// A day of walks (bouts of 20…600 steps, 0.4…0.7 s apart, 0.5…0.9 m; a floor now and
    /// then), given to the store and to `PedometerHistory` alike, the store committing every
    /// second of walk time and reopened every few hours.
    @Test func pedometerQueriesMatchTheInMemoryHistoryAndHoursSumToTheDay() throws {
        var random = SeededRandom(seed: 9)
        let temporary = TemporaryHistory("pedometer")
        defer { temporary.remove() }
        var store = try temporary.open()
        var memory = PedometerHistory()
        var time = Int64.random(in: 0..<Self.hour, using: &random)
        var lastCommit = time, lastReopen = time
        while time < 24 * Self.hour {
            for _ in 0..<Int.random(in: 20...600, using: &random) {
                time += Int64(Double.random(in: 0.4...0.7, using: &random) * 1e9)
                guard time < 24 * Self.hour else { break }
                var outputs: [PedometerOutput] = [.step(timeNanoseconds: time, lengthMeters: Double.random(in: 0.5...0.9, using: &random))]
                if Int.random(in: 0..<100, using: &random) == 0 {
                    outputs.append(.floor(timeNanoseconds: time - 300_000_000, ascended: Bool.random(using: &random)))
                }
                for output in outputs { memory.append(output); store.append(output) }
                if time - lastCommit >= Self.second { try store.commit(); lastCommit = time }
            }
            time += Int64(Double.random(in: 1...2400, using: &random) * 1e9)
            if time - lastReopen > 4 * Self.hour {
                try store.close()
                store = try temporary.open()
                lastReopen = time
            }
        }
        try store.commit()
        let day = try store.pedometerData(from: 0, to: 24 * Self.hour)
        #expect(day.numberOfSteps > 5000 && day.floorsAscended + day.floorsDescended > 10)
        let hours = try (0..<24).map { try store.pedometerData(from: Int64($0) * Self.hour, to: Int64($0 + 1) * Self.hour) }
        #expect(hours.map(\.numberOfSteps).reduce(0, +) == day.numberOfSteps)
        #expect(hours.map(\.floorsAscended).reduce(0, +) == day.floorsAscended)
        #expect(hours.map(\.floorsDescended).reduce(0, +) == day.floorsDescended)
        #expect(hours.map(\.activeNanoseconds).reduce(0, +) == day.activeNanoseconds)
        // Exact: the store sums whole µm.
        #expect(hours.map { Int64(($0.distanceMeters * 1e6).rounded()) }.reduce(0, +) == Int64((day.distanceMeters * 1e6).rounded()))
        for _ in 0..<200 {
            let from = Int64.random(in: 0..<(24 * Self.hour), using: &random)
            let to = from + Int64.random(in: 0..<(3 * Self.hour), using: &random)
            let (stored, expected) = (try store.pedometerData(from: from, to: to), memory.data(from: from, to: to))
            #expect(stored.numberOfSteps == expected.numberOfSteps && stored.floorsAscended == expected.floorsAscended
                    && stored.floorsDescended == expected.floorsDescended && stored.activeNanoseconds == expected.activeNanoseconds,
                    "[\(from), \(to)): \(stored) vs \(expected)")
            // Lengths are kept to the µm.
            #expect(abs(stored.distanceMeters - expected.distanceMeters) <= 1e-6 * Double(expected.numberOfSteps + 1))
            #expect(abs(stored.activeDistanceMeters - expected.activeDistanceMeters) <= 1e-6 * Double(expected.numberOfSteps + 1))
        }
    }

    /// Random transitions and confidence changes over a few hours: the store's records are
    /// `ActivityHistory`'s, smoothing included, after a reopening.
    @Test func activityQueriesMatchTheInMemoryHistory() throws {
        var random = SeededRandom(seed: 7)
        let temporary = TemporaryHistory("activity")
        defer { temporary.remove() }
        var store = try temporary.open()
        var memory = ActivityHistory()
        let choices: [MotionActivityFlags] = [.stationary, .walking, .running, .automotive, [.automotive, .stationary], .cycling, []]
        var time: Int64 = 10 * Self.second
        let first = MotionActivityUpdate(activity: MotionActivityEstimate(flags: .unknown, confidence: .low, startNanoseconds: 0),
                                         deliveredNanoseconds: 0)
        memory.record(first)
        store.append(first)
        for index in 0..<600 {
            time += Int64(Double.random(in: 0.5...120, using: &random) * 1e9)
            let flags = choices.randomElement(using: &random)!
            let confidence = MotionActivityConfidence(rawValue: UInt8.random(in: 0...2, using: &random))!
            let start = time - Int64(Double.random(in: 0...5, using: &random) * 1e9)
            let update = MotionActivityUpdate(activity: MotionActivityEstimate(flags: flags, confidence: confidence, startNanoseconds: start),
                                              deliveredNanoseconds: time)
            memory.record(update)
            store.append(update)
            if index % 3 == 0 { try store.commit() }
            if index == 300 { try store.close(); store = try temporary.open() }
        }
        try store.commit()
        let now = time + 30 * Self.second
        memory.advance(toNanoseconds: now)
        #expect(try store.activity(from: 0, to: now, now: now) == memory.query(fromNanoseconds: 0, toNanoseconds: now))
        for _ in 0..<50 {
            let from = Int64.random(in: 0..<now, using: &random), to = from + Int64.random(in: 0..<(2 * Self.hour), using: &random)
            #expect(try store.activity(from: from, to: to, now: now) == memory.query(fromNanoseconds: from, toNanoseconds: to))
        }
    }

    /// Samples come back to 1/2048 g and 1 µs; a gap of more than two periods starts a new
    /// run (across commits and a reopening too), shorter ones do not; a sample that goes back
    /// in time is dropped.
    @Test func accelerometerSamplesComeBackWithTheirContinuityRuns() throws {
        let temporary = TemporaryHistory("accelerometer")
        defer { temporary.remove() }
        var store = try temporary.open()
        var times: [Int64] = []
        var time: Int64 = 1_000_000_000_000
        for index in 0..<1000 {
            // Jitter of a few µs; a 35 ms late sample (no new run) at 300; gaps at 500 (45 ms) and 800 (1 min).
            time += 20_000_000 + Int64(index % 7) * 1_337
            if index == 300 { time += 15_000_000 }
            if index == 500 { time += 25_000_000 }
            if index == 800 { time += 60 * Self.second }
            times.append(time)
            store.append(AccelerometerSample(timeNanoseconds: time, x: sin(Double(index) / 10), y: 0.001 * Double(index), z: -1))
            if index % 50 == 49 { try store.commit() }
            if index == 650 { try store.close(); store = try temporary.open() }
        }
        store.append(AccelerometerSample(timeNanoseconds: time - 5_000_000, x: 0, y: 0, z: 0))
        #expect(store.droppedAccelerometerSamples == 1)
        try store.commit()
        let samples = try store.accelerometerSamples(from: 0, to: .max)
        try #require(samples.count == 1000)
        for (index, recorded) in samples.enumerated() {
            #expect(abs(recorded.sample.timeNanoseconds - times[index]) <= 500)
            #expect(abs(recorded.sample.x - sin(Double(index) / 10)) <= 0.5 / 2048 && abs(recorded.sample.y - 0.001 * Double(index)) <= 0.5 / 2048)
            let expectedRun = index < 500 ? samples[0].sample.timeNanoseconds
                : index < 800 ? samples[500].sample.timeNanoseconds : samples[800].sample.timeNanoseconds
            #expect(recorded.runIdentifier == expectedRun, "sample \(index)")
        }
        // A range starting mid-run sees the same identifier.
        let middle = try store.accelerometerSamples(from: times[600], to: times[700])
        #expect(middle.count == 100 && middle.allSatisfy { $0.runIdentifier == samples[500].sample.timeNanoseconds })
    }

    /// `startNewRun` (a restarted source): the next sample starts a new continuity run even one
    /// period after the last, across a reopen of the store too; a sample dropped as out of
    /// order does not use it up.
    @Test func aRestartedSourceStartsANewRunHoweverShortItsBreak() throws {
        let temporary = TemporaryHistory("new-run")
        defer { temporary.remove() }
        var store = try temporary.open()
        for index in 0..<10 { store.append(AccelerometerSample(timeNanoseconds: Int64(index) * 20_000_000, x: 0, y: 0, z: -1)) }
        try store.close()
        store = try temporary.open()
        store.startNewRun()
        store.append(AccelerometerSample(timeNanoseconds: 9 * 20_000_000, x: 0, y: 0, z: -1))  // not after the last: dropped
        for index in 10..<20 { store.append(AccelerometerSample(timeNanoseconds: Int64(index) * 20_000_000, x: 0, y: 0, z: -1)) }
        try store.commit()
        let runs = try store.accelerometerSamples(from: 0, to: .max).map(\.runIdentifier)
        #expect(store.droppedAccelerometerSamples == 1)
        #expect(runs == Array(repeating: 0, count: 10) + Array(repeating: 200_000_000, count: 10), "\(runs)")
    }
}
