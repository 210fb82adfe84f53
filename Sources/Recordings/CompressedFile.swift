import CZlib
import Glibc

/// A file read or written through zlib's gz* functions: gzip-compressed (`.gz`) or plain,
/// transparently (zlib reads a file without a gzip header as it is, and writes one with mode
/// "T"). The one place that calls zlib; its return conventions are converted to errors here.
final class CompressedFile {
    let path: String
    private var handle: gzFile?

    enum Mode {
        case read
        /// Write, gzip-compressed at level 6 when `compressed`, else plain.
        case write(compressed: Bool)
    }

    init(path: String, mode: Mode) throws(RecordingError) {
        self.path = path
        let modeString: String
        switch mode {
        case .read: modeString = "rb"
        case .write(let compressed): modeString = compressed ? "wb6" : "wbT"
        }
        errno = 0
        guard let handle = gzopen(path, modeString) else {
            let reason = errno != 0 ? String(cString: strerror(errno)) : "zlib could not allocate its state"
            let verb = if case .read = mode { "open" } else { "create" }
            throw RecordingError(path: path, problem: "could not \(verb) the file: \(reason)",
                                 advice: errno == ENOENT ? "Check the path." : nil)
        }
        self.handle = handle
        // A larger buffer than zlib's default 8 KiB: fewer read(2) calls on big recordings.
        gzbuffer(handle, 128 * 1024)
    }

    deinit {
        if let handle { gzclose(handle) }
    }

    /// Reads up to `buffer.count` decompressed bytes; 0 only at a clean end of the file. A
    /// truncated or corrupt gzip stream throws: it is never mistaken for the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(RecordingError) -> Int {
        guard let handle, buffer.count > 0 else { return 0 }
        let count = gzread(handle, buffer.baseAddress, UInt32(truncatingIfNeeded: min(buffer.count, Int(Int32.max))))
        if count < 0 { throw failure("could not read") }
        if count == 0 {
            // zlib reports a gzip stream cut short as a plain end of file and leaves Z_BUF_ERROR
            // for gzerror() to tell (zlib.h, gzread): ask, or a truncated file would pass as whole.
            var code: Int32 = Z_OK
            _ = gzerror(handle, &code)
            if code != Z_OK { throw failure("could not read") }
        }
        return Int(count)
    }

    /// Writes all of `bytes` (compressing if the file is gzip).
    func write(_ bytes: UnsafeRawBufferPointer) throws(RecordingError) {
        guard let handle else { throw RecordingError(path: path, problem: "the file is already closed") }
        guard bytes.count > 0 else { return }
        if gzwrite(handle, bytes.baseAddress, UInt32(bytes.count)) != Int32(bytes.count) {
            throw failure("could not write")
        }
    }

    /// Flushes and closes. A write that failed in the buffer (disk full) surfaces here.
    func close() throws(RecordingError) {
        guard let handle else { return }
        self.handle = nil
        errno = 0
        let status = gzclose(handle)
        if status != Z_OK {
            let reason = status == Z_ERRNO ? String(cString: strerror(errno)) : "zlib error \(status)"
            throw RecordingError(path: path, problem: "could not finish writing the file: \(reason)",
                                 advice: "Check free disk space and permissions; the file is incomplete.")
        }
    }

    private func failure(_ action: String) -> RecordingError {
        var code: Int32 = 0
        let message = handle.flatMap { gzerror($0, &code) }.map { String(cString: $0) } ?? "unknown error"
        if code == Z_ERRNO {
            return RecordingError(path: path, problem: "\(action) the file: \(String(cString: strerror(errno)))")
        }
        if code == Z_BUF_ERROR {
            return RecordingError(path: path, problem: "the gzip stream ends early (\(message)): the file is truncated",
                                  advice: "It was probably cut off while being written or copied; its end is lost.")
        }
        return RecordingError(path: path, problem: "\(action) the file: the gzip data is corrupt (\(message))")
    }
}
