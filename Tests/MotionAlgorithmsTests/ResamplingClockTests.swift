@testable import MotionAlgorithms
import Testing

/// The 25 Hz resampling clock of `GaitPeriodicity` and `RotationRhythm`.
@Suite struct ResamplingClockTests {
    /// Ticks passed for samples at `times` (ms), each written as a ring would write it.
    static func ticks(_ times: [Int64], clock: inout ResamplingClock) -> [Int] {
        times.map { time in
            let passed = clock.ticks(until: time * 1_000_000)
            for _ in 0..<passed { _ = clock.push() }
            return passed
        }
    }

    @Test func aFastSensorGivesOneTickEvery40Milliseconds() {
        var clock = ResamplingClock()
        // 100 Hz: the first sample starts the clock; then a tick at 40, 80, 120 ms.
        let passed = Self.ticks(Array(stride(from: 0, through: 120, by: 10)), clock: &clock)
        #expect(passed == [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1])
        #expect(clock.count == 4)
    }

    @Test func aSlowSensorRepeatsItsValueOverTheTicksItSpans() {
        var clock = ResamplingClock()
        // 10 Hz: 100 ms a sample spans 2 or 3 ticks (40, 80 | 120, 160, 200 | 240, 280).
        let passed = Self.ticks([0, 100, 200, 300], clock: &clock)
        #expect(passed == [1, 2, 3, 2])
        #expect(clock.count == 8)
    }

    @Test func aGapOverASecondRestartsTheSeriesAndAShorterOneIsFilled() {
        var clock = ResamplingClock()
        _ = Self.ticks([0, 40, 80], clock: &clock)
        #expect(clock.count == 3)
        // 0.96 s without a sample: 24 ticks repeat the next one (80 ms + 24 × 40 ms = 1040 ms).
        #expect(Self.ticks([1_040], clock: &clock) == [24] && clock.count == 27)
        // 1.08 s later: the older values are no longer next to the new ones; the series starts over.
        #expect(Self.ticks([2_120], clock: &clock) == [1] && clock.count == 1)
    }

    @Test func theRingHolds128TicksAndIndexesBackFromTheNewest() {
        var clock = ResamplingClock()
        var slots: [Int] = []
        for tick in 0..<200 {
            let passed = clock.ticks(until: Int64(tick) * ResamplingClock.tick)
            for _ in 0..<passed { slots.append(clock.push()) }
        }
        #expect(clock.count == 128 && slots.count == 200)
        #expect(slots[0] == 0 && slots[127] == 127 && slots[128] == 0 && slots[199] == 71)
        #expect(clock.index(back: 0) == 71 && clock.index(back: 71) == 0 && clock.index(back: 72) == 127)
    }
}
