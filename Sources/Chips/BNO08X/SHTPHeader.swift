// SHTP, the Sensor Hub Transport Protocol the BNO08x speaks instead of registers (CEVA "Sensor
// Hub Transport Protocol" 1000-3535, "SHTP packets"; BNO08X data sheet 1000-3927, "SHTP").
// Their revisions were not available in this checkout, so sections are cited by name; each fact
// used here is also what CEVA's sh2 host library does (read for understanding, not copied).
// Standard library only.

/// The SHTP channels of a BNO08x (BNO08X data sheet 1000-3927, table "SHTP channels").
/// Sequence numbers are kept per channel and per direction.
public enum SHTPChannel {
    /// 0: SHTP's own command channel (the advertisement after a reset comes here).
    public static let command: UInt8 = 0
    /// 1: the executable (device → host: reset complete 0x01; host → device: reset 1, on 2, sleep 3).
    public static let executable: UInt8 = 1
    /// 2: sensor hub control (product ID, Set Feature, Get Feature response, commands).
    public static let control: UInt8 = 2
    /// 3: input sensor reports (non-wake), 4: wake input sensor reports.
    public static let inputReports: UInt8 = 3
    public static let wakeReports: UInt8 = 4
    /// 5: the gyro-integrated rotation vector (its own compact format; not enabled here).
    public static let gyroRotationVector: UInt8 = 5
    /// Channels 0…5 exist; anything above is junk on the bus.
    public static let count = 6
}

/// The 4-byte header in front of every SHTP transfer (1000-3535, "SHTP header"): length LSB, length MSB
/// (bit 15 = continuation: this transfer continues a packet the previous one began), channel,
/// sequence number. The length counts the header too: a transfer of length 4 carries no cargo,
/// and a device with nothing to send answers a read with length 0.
public struct SHTPHeader: Sendable, Equatable {
    public static let size = 4
    /// The longest length the 15-bit field can say.
    public static let maximumLength = 0x7FFF

    /// Bytes in the transfer, header included (bits 14…0).
    public var length: Int
    /// Bit 15 of the length field: this transfer continues an earlier one.
    public var continuation: Bool
    public var channel: UInt8
    public var sequence: UInt8

    public init(length: Int, continuation: Bool = false, channel: UInt8, sequence: UInt8) {
        self.length = length
        self.continuation = continuation
        self.channel = channel
        self.sequence = sequence
    }

    /// The header in the first four bytes of `bytes` (which must hold four).
    public init(_ bytes: UnsafeRawBufferPointer) {
        let field = UInt16(bytes[0]) | UInt16(bytes[1]) << 8
        length = Int(field & 0x7FFF)
        continuation = field & 0x8000 != 0
        channel = bytes[2]
        sequence = bytes[3]
    }

    /// Writes the header into the first four bytes of `bytes`. The length is clamped to its
    /// 15-bit field.
    public func store(into bytes: UnsafeMutableRawBufferPointer) {
        let field = UInt16(min(length, Self.maximumLength)) | (continuation ? 0x8000 : 0)
        bytes[0] = UInt8(truncatingIfNeeded: field)
        bytes[1] = UInt8(truncatingIfNeeded: field >> 8)
        bytes[2] = channel
        bytes[3] = sequence
    }

    /// Cargo bytes after the header.
    public var cargoLength: Int { max(0, length - Self.size) }

    /// What is wrong with this header as the start of a packet, if anything, for a host that
    /// accepts packets of at most `capacity` bytes. Length 0 is not a fault: nothing to send.
    public func problem(capacity: Int) -> SHTPFramingProblem? {
        if Int(channel) >= SHTPChannel.count { return .unknownChannel(channel) }
        if length == 0 { return nil }
        if length < Self.size { return .shorterThanHeader(length) }
        if continuation { return .unexpectedContinuation }
        if length > capacity { return .longerThanBuffer(length) }
        return nil
    }
}

/// A transfer the host could not take as an SHTP packet: junk on the bus, a device that abandoned
/// a packet, or one longer than the host's buffer. Counted and dropped; never a crash.
public enum SHTPFramingProblem: Sendable, Equatable, CustomStringConvertible {
    /// A channel above 5 (a floating bus reads 0xFF).
    case unknownChannel(UInt8)
    /// A length of 1…3: less than the header itself.
    case shorterThanHeader(Int)
    /// A new packet flagged as the continuation of one the host never saw begin.
    case unexpectedContinuation
    /// Longer than the host's buffer (drained and dropped).
    case longerThanBuffer(Int)
    /// The full read's header differs from the header read before it (the device moved on).
    case headerChangedBetweenReads
    /// A continuation transfer that is not one (no continuation bit, another channel, or empty).
    case brokenContinuation

    public var description: String {
        switch self {
        case .unknownChannel(let channel): "channel \(channel) (SHTP has 0…5)"
        case .shorterThanHeader(let length): "length \(length) (shorter than the 4-byte header)"
        case .unexpectedContinuation: "a continuation with no packet begun"
        case .longerThanBuffer(let length): "length \(length) (longer than the host's buffer)"
        case .headerChangedBetweenReads: "a header that changed between the header read and the packet read"
        case .brokenContinuation: "a packet whose continuation did not come"
        }
    }
}
