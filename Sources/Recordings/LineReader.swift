/// Splits a file into lines with one fixed buffer: memory stays constant however long the file.
/// A line is handed out as a view into the buffer, valid until the next call.
final class LineReader {
    /// Longest accepted line in bytes, without its line end. A recording row is under 100 bytes;
    /// a longer line means the file is not a recording (or is binary), and is an error.
    static let maximumLineLength = 4096
    private static let capacity = 64 * 1024

    let file: CompressedFile
    /// 1-based number of the line last returned.
    private(set) var lineNumber = 0
    private let buffer: UnsafeMutablePointer<UInt8>
    private var start = 0
    private var end = 0
    private var atEndOfFile = false

    init(file: CompressedFile) {
        self.file = file
        // One byte more than the capacity, so a NUL can always follow a line (number parsing).
        buffer = .allocate(capacity: Self.capacity + 1)
    }

    deinit { buffer.deallocate() }

    /// The next line without its `\n` or `\r\n`; nil at the end of the file. The last line may
    /// lack a line end.
    func nextLine() throws(RecordingError) -> UnsafeMutableBufferPointer<UInt8>? {
        var searchFrom = start
        while true {
            if let newline = firstNewline(from: searchFrom) {
                let line = try take(upTo: newline)
                start = newline + 1
                return line
            }
            if atEndOfFile {
                guard end > start else { return nil }
                let line = try take(upTo: end)
                start = end
                return line
            }
            // No line end in the buffer: slide the partial line to the front and read more.
            searchFrom = end - start
            if start > 0 {
                buffer.update(from: buffer + start, count: end - start)
                end -= start
                start = 0
            }
            if end >= Self.maximumLineLength + 2 {
                throw RecordingError(path: file.path, line: lineNumber + 1,
                                     problem: "the line is longer than \(Self.maximumLineLength) bytes",
                                     advice: "This is not a recording of this format (a recording row is a few dozen bytes).")
            }
            let count = try file.read(into: UnsafeMutableRawBufferPointer(start: buffer + end, count: Self.capacity - end))
            if count == 0 { atEndOfFile = true }
            end += count
        }
    }

    private func firstNewline(from index: Int) -> Int? {
        var index = index
        while index < end {
            if buffer[index] == UInt8(ascii: "\n") { return index }
            index += 1
        }
        return nil
    }

    private func take(upTo lineEnd: Int) throws(RecordingError) -> UnsafeMutableBufferPointer<UInt8> {
        lineNumber += 1
        var length = lineEnd - start
        if length > 0 && buffer[start + length - 1] == UInt8(ascii: "\r") { length -= 1 }
        if length > Self.maximumLineLength {
            throw RecordingError(path: file.path, line: lineNumber,
                                 problem: "the line is longer than \(Self.maximumLineLength) bytes",
                                 advice: "This is not a recording of this format (a recording row is a few dozen bytes).")
        }
        return UnsafeMutableBufferPointer(start: buffer + start, count: length)
    }
}
