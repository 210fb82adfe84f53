/// Writes a recording (format version 1): gzip-compressed when the path ends in `.gz`, plain
/// otherwise. Values are written exactly (shortest round-trip decimals, timestamps to the
/// nanosecond), so reading the file back gives the same samples bit for bit.
public final class RecordingWriter {
    public let path: String
    private let file: CompressedFile
    private var previousTimestamp = Int64.min

    /// Creates the file and writes the header: signature, metadata, column line.
    public init(path: String, metadata: RecordingMetadata) throws(RecordingError) {
        self.path = path
        for entry in metadata.entries {
            guard RecordingMetadata.isValidKey(entry.key) else {
                throw RecordingError(path: path, problem: "metadata key \"\(entry.key)\" may hold only lower-case letters, digits, '.', '_' and '-'")
            }
            guard !entry.value.contains(where: { $0 == "\n" || $0 == "\r" }) else {
                throw RecordingError(path: path, problem: "metadata value of \"\(entry.key)\" contains a line break")
            }
        }
        file = try CompressedFile(path: path, mode: .write(compressed: path.hasSuffix(".gz")))
        var header = RecordingReader.signature + "\n"
        for entry in metadata.entries { header += "# \(entry.key): \(entry.value)\n" }
        header += RecordingReader.columnLine + "\n"
        try writeText(header)
    }

    /// Appends one sample. Samples must come in time order (equal times allowed).
    public func write(_ sample: RecordedSample) throws(RecordingError) {
        guard sample.timestampNanoseconds >= previousTimestamp else {
            throw RecordingError(
                path: path,
                problem: "sample at \(TimestampFormatting.format(sample.timestampNanoseconds)) s is earlier than the previous one at \(TimestampFormatting.format(previousTimestamp)) s",
                advice: "Write samples in time order.")
        }
        guard sample.x.isFinite, sample.y.isFinite, sample.z.isFinite else {
            throw RecordingError(path: path, problem: "sample at \(TimestampFormatting.format(sample.timestampNanoseconds)) s has a value that is not a finite number",
                                 advice: "A recording holds measured values only.")
        }
        previousTimestamp = sample.timestampNanoseconds
        var text = TimestampFormatting.format(sample.timestampNanoseconds)
        text += ","
        text += sample.sensor.recordingName
        text += ","
        text += DecimalFormatting.format(sample.x)
        if sample.sensor.isVector {
            text += ","
            text += DecimalFormatting.format(sample.y)
            text += ","
            text += DecimalFormatting.format(sample.z)
            text += "\n"
        } else {
            text += ",,\n"
        }
        try writeText(text)
    }

    /// Flushes and closes the file; errors (a full disk) are thrown, never lost.
    public func close() throws(RecordingError) {
        try file.close()
    }

    private func writeText(_ text: String) throws(RecordingError) {
        var text = text
        let result: Result<Void, RecordingError> = text.withUTF8 { bytes in
            Result { () throws(RecordingError) in try file.write(UnsafeRawBufferPointer(bytes)) }
        }
        try result.get()
    }
}
