import FixedPoint
import MotionAlgorithms
@testable import MotionEngine
import Testing

/// The runtime's per-chip timestamps: polled reads moved onto the chip's sample schedule, and
/// lost and repeated samples counted.
@Suite struct SampleTimingTests {
    static let ms: Int64 = 1_000_000

    /// One read at `readTime` ms giving `stamps` (ms, as the reader stamped them: acceleration
    /// readings); returns the settled stamps.
    static func read(_ timing: inout SampleTiming, at readTime: Int64, _ stamps: [Int64], byEdge: Bool = false) -> [Int64] {
        let buffer = UnsafeMutableBufferPointer<SensorReading>.allocate(capacity: max(1, stamps.count))
        defer { buffer.deallocate() }
        for (index, stamp) in stamps.enumerated() {
            buffer[index] = SensorReading(timestampNanoseconds: stamp * ms, value: .acceleration(Vector3(x: .zero, y: .zero, z: .zero)))
        }
        timing.settle(buffer, count: stamps.count, readTime: readTime * ms, byEdge: byEdge)
        return (0..<stamps.count).map { buffer[$0].timestampNanoseconds / ms }
    }

    @Test func aPolledRegisterChipIsStampedOnItsScheduleNotAtTheRead() {
        // 100 Hz chip sampling at 0, 10, 20 …, polled every 5 ms from 3 ms on: each sample is
        // found up to 5 ms late, yet stamped a period after the previous one.
        var timing = SampleTiming(source: .sampleSchedule, samplePeriodNanoseconds: 10 * Self.ms)
        #expect(Self.read(&timing, at: 3, [3]) == [3])     // the first: the read is all we know
        #expect(Self.read(&timing, at: 8, []) == [])
        #expect(Self.read(&timing, at: 13, [13]) == [13])  // due 13: in (8, 13]
        #expect(Self.read(&timing, at: 18, []) == [])
        #expect(Self.read(&timing, at: 23, [23]) == [23])
        // Polled 2 ms after its sample: due 33 is after the read, pulled back to 25 (the chip
        // cannot have taken it later than we read it)…
        #expect(Self.read(&timing, at: 25, [25]) == [25])
        // … and from there on a period apart again.
        #expect(Self.read(&timing, at: 36, [36]) == [35])
    }

    /// A channel slower than its chip (the ICM-20948's field, every 11th sample at 1.1 kHz) is
    /// judged against its own period: its 10 ms intervals lose nothing, a 20 ms one loses one,
    /// while the chip's own channels keep the chip's period.
    @Test func aSlowerChannelIsJudgedAgainstItsOwnPeriod() {
        var timing = SampleTiming(source: .dataReadyEdge, samplePeriodNanoseconds: Self.ms,
                                  channelPeriod: { $0 == .magnetometer ? 10 * Self.ms : Self.ms })
        func field(_ ms: Int64) -> SensorReading {
            SensorReading(timestampNanoseconds: ms * Self.ms, value: .magneticField(Vector3(x: .zero, y: .zero, z: .zero)))
        }
        func acceleration(_ ms: Int64) -> SensorReading {
            SensorReading(timestampNanoseconds: ms * Self.ms, value: .acceleration(Vector3(x: .zero, y: .zero, z: .zero)))
        }
        var admitted = 0
        for time in [0, 10, 20, 30] as [Int64] where timing.admit(field(time)) { admitted += 1 }
        #expect(admitted == 4 && timing.dropped == 0)
        let late = timing.admit(field(50))
        #expect(late && timing.droppedByChannel[Int(SensorChannel.magnetometer.rawValue)] == 1)
        let first = timing.admit(acceleration(0)), fourth = timing.admit(acceleration(3))
        #expect(first && fourth && timing.droppedByChannel[0] == 2)
    }

    @Test func aLatePollMovesOnByWholePeriodsSoTheLostSampleShows() {
        var timing = SampleTiming(source: .sampleSchedule, samplePeriodNanoseconds: 10 * Self.ms)
        #expect(Self.read(&timing, at: 0, [0]) == [0])
        #expect(Self.read(&timing, at: 10, [10]) == [10])
        // No poll for 31 ms: the register holds the chip's latest sample (taken at 40), within the
        // last period: due 20 moves on to 40, and the interval shows the samples of 20 and 30 lost.
        #expect(Self.read(&timing, at: 41, [41]) == [40])
        var admitted: [Bool] = []
        for stamp: Int64 in [0, 10, 40] {
            admitted.append(timing.admit(SensorReading(timestampNanoseconds: stamp * Self.ms, value: .acceleration(Vector3(x: .zero, y: .zero, z: .zero)))))
        }
        #expect(admitted == [true, true, true])
        #expect(timing.dropped == 2)  // 10 → 40: the slots of 20 and 30
    }

