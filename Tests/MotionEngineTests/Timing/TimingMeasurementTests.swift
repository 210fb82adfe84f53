import MotionEngine
import Testing

/// The timing contract's measurements on hand-made streams (golden values worked out in the
/// comments), and which clauses a measurement breaks.
@Suite struct TimingMeasurementTests {
    static let millisecond: Int64 = 1_000_000

    /// A 100 Hz stream started at 0: `times` in ms, each delivered `latency` ms after its timestamp.
    static func measure(_ times: [Double], latency: Double = 1, start: Int64 = 0) -> TimingMeasurement {
        var measurement = TimingMeasurement(samplePeriodNanoseconds: 10 * millisecond, startNanoseconds: start)
        for time in times {
            let timestamp = Int64(time * 1e6)
            measurement.record(timestampNanoseconds: timestamp, deliveredNanoseconds: timestamp + Int64(latency * 1e6))
        }
        return measurement
    }

    @Test func jitterIsTheStandardDeviationOfConsecutiveIntervalsOverThePeriod() throws {
        // Intervals 10, 10.5, 9, 10.5 ms: mean 10, deviations 0, 0.5, −1, 0.5; sample variance
        // (0 + 0.25 + 1 + 0.25) / 3 = 0.5 ms², so σ = 0.7071 ms = 7.071 % of 10 ms.
        let measurement = Self.measure([0, 10, 20.5, 29.5, 40])
        #expect(abs(try #require(measurement.jitter) - 0.070_710_678) < 1e-6)
        // The worst |Δt − period| is 1 ms: 10 %.
        #expect(abs(try #require(measurement.jitterP99) - 0.1) < 1e-9)
        #expect(measurement.meanIntervalNanoseconds == 10 * Self.millisecond)
        #expect(measurement.loss == SampleLoss())
    }

    @Test func aPerfectlyPeriodicStreamHasNoJitter() {
        #expect(Self.measure(stride(from: 0.0, to: 1000, by: 10).map { $0 }).jitter == 0)
    }

    @Test func intervalsSpanningMissingSamplesCountAsDropsNotJitter() {
        // 10 → 40 ms spans the slots of 20 and 30: two dropped; 40 → 55 (1.5 periods) is not a loss.
        let measurement = Self.measure([0, 10, 40, 50, 60, 75])
        #expect(measurement.loss == SampleLoss(dropped: 2, duplicated: 0))
        #expect(measurement.jitter != nil)
        #expect(measurement.meanIntervalNanoseconds == (10 + 10 + 10 + 15) * Self.millisecond / 4)
    }

    @Test func aRepeatedOrBackwardTimestampIsADuplicateAndBreaksMonotonicity() {
        let measurement = Self.measure([0, 10, 10, 20, 15, 30])
        #expect(measurement.loss == SampleLoss(dropped: 0, duplicated: 2))
        #expect(measurement.nonIncreasingTimestamps == 2)
        #expect(measurement.sampleCount == 6)
    }

    @Test func latenciesArePercentilesByNearestRank() throws {
        var measurement = TimingMeasurement(samplePeriodNanoseconds: 10 * Self.millisecond, startNanoseconds: -5 * Self.millisecond)
        for index in 1...100 {
            let timestamp = Int64(index) * 10 * Self.millisecond
            measurement.record(timestampNanoseconds: timestamp, deliveredNanoseconds: timestamp + Int64(index) * Self.millisecond)
        }
        #expect(measurement.deliveryLatency(percentile: 0.5) == 50 * Self.millisecond)
        #expect(measurement.deliveryLatency(percentile: 0.99) == 99 * Self.millisecond)
        #expect(measurement.maximumDeliveryLatencyNanoseconds == 100 * Self.millisecond)
        // First delivered at 10 + 1 ms, started at −5 ms.
        #expect(measurement.firstSampleLatencyNanoseconds == 16 * Self.millisecond)
    }

    @Test func theContractsBoundsFollowCDD73() {
        let contract = TimingContract(samplePeriodNanoseconds: 2_500_000)  // 400 Hz
        #expect(contract.firstSampleBound == 405_000_000)
        #expect(contract.deliveryBound == 105_000_000)
        #expect(TimingContract.jitterBound == 0.03)
    }

    @Test func eachBrokenClauseIsNamed() {
        let contract = TimingContract(samplePeriodNanoseconds: 10 * Self.millisecond)
        let good = Self.measure(stride(from: 0.0, to: 500, by: 10).map { $0 })
        #expect(contract.violations(of: good, reported: SampleLoss()).isEmpty)

        // First sample 421 ms after start (bound 420), delivered 121 ms late (bound 120).
        let late = Self.measure([300, 310, 320], latency: 121)
        let lateViolations = contract.violations(of: late, reported: SampleLoss())
        #expect(lateViolations.count == 2)
        #expect(lateViolations.contains { $0.hasPrefix("first sample after 421.0 ms") })
        #expect(lateViolations.contains { $0.hasPrefix("a sample delivered 121.0 ms after its timestamp") })
        // Without the wall-clock clauses (what the unit tests judge), lateness is no violation.
        #expect(contract.violations(of: late, reported: SampleLoss(), latency: false).isEmpty)

        // Two drops and a repeat: broken unless the runtime reported them.
        let lossy = Self.measure([0, 10, 40, 40, 50])
        let unreported = contract.violations(of: lossy, reported: SampleLoss())
        #expect(unreported.contains("2 samples missing from the stream but 0 reported dropped"))
        #expect(unreported.contains("1 samples repeated but 0 reported duplicated"))
        #expect(unreported.contains("1 timestamps not after the previous one"))
        #expect(!contract.violations(of: lossy, reported: SampleLoss(dropped: 2, duplicated: 1)).contains { $0.contains("reported") })

        let jittery = Self.measure([0, 10, 20.5, 29.5, 40])
        #expect(contract.violations(of: jittery, reported: SampleLoss()) == ["jitter 7.07 % of the period, not under 3 %"])
        #expect(contract.violations(of: Self.measure([]), reported: SampleLoss()) == ["no sample arrived"])
    }
}
