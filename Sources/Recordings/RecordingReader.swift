/// Reads a recording (format version 1, `.csv` or `.csv.gz`) one sample at a time, in constant
/// memory. The header is read and checked by `init`; `next()` returns samples until the clean
/// end of the file. The first malformed line stops the reader with an error naming the file,
/// line and column, and every later call throws that same error: a reader never skips a bad row
/// and never returns half a file as if it were whole (a truncated gzip stream is an error).
public final class RecordingReader {
    public struct Options: Sendable {
        /// Skip (and count) rows whose sensor kind this version does not know, instead of
        /// stopping with an error. Off by default: an unknown kind is usually a typo.
        public var skipUnknownSensors: Bool

        public init(skipUnknownSensors: Bool = false) {
            self.skipUnknownSensors = skipUnknownSensors
        }
    }

    /// The first line of every recording of this version.
    public static let signature = "# ocm-recording 1"
    /// The column line that ends the header.
    public static let columnLine = "t,sensor,x,y,z"

    public let path: String
    public let metadata: RecordingMetadata
    public let options: Options
    /// 1-based number of the line last read.
    public var lineNumber: Int { lines.lineNumber }
    /// Rows skipped because of an unknown sensor kind (only with `skipUnknownSensors`).
    public private(set) var skippedUnknownSensorRows = 0

    private let lines: LineReader
    private var previousTimestamp = Int64.min
    private var blankLineNumber: Int?
    private var failure: RecordingError?

    public init(path: String, options: Options = .init()) throws(RecordingError) {
        self.path = path
        self.options = options
        lines = LineReader(file: try CompressedFile(path: path, mode: .read))
        metadata = try Self.readHeader(lines, path: path)
    }

    /// The next sample; nil only at the clean end of the file.
    public func next() throws(RecordingError) -> RecordedSample? {
        if let failure { throw failure }
        do {
            return try readSample()
        } catch {
            failure = error
            throw error
        }
    }

    private func readSample() throws(RecordingError) -> RecordedSample? {
        while let line = try lines.nextLine() {
            if line.isEmpty {
                // Blank lines are tolerated only at the very end of the file.
                blankLineNumber = blankLineNumber ?? lines.lineNumber
                continue
            }
            if let blank = blankLineNumber {
                throw RecordingError(path: path, line: blank, problem: "blank line inside the data",
                                     advice: "Rows must follow each other without empty lines.")
            }
            if let sample = try parseRow(line) { return sample }
        }
        return nil
    }

    private func error(_ column: String?, _ problem: String, advice: String? = nil) -> RecordingError {
        RecordingError(path: path, line: lines.lineNumber, column: column, problem: problem, advice: advice)
    }

    /// One data row, or nil for a skipped unknown-sensor row.
    private func parseRow(_ line: UnsafeMutableBufferPointer<UInt8>) throws(RecordingError) -> RecordedSample? {
        // Field boundaries: five fields, four commas.
        var bounds: (Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, line.count + 1)
        var commas = 0
        for index in 0..<line.count where line[index] == UInt8(ascii: ",") {
            commas += 1
            switch commas {
            case 1: bounds.1 = index + 1
            case 2: bounds.2 = index + 1
            case 3: bounds.3 = index + 1
            case 4: bounds.4 = index + 1
            default: break
            }
        }
        guard commas == 4 else {
            throw error(nil, "expected 5 fields (t,sensor,x,y,z), found \(commas + 1): \"\(FieldParsing.text(line, 0..<line.count))\"")
        }
        let tRange = bounds.0..<(bounds.1 - 1), sensorRange = bounds.1..<(bounds.2 - 1)
        let xRange = bounds.2..<(bounds.3 - 1), yRange = bounds.3..<(bounds.4 - 1), zRange = bounds.4..<(bounds.5 - 1)

        guard let timestamp = FieldParsing.parseTimestamp(line, tRange) else {
            throw error("t", "\"\(FieldParsing.text(line, tRange))\" is not a time in seconds",
                        advice: "Expected a decimal number of seconds with at most 9 decimals, such as 12.345678.")
        }
        guard let sensor = Self.sensorKind(line, sensorRange) else {
            if options.skipUnknownSensors {
                skippedUnknownSensorRows += 1
                return nil
            }
            throw error("sensor", "unknown sensor kind \"\(FieldParsing.text(line, sensorRange))\"",
                        advice: "Known kinds: acc, gyr, mag, baro, temp (or ask the reader to skip unknown kinds).")
        }
        guard timestamp >= previousTimestamp else {
            throw error("t", "time \(Self.seconds(timestamp)) s is earlier than the previous row's \(Self.seconds(previousTimestamp)) s",
                        advice: "Rows must be sorted by t.")
        }
        let x = try number(line, xRange, "x")
        var y = 0.0, z = 0.0
        if sensor.isVector {
            y = try number(line, yRange, "y")
            z = try number(line, zRange, "z")
        } else {
            if !yRange.isEmpty { throw scalarError(line, yRange, "y", sensor) }
            if !zRange.isEmpty { throw scalarError(line, zRange, "z", sensor) }
        }
        previousTimestamp = timestamp
        return RecordedSample(timestampNanoseconds: timestamp, sensor: sensor, x: x, y: y, z: z)
    }

    private func scalarError(_ line: UnsafeMutableBufferPointer<UInt8>, _ range: Range<Int>, _ column: String,
                             _ sensor: SensorKind) -> RecordingError {
        error(column, "\(sensor.recordingName) has one value (x); found \"\(FieldParsing.text(line, range))\" here",
              advice: "Leave y and z empty for scalar sensors.")
    }

    private func number(_ line: UnsafeMutableBufferPointer<UInt8>, _ range: Range<Int>, _ column: String) throws(RecordingError) -> Double {
        guard !range.isEmpty else { throw error(column, "the value is missing") }
        guard let value = FieldParsing.parseNumber(line, range) else {
            throw error(column, "\"\(FieldParsing.text(line, range))\" is not a number")
        }
        return value
    }

    private static func sensorKind(_ line: UnsafeMutableBufferPointer<UInt8>, _ range: Range<Int>) -> SensorKind? {
        if FieldParsing.equals(line, range, "acc") { return .accelerometer }
        if FieldParsing.equals(line, range, "gyr") { return .gyroscope }
        if FieldParsing.equals(line, range, "mag") { return .magnetometer }
        if FieldParsing.equals(line, range, "baro") { return .barometer }
        if FieldParsing.equals(line, range, "temp") { return .thermometer }
        return nil
    }

    /// Nanoseconds as decimal seconds for messages, e.g. 1.010000.
    static func seconds(_ nanoseconds: Int64) -> String {
        TimestampFormatting.format(nanoseconds)
    }
}
