/// One frame: a message's type byte and its body (PROTOCOL.md, "Frames").
public struct Frame: Sendable, Equatable {
    public var type: UInt8
    public var body: [UInt8]

    public init(type: UInt8, body: [UInt8]) {
        self.type = type
        self.body = body
    }

    /// The frame as sent: u32 length (type byte + body), type, body.
    public var bytes: [UInt8] {
        var writer = WireWriter(reservingCapacity: body.count + 5)
        writer.u32(UInt32(body.count + 1))
        writer.u8(type)
        var out = writer.bytes
        out.append(contentsOf: body)
        return out
    }
}

/// The protocol's constants.
public enum Framing {
    /// "OCMD": the first four bytes of a hello's and a welcome's body.
    public static let magic: [UInt8] = [0x4F, 0x43, 0x4D, 0x44]
    /// This protocol's version. Version 2 adds the altitude streams and `subscribeAltitude`
    /// to version 1 and changes nothing of it; version 3 adds the batched streams (`batch`,
    /// `droppedBatches`, the welcome's batch rates). So a daemon takes clients of any version
    /// from `oldestVersion` on (an older client simply never asks for what it lacks); a daemon
    /// refuses a client newer than itself.
    public static let version: UInt16 = 3
    /// The welcome a client of `clientVersion` gets: version 3's (with the batch rates) for a
    /// version 3 client; version 2's, whose bytes versions 1 and 2 both read, for the others.
    public static func welcomeVersion(forClient clientVersion: UInt16) -> UInt16 { clientVersion >= 3 ? version : 2 }
    /// The oldest client version a daemon of this version serves.
    public static let oldestVersion: UInt16 = 1
    /// The largest frame length accepted (type byte + body): 1 MiB. Anything longer is not
    /// this protocol (an HTTP request's first bytes read as a length are ~0.5 GB) and closes
    /// the connection before a byte of it is buffered.
    public static let maximumFrameLength = 1 << 20
    /// The longest frame a client can send: a hello with a name of 65 535 bytes (type byte,
    /// magic, version, the name's count and bytes). The daemon reads client frames with this
    /// limit, so a client that sends only part of a frame makes it hold 64 KiB at most.
    public static let longestClientFrameLength = 1 + 4 + 2 + 2 + 65_535
    /// The socket a system daemon listens on (`motiond --socket` overrides it; clients read
    /// `OPENCOREMOTION_SOCKET` first).
    public static let defaultSocketPath = "/run/opencoremotion/motiond.sock"
}

/// Cuts a byte stream into frames, however the bytes arrive (one at a time, or many frames in
/// one read): bytes go in with `append`, whole frames come out of `nextFrame`. A frame whose
/// length is 0 or over the limit is an error at once, before its body is waited for. After an
/// error the reader stays failed: the stream has no trustworthy frame boundary any more.
public struct FrameReader {
    public let maximumFrameLength: Int
    private var buffer: [UInt8] = []
    /// Where the unread bytes start in `buffer` (compacted when half of it is read).
    private var start = 0
    private var failure: ProtocolError?

    public init(maximumFrameLength: Int = Framing.maximumFrameLength) {
        self.maximumFrameLength = maximumFrameLength
    }

    /// Bytes received and not yet returned in a frame.
    public var bufferedByteCount: Int { buffer.count - start }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
    }

    public mutating func append(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
    }

    /// The next whole frame, nil if more bytes are needed, or the error that makes the stream
    /// unusable.
    public mutating func nextFrame() throws(ProtocolError) -> Frame? {
        if let failure { throw failure }
        guard bufferedByteCount >= 4 else { return nil }
        var length = 0
        for index in 0..<4 { length |= Int(buffer[start + index]) << (8 * index) }
        guard length >= 1, length <= maximumFrameLength else {
            let error = ProtocolError(.badLength, "a frame of \(length) bytes (allowed 1…\(maximumFrameLength)): the peer does not speak the motiond protocol, or the stream is corrupt")
            failure = error
            throw error
        }
        guard bufferedByteCount >= 4 + length else { return nil }
        let frame = Frame(type: buffer[start + 4], body: Array(buffer[(start + 5)..<(start + 4 + length)]))
        start += 4 + length
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        return frame
    }

    /// The next frame from a blocking source: `read` fills the buffer it is given as read(2)
    /// does (bytes read, 0 at the end of the stream, −errno on failure; retry EINTR inside it).
    /// Throws `closed` at the end of the stream (`code`: the bytes of an unfinished frame).
    public mutating func nextFrame(reading read: (UnsafeMutableRawBufferPointer) -> Int) throws(ProtocolError) -> Frame {
        var scratch = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if let frame = try nextFrame() { return frame }
            let count = scratch.withUnsafeMutableBytes { read($0) }
            if count == 0 {
                throw ProtocolError(.closed, bufferedByteCount == 0 ? "the daemon closed the connection"
                                    : "the connection closed in the middle of a frame (\(bufferedByteCount) bytes of it received)",
                                    code: bufferedByteCount)
            }
            if count < 0 { throw ProtocolError(.readFailed, "reading from the connection failed (errno \(-count))", code: -count) }
            scratch.withUnsafeBytes { append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }
}
