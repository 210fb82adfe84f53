import FixedPoint
import MotionAlgorithms
import MotionEngine
import Testing

/// A sensor that stops (or starts) well inside the others' span is found, with how long it was
/// missing; the ordinary offsets between sensors are not.
@Suite struct StreamCoverageTests {
    static let vector = Vector3(x: Q16_16(rawValue: 0), y: Q16_16(rawValue: 0), z: Q16_16(rawValue: 65536))

    /// `channel`'s readings every `period` ns from `start` to `end` (ns, inclusive).
    static func record(_ summary: inout StreamSummary, _ value: SensorValue, every period: Int64, from start: Int64, to end: Int64) throws {
        var time = start
        while time <= end {
            try summary.record(SensorReading(timestampNanoseconds: time, value: value))
            time += period
        }
    }

    @Test func aGyroscopeThatStopsMidRecordingIsFound() throws {
        var summary = StreamSummary()
        // 100 Hz accelerometer for 60 s; the gyroscope stops at 20 s; the magnetometer (25 Hz)
        // starts 0.2 s late, as chips do (10 of its periods: not a finding).
        try Self.record(&summary, .acceleration(Self.vector), every: 10_000_000, from: 0, to: 60_000_000_000)
        try Self.record(&summary, .angularVelocity(Self.vector), every: 10_000_000, from: 5_000_000, to: 20_005_000_000)
        try Self.record(&summary, .magneticField(Self.vector), every: 40_000_000, from: 200_000_000, to: 60_000_000_000)
        let found = summary.shortStreams
        #expect(found.map(\.channel) == [.gyroscope])
        let gyroscope = try #require(found.first)
        #expect(gyroscope.earlyNanoseconds == 39_995_000_000)
        #expect(gyroscope.lateNanoseconds == 5_000_000)
        // Its gaps say nothing of it: the stream simply ended.
        #expect(summary[.gyroscope].stream.gapCount == 0)
    }

    @Test func aLateStartIsFoundAndASlowSensorIsJudgedByItsOwnPeriod() throws {
        var summary = StreamSummary()
        try Self.record(&summary, .acceleration(Self.vector), every: 10_000_000, from: 0, to: 120_000_000_000)
        // The magnetometer starts 3 s late (75 of its periods).
        try Self.record(&summary, .magneticField(Self.vector), every: 40_000_000, from: 3_000_000_000, to: 120_000_000_000)
        // A 1 Hz barometer ending 10 s early is within 20 of its periods; one 30 s early is not.
        var withBarometer = summary
        try Self.record(&withBarometer, .pressure(Q24_8(rawValue: 101_325 << 8)), every: 1_000_000_000, from: 0, to: 110_000_000_000)
        #expect(withBarometer.shortStreams.map(\.channel) == [.magnetometer])
        try Self.record(&summary, .pressure(Q24_8(rawValue: 101_325 << 8)), every: 1_000_000_000, from: 0, to: 90_000_000_000)
        #expect(summary.shortStreams.map(\.channel) == [.magnetometer, .barometer])
        let magnetometer = try #require(summary.shortStreams.first)
        #expect(magnetometer.lateNanoseconds == 3_000_000_000 && magnetometer.earlyNanoseconds == 0)
    }

    @Test func aLoneTemperatureReadingIsNoFinding() throws {
        var summary = StreamSummary()
        try summary.record(SensorReading(timestampNanoseconds: 0, value: .temperature(Q16_16(rawValue: 25 << 16))))
        try Self.record(&summary, .acceleration(Self.vector), every: 10_000_000, from: 0, to: 30_000_000_000)
        #expect(summary.shortStreams.isEmpty)
        #expect(StreamSummary().shortStreams.isEmpty)
    }
}
