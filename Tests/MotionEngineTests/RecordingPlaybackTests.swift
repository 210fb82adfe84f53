import FixedPoint
import MotionAlgorithms
@testable import MotionEngine
import Recordings
import Testing
import TestSupport

@Suite struct RecordingPlaybackTests {
    @Test func replaysEverySampleOfABundledRecording() throws {
        let playback = try RecordingPlayback(path: ProjectPaths.recording("uci_hapt_exp01_user01_stand_walk.csv.gz"))
        #expect(playback.metadata["license"] == "CC-BY-4.0")
        let count = try playback.run()
        // 100 s of UCI HAPT at 50 Hz: 5000 accelerometer and 5000 gyroscope rows.
        #expect(count == 10_000)
        #expect(playback.summary[.accelerometer].stream.sampleCount == 5000)
        #expect(playback.summary[.gyroscope].stream.sampleCount == 5000)
        #expect(playback.summary.activeChannels == [.accelerometer, .gyroscope])
        #expect(playback.summary[.accelerometer].stream.averageRateMilliHertz == 50_000)
        // Mean |a| in fixed point against a Double oracle over the same rows: within 1 LSB
        // (each length is correctly rounded, so the mean of 5000 is off by at most ½ LSB).
        // (This phone reads 10.30 m/s² standing still: a 5 % scale error, not ours.)
        let reader = try RecordingReader(path: playback.path)
        var sum = 0.0, accelerometerRows = 0.0
        while let sample = try reader.next() {
            guard sample.sensor == .accelerometer else { continue }
            sum += (sample.x * sample.x + sample.y * sample.y + sample.z * sample.z).squareRoot()
            accelerometerRows += 1
        }
        let meanAcceleration = Double(playback.summary[.accelerometer].total.meanRaw.level) / 65536
        #expect(abs(meanAcceleration - sum / accelerometerRows) <= 1.0 / 65536, "mean |a| = \(meanAcceleration), oracle \(sum / accelerometerRows)")
        #expect(playback.summary[.accelerometer].saturatedSamples == 0)
    }

    @Test func conversionRoundsToTheNearestLSB() {
        let recorded = RecordedSample(timestampNanoseconds: 42, sensor: .accelerometer, x: 9.80665, y: -0.5, z: 1.0 / 131072)
        guard case .acceleration(let vector) = SensorReading(recorded).value else {
            Issue.record("an accelerometer sample must become an acceleration"); return
        }
        #expect(vector.x.rawValue == 642_689)  // 9.80665 × 65536 = 642 689.01
        #expect(vector.y.rawValue == -32_768)
        #expect(vector.z.rawValue == 0)        // exactly half an LSB: ties to even
        let pressure = RecordedSample(timestampNanoseconds: 0, sensor: .barometer, x: 101_325.125)
        #expect(SensorReading(pressure).value == .pressure(Q24_8(rawValue: 25_939_232)))  // × 256
    }

    @Test func saturationIsDetected() {
        #expect(SensorReading.isSaturated(RecordedSample(timestampNanoseconds: 0, sensor: .gyroscope, x: 0, y: 40_000, z: 0)))
        #expect(!SensorReading.isSaturated(RecordedSample(timestampNanoseconds: 0, sensor: .barometer, x: 101_325)))
        #expect(SensorReading.isSaturated(RecordedSample(timestampNanoseconds: 0, sensor: .accelerometer, x: .nan)))
    }

    @Test func aChannelGoingBackInTimeStopsThePipeline() throws {
        var summary = StreamSummary()
        let vector = Vector3(x: Q16_16(rawValue: 0), y: Q16_16(rawValue: 0), z: Q16_16(rawValue: 65536))
        try summary.record(SensorReading(timestampNanoseconds: 2_000, value: .acceleration(vector)))
        // Another channel may be earlier (channels are independent) ...
        try summary.record(SensorReading(timestampNanoseconds: 1_000, value: .angularVelocity(vector)))
        // ... but the same channel may not.
        #expect(throws: EngineError.self) {
            try summary.record(SensorReading(timestampNanoseconds: 1_500, value: .acceleration(vector)))
        }
        let error = EngineError.timestampWentBackwards(sensor: .accelerometer, previousNanoseconds: 2_000, nanoseconds: 1_500)
        #expect(error.description.contains("0.000002 s"))
        #expect(error.description.contains("acc"))
    }

    @Test func sensorChannelAndKindRawValuesAgree() {
        for kind in SensorKind.allCases {
            #expect(SensorKind(SensorChannel(kind)) == kind)
            #expect(SensorChannel(kind).rawValue == kind.rawValue)
        }
        #expect(SensorChannel.allCases.count == SensorKind.allCases.count)
    }

    @Test func malformedRecordingErrorCarriesTheReadersMessage() throws {
        #expect {
            _ = try RecordingPlayback(path: "/nonexistent/walk.csv.gz")
        } throws: { error in
            (error as? EngineError).map { "\($0)".contains("/nonexistent/walk.csv.gz") } ?? false
        }
    }
}
