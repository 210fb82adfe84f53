import Glibc

/// A text file written line by line through stdio's buffer: how replay writes its CSV and JSON
/// outputs. Errors (a missing folder, a full disk) are reported with the path, never dropped:
/// `close()` flushes and reports what the buffered writes could not do.
public final class OutputFile {
    public let path: String
    private var stream: UnsafeMutablePointer<FILE>?

    public init(path: String) throws(EngineError) {
        self.path = path
        guard let stream = fopen(path, "w") else {
            throw EngineError.cannotWriteOutput(path: path, reason: String(cString: strerror(errno)))
        }
        self.stream = stream
    }

    deinit {
        if let stream { fclose(stream) }
    }

    /// Appends `text` and a newline.
    public func writeLine(_ text: String) throws(EngineError) {
        guard let stream else { throw EngineError.cannotWriteOutput(path: path, reason: "the file is already closed") }
        var line = text
        line.append("\n")
        let written = line.withUTF8 { fwrite($0.baseAddress, 1, $0.count, stream) }
        if written != line.utf8.count {
            throw EngineError.cannotWriteOutput(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Flushes and closes; a flush or close failure (ENOSPC, EIO) is thrown, not lost.
    public func close() throws(EngineError) {
        guard let stream else { return }
        self.stream = nil
        let flushFailed = fflush(stream) != 0
        let flushErrno = errno
        let closeFailed = fclose(stream) != 0
        if flushFailed || closeFailed {
            throw EngineError.cannotWriteOutput(path: path, reason: String(cString: strerror(flushFailed ? flushErrno : errno)))
        }
    }
}
