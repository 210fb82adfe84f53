internal import CZlib

/// One commit of one kind of record: the unit that is written with one `write(2)`, checked by
/// its CRC, and found whole or not at all after a crash.
///
/// Layout (little-endian), a 28-byte header then the payload:
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 4 | payload length, bytes |
/// | 4 | 4 | CRC-32 (zlib's) of the whole block with this field zero |
/// | 8 | 4 | record count |
/// | 12 | 8 | first record's time, ns |
/// | 20 | 8 | last record's time, ns |
///
/// The CRC covers the length too, so a torn or zero-filled tail (what ext4 can leave after a
/// power cut: the size grew, the data never landed) fails the check instead of being read as
/// records. There is no resynchronisation marker: a damaged block ends its segment (at most the
/// segment's span of that kind is lost, and only if the medium itself corrupts old data).
struct LogBlock {
    static let headerSize = 28
    /// Far above any real commit (a second of 50 Hz samples is ~250 bytes): a larger length
    /// field is damage, not a block.
    static let maximumPayload = 16 << 20

    var count: Int
    var firstTime: Int64
    var lastTime: Int64
    var payload: [UInt8]

    /// The bytes to write.
    func encoded() -> [UInt8] {
        var writer = ByteWriter(reservingCapacity: Self.headerSize + payload.count)
        writer.fixed32(UInt32(payload.count))
        writer.fixed32(0)
        writer.fixed32(UInt32(count))
        writer.fixed64(firstTime)
        writer.fixed64(lastTime)
        writer.append(contentsOf: payload)
        var bytes = writer.bytes
        let checksum = Self.crc(bytes)
        for index in 0..<4 { bytes[4 + index] = UInt8(truncatingIfNeeded: checksum >> UInt32(8 * index)) }
        return bytes
    }

    enum Parse {
        case block(LogBlock, size: Int)
        /// Not a whole, intact block: a torn tail (or damage) starts here.
        case damaged(reason: String)
        case end
    }

    /// The block at `offset` in `bytes` (a segment file read whole).
    static func parse(_ bytes: [UInt8], at offset: Int) -> Parse {
        let remaining = bytes.count - offset
        if remaining == 0 { return .end }
        guard remaining >= headerSize else { return .damaged(reason: "\(remaining) bytes, shorter than a block header") }
        var reader = ByteReader(bytes, from: offset)
        guard let length = reader.fixed32(), let stored = reader.fixed32(), let count = reader.fixed32(),
              let first = reader.fixed64(), let last = reader.fixed64() else { return .damaged(reason: "unreadable header") }
        let size = headerSize + Int(length)
        guard Int(length) <= maximumPayload, size <= remaining else {
            return .damaged(reason: "a block of \(size) bytes announced, \(remaining) left in the file")
        }
        var copy = Array(bytes[offset..<(offset + size)])
        for index in 4..<8 { copy[index] = 0 }
        guard crc(copy) == stored else { return .damaged(reason: "CRC mismatch") }
        return .block(LogBlock(count: Int(count), firstTime: first, lastTime: last,
                               payload: Array(copy[headerSize...])), size: size)
    }

    private static func crc(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(truncatingIfNeeded: crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }
}
