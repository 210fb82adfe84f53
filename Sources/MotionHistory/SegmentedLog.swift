internal import Glibc

/// One kind of record's log: a folder of segment files, each an append-only run of `LogBlock`s.
/// A segment is named by its first block's first time, so the segments holding a time range
/// are found from the names alone, and retention deletes whole files (pruning costs one
/// `unlink` per segment, never a rewrite).
///
/// A block may hold records up to `latenessNanoseconds` older than the newest record written
/// before it (0 for the accelerometer and activity, whose times never go back; the pedometer
/// books a bout's steps from its first one, a little in the past). So a segment's records lie
/// in [its start − lateness, the next segment's start + lateness], which is what queries and
/// pruning assume.
///
/// Durability: `append` is one `write(2)` (in the page cache at once: a killed process loses
/// nothing appended); `sync` is `fdatasync(2)` of the open segment plus `fsync(2)` of the folder
/// when files were created or deleted, which is what a power cut cannot undo.
final class SegmentedLog {
    struct Segment {
        var path: String
        var startTime: Int64
    }

    let directory: String
    /// The kind of record, for messages ("accelerometer").
    let kind: String
    /// A new segment starts once a block's first time is this far past the segment's start, ns.
    let spanNanoseconds: Int64
    let latenessNanoseconds: Int64
    private let report: @Sendable (String) -> Void
    private(set) var segments: [Segment] = []
    private var tail: Int32 = -1
    private var tailSize = 0
    private var dataUnsynced = false
    private var directoryUnsynced = false
    /// Damage already reported (path, byte offset), so a query loop does not repeat it.
    private var reportedDamage: Set<String> = []
    /// Bytes handed to `write(2)` since this log was opened.
    private(set) var bytesWritten = 0

    init(directory: String, kind: String, spanNanoseconds: Int64, latenessNanoseconds: Int64 = 0,
         report: @escaping @Sendable (String) -> Void) throws(HistoryError) {
        self.directory = directory
        self.kind = kind
        self.spanNanoseconds = spanNanoseconds
        self.latenessNanoseconds = latenessNanoseconds
        self.report = report
        try Self.makeDirectory(directory)
        segments = try Self.listSegments(in: directory)
        if let last = segments.last { try reopenTail(last.path) }
    }

    deinit { if tail >= 0 { close(tail) } }

    // MARK: Writing

