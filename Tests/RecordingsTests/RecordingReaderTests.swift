import Glibc
import Recordings
import Testing
import TestSupport

/// A scratch file for one test, removed at the end.
func scratchPath(_ name: String) -> String {
    "/tmp/ocm-recordings-tests-\(getpid())-\(name)"
}

func writeFile(_ path: String, _ text: String) {
    let file = fopen(path, "w")!
    fputs(text, file)
    fclose(file)
}

/// Reads every sample or returns the first error's description.
func readAll(_ path: String, options: RecordingReader.Options = .init()) -> (samples: [RecordedSample], error: String?) {
    var samples: [RecordedSample] = []
    do {
        let reader = try RecordingReader(path: path, options: options)
        while let sample = try reader.next() { samples.append(sample) }
        return (samples, nil)
    } catch {
        return (samples, error.description)
    }
}

@Suite struct RecordingReaderTests {
    static let header = "# ocm-recording 1\n# device: test\nt,sensor,x,y,z\n"

    /// Each malformed input with the exact message the reader must give (line numbers count
    /// the header: the first data row is line 4 after `header`).
    static let malformedCases: [(name: String, text: String, message: String)] = [
        ("not a number", header + "0.0,acc,1,2,3\n0.1,acc,9.8.1,2,3\n", #":5: column x: "9.8.1" is not a number"#),
        ("missing value", header + "0.0,acc,1,,3\n", ":4: column y: the value is missing"),
        ("too few fields", header + "0.0,acc,1,2\n", #":4: expected 5 fields (t,sensor,x,y,z), found 4: "0.0,acc,1,2""#),
        ("too many fields", header + "0.0,acc,1,2,3,4\n", ":4: expected 5 fields (t,sensor,x,y,z), found 6"),
        ("bad time", header + "0.0.1,acc,1,2,3\n", #":4: column t: "0.0.1" is not a time in seconds"#),
        ("10 decimals", header + "0.0123456789,acc,1,2,3\n", #":4: column t: "0.0123456789" is not a time in seconds"#),
        ("unknown sensor", header + "0.0,accel,1,2,3\n", #":4: column sensor: unknown sensor kind "accel""#),
        ("out of order", header + "1.0,acc,1,2,3\n0.5,gyr,1,2,3\n", ":5: column t: time 0.500000 s is earlier than the previous row's 1.000000 s"),
        ("scalar with y", header + "0.0,baro,101325,1,\n", #":4: column y: baro has one value (x); found "1" here"#),
        ("nan", header + "0.0,acc,nan,2,3\n", #":4: column x: "nan" is not a number"#),
        ("overflow", header + "0.0,acc,1e999,2,3\n", #":4: column x: "1e999" is not a number"#),
        ("blank line inside", header + "0.0,acc,1,2,3\n\n0.1,acc,1,2,3\n", ":5: blank line inside the data"),
        ("wrong signature", "# ocm-recording 2\nt,sensor,x,y,z\n", ##":1: the first line is "# ocm-recording 2", not "# ocm-recording 1""##),
        ("empty file", "", ":1: the file is empty"),
        ("bad metadata key", "# ocm-recording 1\n# Device: x\nt,sensor,x,y,z\n", #":2: metadata key "Device" may hold only"#),
        ("no column line", "# ocm-recording 1\n# device: x\n", #":2: the file ends before the column line"#),
        ("wrong column line", "# ocm-recording 1\ntime,sensor,x,y,z\n", ##":2: expected a "# key: value" metadata line or the column line"##),
    ]

    @Test(arguments: 0..<malformedCases.count)
    func malformedInputNamesLineAndColumn(_ index: Int) {
        let (name, text, message) = Self.malformedCases[index]
        let path = scratchPath("malformed-\(index).csv")
        defer { unlink(path) }
        writeFile(path, text)
        let result = readAll(path)
        #expect(result.error?.hasPrefix(path) == true, "\(name): \(result.error ?? "no error")")
        #expect(result.error?.contains(message) == true, "\(name): expected …\(message)…, got \(result.error ?? "no error")")
    }

    @Test func theFirstErrorRepeatsAndNothingAfterItIsRead() throws {
        let path = scratchPath("repeat.csv")
        defer { unlink(path) }
        writeFile(path, Self.header + "0.0,acc,1,2,3\n0.1,acc,x,2,3\n0.2,acc,1,2,3\n")
        let reader = try RecordingReader(path: path)
        #expect(try reader.next()?.x == 1)
        for _ in 0..<3 {
            #expect(throws: RecordingError.self) { try reader.next() }
        }
        #expect(reader.lineNumber == 5)
    }

    @Test func acceptsCRLFExponentsSignsAndAMissingFinalNewline() throws {
        let path = scratchPath("liberal.csv")
        defer { unlink(path) }
        writeFile(path, "# ocm-recording 1\r\n# note: a: b\r\nt,sensor,x,y,z\r\n1.5,acc,-1.5e-3,+2,.5\r\n1.5,baro,101325.25,,\r\n2,temp,-4,,\n\n")
        let result = readAll(path)
        #expect(result.error == nil, "\(result.error ?? "")")
        #expect(result.samples == [
            RecordedSample(timestampNanoseconds: 1_500_000_000, sensor: .accelerometer, x: -0.0015, y: 2, z: 0.5),
            RecordedSample(timestampNanoseconds: 1_500_000_000, sensor: .barometer, x: 101_325.25),
            RecordedSample(timestampNanoseconds: 2_000_000_000, sensor: .thermometer, x: -4),
        ])
        let reader = try RecordingReader(path: path)
        #expect(reader.metadata["note"] == "a: b")
    }

    @Test func timestampsAreParsedExactlyToTheNanosecond() {
        let path = scratchPath("time.csv")
        defer { unlink(path) }
        writeFile(path, Self.header + "0.000000001,acc,0,0,0\n12345.678901234,acc,0,0,0\n9000000000,acc,0,0,0\n")
        let result = readAll(path)
        #expect(result.samples.map(\.timestampNanoseconds) == [1, 12_345_678_901_234, 9_000_000_000_000_000_000])
    }

    @Test func unknownSensorsCanBeSkippedAndCounted() throws {
        let path = scratchPath("unknown.csv")
        defer { unlink(path) }
        writeFile(path, Self.header + "0.0,acc,1,2,3\n0.1,light,300,,\n0.2,acc,1,2,3\n")
        let reader = try RecordingReader(path: path, options: .init(skipUnknownSensors: true))
        var count = 0
        while try reader.next() != nil { count += 1 }
        #expect(count == 2)
        #expect(reader.skippedUnknownSensorRows == 1)
    }

    @Test func aLineLongerThanTheLimitIsAnError() {
        let path = scratchPath("long.csv")
        defer { unlink(path) }
        writeFile(path, Self.header + "0.0,acc,1,2," + String(repeating: "9", count: 5000) + "\n")
        #expect(readAll(path).error?.contains(":4: the line is longer than 4096 bytes") == true)
    }
}