    @Test func aPolledFIFOBatchMovesAsOneOntoTheSchedule() {
        var timing = SampleTiming(source: .sampleSchedule, samplePeriodNanoseconds: 5 * Self.ms)
        #expect(Self.read(&timing, at: 12, [7, 12]) == [7, 12])
        // Three frames back-dated from the read at 29 (19, 24, 29): the newest is due 12 + 15 = 27.
        #expect(Self.read(&timing, at: 29, [19, 24, 29]) == [17, 22, 27])
    }

    @Test func edgeAndKernelStampsAreKept() {
        var edge = SampleTiming(source: .dataReadyEdge, samplePeriodNanoseconds: 10 * Self.ms)
        #expect(Self.read(&edge, at: 0, [0], byEdge: true) == [0])
        #expect(Self.read(&edge, at: 13, [13], byEdge: true) == [13])
        var kernel = SampleTiming(source: .kernel, samplePeriodNanoseconds: 10 * Self.ms)
        #expect(Self.read(&kernel, at: 0, [0]) == [0])
        #expect(Self.read(&kernel, at: 13, [13]) == [13])
    }

    @Test func aRepeatedSampleIsWithheldAndCountedPerChannel() {
        var timing = SampleTiming(source: .dataReadyEdge, samplePeriodNanoseconds: 10 * Self.ms)
        let zero = Vector3(x: .zero, y: .zero, z: .zero)
        func admit(_ stamp: Int64, _ value: SensorValue) -> Bool { timing.admit(SensorReading(timestampNanoseconds: stamp * Self.ms, value: value)) }
        #expect(admit(0, .acceleration(zero)))
        #expect(admit(0, .angularVelocity(zero)), "another channel at the same time is no repeat")
        #expect(!admit(0, .acceleration(zero)))
        #expect(!admit(-10, .acceleration(zero)))
        #expect(admit(10, .acceleration(zero)))
        #expect(timing.duplicated == 2)
        #expect(timing.duplicatedByChannel[Int(SensorChannel.accelerometer.rawValue)] == 2)
        #expect(timing.duplicatedByChannel[Int(SensorChannel.gyroscope.rawValue)] == 0)
        #expect(timing.dropped == 0)
    }
}

/// A chip whose rate changes in place (`BoardRuntime.setFIFORate`): the interval spanning the
/// change is judged against the longer period, later ones against the new period.
@Suite struct SampleTimingRateChangeTests {
    static let ms: Int64 = 1_000_000

    func admit(_ timing: inout SampleTiming, _ stamps: [Int64]) {
        for stamp in stamps { _ = timing.admit(SensorReading(timestampNanoseconds: stamp * Self.ms, value: .acceleration(Vector3(x: .zero, y: .zero, z: .zero)))) }
    }

    @Test func theSpanningIntervalIsNoLossButALaterGapIs() {
        var timing = SampleTiming(source: .sampleSchedule, samplePeriodNanoseconds: 10 * Self.ms)
        admit(&timing, [0, 10, 20])
        timing.rateChanged(samplePeriodNanoseconds: Self.ms)
        admit(&timing, [31, 32, 33])  // 11 ms across the change: within 10 + 1
        #expect(timing.dropped == 0)
        admit(&timing, [36])  // 3 ms at 1 kHz: samples 34 and 35 lost
        #expect(timing.dropped == 2)
        timing.rateChanged(samplePeriodNanoseconds: 10 * Self.ms)
        admit(&timing, [46, 56])  // 10 ms across the change back
        #expect(timing.dropped == 2)
    }

    @Test func aLossAcrossTheChangeIsStillCounted() {
        var timing = SampleTiming(source: .sampleSchedule, samplePeriodNanoseconds: 10 * Self.ms)
        admit(&timing, [0, 10])
        timing.rateChanged(samplePeriodNanoseconds: Self.ms)
        admit(&timing, [60, 61])  // 50 ms across the change, judged against 10 ms: 4 samples lost
        #expect(timing.dropped == 4)
        #expect(timing.droppedByChannel[Int(SensorChannel.accelerometer.rawValue)] == timing.dropped)
    }
}