    /// Appends one block, starting a new segment when the current one's span is over.
    func append(_ block: LogBlock) throws(HistoryError) {
        if tail < 0 || block.firstTime >= segments[segments.count - 1].startTime &+ spanNanoseconds {
            try startSegment(at: block.firstTime)
        }
        let bytes = block.encoded()
        let path = segments[segments.count - 1].path
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { write(tail, $0.baseAddress! + written, $0.count - written) }
            if result < 0 {
                let code = errno
                if code == EINTR { continue }
                // Leave no partial block behind for the next append to follow.
                _ = ftruncate(tail, off_t(tailSize))
                throw HistoryError.system("writing \(bytes.count) bytes of \(kind) history", path: path, errno: code)
            }
            written += result
        }
        tailSize += bytes.count
        bytesWritten += bytes.count
        dataUnsynced = true
    }

    /// Makes everything appended so far survive a power cut.
    func sync() throws(HistoryError) {
        if dataUnsynced, tail >= 0 {
            guard fdatasync(tail) == 0 else { throw HistoryError.system("fdatasync", path: segments[segments.count - 1].path, errno: errno) }
            dataUnsynced = false
        }
        if directoryUnsynced {
            try Self.syncDirectory(directory)
            directoryUnsynced = false
        }
    }

    /// Deletes the segments whose every record is older than `cutoff` (ns); returns how many.
    /// The newest segment is never deleted.
    @discardableResult
    func prune(before cutoff: Int64) -> Int {
        var removed = 0
        while segments.count > 1, segments[1].startTime &+ latenessNanoseconds <= cutoff {
            if unlink(segments[0].path) != 0, errno != ENOENT {
                report("\(segments[0].path): could not delete an expired \(kind) segment: \(String(cString: strerror(errno))); it is kept and retried on the next commit.")
                break
            }
            segments.removeFirst()
            removed += 1
            directoryUnsynced = true
        }
        return removed
    }

    // MARK: Reading

    /// Calls `body` with each intact block that may hold records in [from, to) ns, oldest first.
    func forEachBlock(from: Int64, to: Int64, _ body: (LogBlock) -> Void) throws(HistoryError) {
        for index in segments.indices where segments[index].startTime &- latenessNanoseconds < to {
            if index + 1 < segments.count, segments[index + 1].startTime &+ latenessNanoseconds < from { continue }
            for block in try blocks(ofSegment: index) where block.lastTime >= from && block.firstTime < to { body(block) }
        }
    }

    /// The newest intact block, if any (what a reopened store continues from).
    func lastBlock() throws(HistoryError) -> LogBlock? {
        for index in segments.indices.reversed() {
            if let block = try blocks(ofSegment: index).last { return block }
        }
        return nil
    }

    /// The intact blocks of one segment, oldest first; damage ends the segment and is reported once.
    func blocks(ofSegment index: Int) throws(HistoryError) -> [LogBlock] {
        let path = segments[index].path
        let bytes = try Self.readFile(path)
        var blocks: [LogBlock] = []
        var offset = 0
        while true {
            switch LogBlock.parse(bytes, at: offset) {
            case .end:
                return blocks
            case .block(let block, let size):
                blocks.append(block)
                offset += size
            case .damaged(let reason):
                if reportedDamage.insert("\(path)@\(offset)").inserted {
                    report("\(path): damaged \(kind) block at byte \(offset) (\(reason)); the \(bytes.count - offset) bytes from there are skipped, never served. If this repeats, check the storage (dmesg).")
                }
                return blocks
            }
        }
    }

    // MARK: Files

    /// Opens the newest segment for appending, first cutting off a torn tail: the part of a
    /// block that a crash or power cut left unfinished is dropped (and logged), so it is never
    /// read as data and the next block follows the last intact one.
    private func reopenTail(_ path: String) throws(HistoryError) {
        let bytes = try Self.readFile(path)
        var offset = 0
        scan: while true {
            switch LogBlock.parse(bytes, at: offset) {
            case .end: break scan
            case .block(_, let size): offset += size
            case .damaged(let reason):
                report("\(path): torn tail in the \(kind) history: \(bytes.count - offset) bytes at byte \(offset) are not a whole block (\(reason)), dropped; the records before them are intact. Expected after a power cut or a crash mid-write; nothing to do.")
                break scan
            }
        }
        tail = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard tail >= 0 else { throw HistoryError.system("opening for append", path: path, errno: errno) }
        if offset < bytes.count {
            guard ftruncate(tail, off_t(offset)) == 0 else { throw HistoryError.system("truncating the torn tail", path: path, errno: errno) }
            guard fdatasync(tail) == 0 else { throw HistoryError.system("fdatasync", path: path, errno: errno) }
        }
        tailSize = offset
    }

    private func startSegment(at time: Int64) throws(HistoryError) {
        if tail >= 0 {
            try sync()  // a closed segment is durable
            close(tail)
            tail = -1
        }
        let path = "\(directory)/\(Self.fileName(startTime: time))"
        tail = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard tail >= 0 else { throw HistoryError.system("creating a \(kind) segment", path: path, errno: errno) }
        tailSize = 0
        segments.append(Segment(path: path, startTime: time))
        directoryUnsynced = true
    }

    /// 16 hex digits of the start time with its sign bit flipped, so names sort as times do
    /// (negative times included), then ".log".
    static func fileName(startTime: Int64) -> String {
        let key = String(UInt64(bitPattern: startTime) ^ (1 << 63), radix: 16)
        return String(repeating: "0", count: 16 - key.count) + key + ".log"
    }

    static func startTime(fileName name: String) -> Int64? {
        guard name.count == 20, name.hasSuffix(".log"), let key = UInt64(name.prefix(16), radix: 16) else { return nil }
        return Int64(bitPattern: key ^ (1 << 63))
    }

    private static func listSegments(in directory: String) throws(HistoryError) -> [Segment] {
        guard let handle = opendir(directory) else { throw HistoryError.system("listing", path: directory, errno: errno) }
        defer { closedir(handle) }
        var segments: [Segment] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if let start = startTime(fileName: name) { segments.append(Segment(path: "\(directory)/\(name)", startTime: start)) }
        }
        return segments.sorted { $0.startTime < $1.startTime }
    }

    static func makeDirectory(_ path: String) throws(HistoryError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/\(component)"
            if mkdir(prefix, 0o755) != 0, errno != EEXIST {
                throw HistoryError.system("creating the history folder", path: prefix, errno: errno)
            }
        }
    }

    private static func syncDirectory(_ path: String) throws(HistoryError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw HistoryError.system("opening the folder to sync it", path: path, errno: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw HistoryError.system("fsync of the folder", path: path, errno: errno) }
    }

    static func readFile(_ path: String) throws(HistoryError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw HistoryError.system("opening", path: path, errno: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw HistoryError.system("stat", path: path, errno: errno) }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let result = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if result < 0, errno == EINTR { continue }
            guard result >= 0 else { throw HistoryError.system("reading", path: path, errno: errno) }
            if result == 0 { break }
            filled += result
        }
        return filled == bytes.count ? bytes : Array(bytes[..<filled])
    }
}
