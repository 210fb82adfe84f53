import MotionAlgorithms
import Testing
import TestSupport

@Suite struct SampleStreamMonitorTests {
    @Test func steadyStreamGivesExactRate() {
        var monitor = SampleStreamMonitor()
        // 100 Hz for 10 s: 1001 samples, 10 ms apart.
        #expect(monitor.record(timestampNanoseconds: 5_000_000) == .first)
        for index in 1...1000 {
            #expect(monitor.record(timestampNanoseconds: 5_000_000 + Int64(index) * 10_000_000) == .regular)
        }
        #expect(monitor.sampleCount == 1001)
        #expect(monitor.smoothedPeriodNanoseconds == 10_000_000)
        #expect(monitor.averageRateMilliHertz == 100_000)
        #expect(monitor.currentRateMilliHertz == 100_000)
        #expect(monitor.gapCount == 0)
    }

    @Test func jitteredStreamAveragesToNominalRate() {
        // 285.714 Hz (BROAD) with ±20 % uniform jitter on each timestamp, seeded.
        var random = SeededRandom(seed: 0x5EED_0001)
        var monitor = SampleStreamMonitor()
        let period: Int64 = 3_500_000
        for index in 0..<20_000 {
            let jitter = Int64.random(in: -700_000...700_000, using: &random)
            _ = monitor.record(timestampNanoseconds: Int64(index) * period + (index == 0 ? 0 : jitter))
        }
        // The smoothed period stays within 5 % of nominal; the long-run rate within 0.1 %.
        #expect(abs(monitor.smoothedPeriodNanoseconds - period) < period / 20)
        #expect(abs(monitor.averageRateMilliHertz - 285_714) < 286)
        #expect(monitor.gapCount == 0)
    }

    @Test func gapIsCountedAndDoesNotDisturbThePeriod() {
        var monitor = SampleStreamMonitor()
        var time: Int64 = 0
        for _ in 0..<100 { _ = monitor.record(timestampNanoseconds: time); time += 20_000_000 }
        time += 500_000_000  // the sensor stalls for half a second
        #expect(monitor.record(timestampNanoseconds: time) == .gap)
        #expect(monitor.gapCount == 1)
        #expect(monitor.longestGapNanoseconds == 520_000_000)
        #expect(monitor.smoothedPeriodNanoseconds == 20_000_000)
    }

    @Test func repeatedAndBackwardsTimestamps() {
        var monitor = SampleStreamMonitor()
        _ = monitor.record(timestampNanoseconds: 1_000)
        #expect(monitor.record(timestampNanoseconds: 1_000) == .repeatedTimestamp)
        #expect(monitor.record(timestampNanoseconds: 999) == .backwards)
        #expect(monitor.sampleCount == 2)
        #expect(monitor.backwardsCount == 1)
        #expect(monitor.repeatedTimestampCount == 1)
        #expect(monitor.lastTimestampNanoseconds == 1_000)
        // A single distinct timestamp has no rate.
        #expect(monitor.averageRateMilliHertz == 0)
    }
}
