import MotionEngine
import TestSupport
import Testing

/// The pedometer's in-memory history: ranges add up, active pace, time order, the cap.
@Suite struct PedometerHistoryTests {
    static let second: Int64 = 1_000_000_000
    static let hour = 3600 * second

    /// A day of walks: bouts of 20…600 steps at 0.4…0.7 s per step, 0.5…0.9 m each, separated
    /// by 1 s…40 min; a floor up or down now and then. Seeded: the same day every run.
    static func aDay(seed: UInt64) -> (history: PedometerHistory, steps: Int, distance: Double) {
        var random = SeededRandom(seed: seed)
        var history = PedometerHistory()
        var time = Int64.random(in: 0..<hour, using: &random)
        var (steps, distance) = (0, 0.0)
        while time < 24 * hour {
            for _ in 0..<Int.random(in: 20...600, using: &random) {
                time += Int64(Double.random(in: 0.4...0.7, using: &random) * 1e9)
                guard time < 24 * hour else { break }
                let length = Double.random(in: 0.5...0.9, using: &random)
                history.append(.step(timeNanoseconds: time, lengthMeters: length))
                (steps, distance) = (steps + 1, distance + length)
                if Int.random(in: 0..<100, using: &random) == 0 {
                    history.append(.floor(timeNanoseconds: time, ascended: Bool.random(using: &random)))
                }
            }
            time += Int64(Double.random(in: 1...2400, using: &random) * 1e9)
        }
        return (history, steps, distance)
    }

    @Test func twentyFourHourlyQueriesSumToTheDailyQuery() {
        let (history, steps, distance) = Self.aDay(seed: 6)
        let day = history.data(from: 0, to: 24 * Self.hour)
        #expect(day.numberOfSteps == steps && steps > 5000, "\(day.numberOfSteps) of \(steps)")
        #expect(abs(day.distanceMeters - distance) < 1e-6)
        let hours = (0..<24).map { history.data(from: Int64($0) * Self.hour, to: Int64($0 + 1) * Self.hour) }
        #expect(hours.map(\.numberOfSteps).reduce(0, +) == day.numberOfSteps)
        #expect(abs(hours.map(\.distanceMeters).reduce(0, +) - day.distanceMeters) < 1e-6)
        #expect(hours.map(\.floorsAscended).reduce(0, +) == day.floorsAscended && day.floorsAscended > 0)
        #expect(hours.map(\.floorsDescended).reduce(0, +) == day.floorsDescended && day.floorsDescended > 0)
        #expect(hours.map(\.activeNanoseconds).reduce(0, +) == day.activeNanoseconds)
        #expect(abs(hours.map(\.activeDistanceMeters).reduce(0, +) - day.activeDistanceMeters) < 1e-6)
        // Any tiling adds up, not only whole hours: cut the day at odd nanoseconds.
        var random = SeededRandom(seed: 7)
        let cuts = [0] + (0..<50).map { _ in Int64.random(in: 0..<(24 * Self.hour), using: &random) }.sorted() + [24 * Self.hour]
        let pieces = zip(cuts, cuts.dropFirst()).map { history.data(from: $0, to: $1) }
        #expect(pieces.map(\.numberOfSteps).reduce(0, +) == day.numberOfSteps)
    }

    @Test func averageActivePaceCountsOnlyTimeSpentStepping() {
        var history = PedometerHistory()
        // Two bouts of 11 steps, 0.5 s and 0.7 m apart, an hour between them: 20 active
        // intervals of 0.5 s covering 20 × 0.7 m; the hour's pause is not active time.
        for bout in 0..<2 {
            for step in 0..<11 {
                history.append(.step(timeNanoseconds: Int64(bout) * Self.hour + Int64(step) * Self.second / 2, lengthMeters: 0.7))
            }
        }
        let all = history.data(from: 0, to: 2 * Self.hour)
        #expect(all.numberOfSteps == 22)
        #expect(all.activeNanoseconds == 10 * Self.second)
        #expect(abs((all.averageActivePace ?? 0) - 10.0 / 14.0) < 1e-9, "\(String(describing: all.averageActivePace)) s/m")
        #expect(history.data(from: 3 * Self.hour, to: 4 * Self.hour).averageActivePace == nil)
        #expect(history.data(from: Self.hour, to: Self.hour).numberOfSteps == 0, "an empty range")
        #expect(history.data(from: Self.hour, to: 0).numberOfSteps == 0, "a backwards range")
    }

    @Test func eventsAreNotBookedAndLateStepsNeverGoBack() {
        var history = PedometerHistory()
        history.append(.step(timeNanoseconds: 10 * Self.second, lengthMeters: 0.7))
        history.append(.event(PedometerEvent(kind: .pause, timeNanoseconds: 10 * Self.second, deliveredNanoseconds: 11 * Self.second)))
        history.append(.step(timeNanoseconds: 5 * Self.second, lengthMeters: 0.7))  // out of order: booked at 10 s
        #expect(history.totalSteps == 2)
        #expect(history.data(from: 0, to: 10 * Self.second).numberOfSteps == 0)
        #expect(history.data(from: 10 * Self.second, to: 11 * Self.second).numberOfSteps == 2)
    }

    @Test func aFullHistoryDropsItsOldestTenth() {
        var history = PedometerHistory(capacity: 100)
        for step in 0..<150 { history.append(.step(timeNanoseconds: Int64(step) * Self.second, lengthMeters: 1)) }
        #expect(history.totalSteps == 150)
        // Full at 100: steps 0…9 went at step 100, 10…19 at 110, …, 40…49 at 140.
        #expect(history.data(from: 0, to: 50 * Self.second).numberOfSteps == 0)
        let kept = history.data(from: 0, to: 150 * Self.second)
        #expect(kept.numberOfSteps == 100 && kept.distanceMeters == 100)
        #expect(history.data(from: 120 * Self.second, to: 130 * Self.second).distanceMeters == 10)
    }
}
