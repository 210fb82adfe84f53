import Glibc
import Recordings
import Testing
import TestSupport

@Suite(.blocking) struct RecordingWriterTests {
    /// Random samples of every kind with awkward values: tiny, huge, negative, many digits.
    static func randomSamples(count: Int, seed: UInt64) -> [RecordedSample] {
        var random = SeededRandom(seed: seed)
        var time: Int64 = 1_234_567_000
        return (0..<count).map { index in
            time += Int64(random.next() % 5_000_000)  // sometimes equal times (0 ns step)
            let kind = SensorKind.allCases[Int(random.next() % 5)]
            func value() -> Double {
                let magnitude = Double.random(in: -6...6, using: &random)
                return (Bool.random(using: &random) ? -1 : 1) * Double.random(in: 1..<10, using: &random) * pow(10, magnitude.rounded())
            }
            // Every 7th sample at a nanosecond-resolution time, the rest at microseconds.
            let timestamp = index % 7 == 0 ? time + 123 : time - time % 1000
            time = max(time, timestamp)
            return kind.isVector
                ? RecordedSample(timestampNanoseconds: timestamp, sensor: kind, x: value(), y: value(), z: value())
                : RecordedSample(timestampNanoseconds: timestamp, sensor: kind, x: value())
        }
    }

    @Test(arguments: [".csv", ".csv.gz"])
    func writeThenReadRoundTripsBitExactly(_ suffix: String) throws {
        let path = scratchPath("roundtrip\(suffix)")
        defer { unlink(path) }
        let samples = Self.randomSamples(count: 5000, seed: 0xC0FFEE)
        let metadata = RecordingMetadata(entries: [.init(key: "device", value: "test rig"), .init(key: "rate.acc", value: "100")])
        let writer = try RecordingWriter(path: path, metadata: metadata)
        for sample in samples { try writer.write(sample) }
        try writer.close()
        let reader = try RecordingReader(path: path)
        #expect(reader.metadata == metadata)
        var read: [RecordedSample] = []
        while let sample = try reader.next() { read.append(sample) }
        #expect(read.count == samples.count)
        for (expected, observed) in zip(samples, read) where expected != observed {
            Issue.record("wrote \(expected), read \(observed)")
            break
        }
    }

    @Test func gzipOutputIsCompressedAndPlainIsNot() throws {
        for suffix in [".csv", ".csv.gz"] {
            let path = scratchPath("magic\(suffix)")
            defer { unlink(path) }
            let writer = try RecordingWriter(path: path, metadata: .init())
            try writer.write(RecordedSample(timestampNanoseconds: 0, sensor: .accelerometer, x: 0, y: 0, z: 9.81))
            try writer.close()
            let file = fopen(path, "rb")!
            let first = fgetc(file), second = fgetc(file)
            fclose(file)
            let isGzip = first == 0x1F && second == 0x8B
            #expect(isGzip == suffix.hasSuffix(".gz"), "\(suffix): first bytes \(first) \(second)")
        }
    }

    @Test func writesTheFormatsLayout() throws {
        let path = scratchPath("layout.csv")
        defer { unlink(path) }
        let writer = try RecordingWriter(path: path, metadata: RecordingMetadata(entries: [.init(key: "license", value: "CC-BY-4.0")]))
        try writer.write(RecordedSample(timestampNanoseconds: 12_500_000, sensor: .magnetometer, x: 21.53, y: -4.1, z: 0.00001))
        try writer.write(RecordedSample(timestampNanoseconds: 40_000_001, sensor: .barometer, x: 101_325.12))
        try writer.close()
        let text = String(decoding: CompressedFileTests.bytes(of: path), as: UTF8.self)
        #expect(text == "# ocm-recording 1\n# license: CC-BY-4.0\nt,sensor,x,y,z\n0.012500,mag,21.53,-4.1,0.00001\n0.040000001,baro,101325.12,,\n")
    }

    @Test func refusesOutOfOrderSamplesNonFiniteValuesAndBadKeys() throws {
        let path = scratchPath("refuse.csv")
        defer { unlink(path) }
        let writer = try RecordingWriter(path: path, metadata: .init())
        try writer.write(RecordedSample(timestampNanoseconds: 2_000, sensor: .gyroscope, x: 0, y: 0, z: 0))
        #expect(throws: RecordingError.self) { try writer.write(RecordedSample(timestampNanoseconds: 1_000, sensor: .gyroscope, x: 0, y: 0, z: 0)) }
        #expect(throws: RecordingError.self) { try writer.write(RecordedSample(timestampNanoseconds: 3_000, sensor: .gyroscope, x: .nan, y: 0, z: 0)) }
        try writer.close()
        #expect(throws: RecordingError.self) {
            _ = try RecordingWriter(path: path, metadata: RecordingMetadata(entries: [.init(key: "Bad Key", value: "x")]))
        }
    }

    @Test func writingIntoAMissingFolderSaysWhy() {
        #expect {
            _ = try RecordingWriter(path: "/nonexistent/folder/out.csv.gz", metadata: .init())
        } throws: { error in
            "\(error)".contains("/nonexistent/folder/out.csv.gz: could not create the file: No such file or directory")
        }
    }
}

@Suite(.blocking) struct DecimalFormattingTests {
    @Test func plainDecimalWithoutExponentAndShortestDigits() {
        let cases: [(Double, String)] = [
            (9.8012, "9.8012"), (9.0, "9"), (-0.0, "0"), (0, "0"), (1e-5, "0.00001"), (-1.5e-7, "-0.00000015"),
            (1.2345e20, "123450000000000000000"), (101_325.12, "101325.12"), (0.1, "0.1"), (123.456e-10, "0.0000000123456"),
        ]
        for (value, expected) in cases {
            #expect(DecimalFormatting.format(value) == expected, "\(value)")
        }
    }

    @Test func roundTripsSeededRandomDoubles() {
        var random = SeededRandom(seed: 99)
        for _ in 0..<20_000 {
            let value = Double(bitPattern: random.next())
            guard value.isFinite else { continue }
            let text = DecimalFormatting.format(value)
            #expect(!text.contains("e"))
            #expect(Double(text) == value, "\(value) → \(text)")
        }
    }
}
