/// One UART-RVC frame of a BNO08x (BNO080 data sheet 1000-3927 §1.3.5.2, "UART-RVC protocol",
/// figure 1-25): 19 bytes, sent unprompted at 100 Hz.
///
/// ```
/// offset  0–1   header 0xAA 0xAA
///         2     index: +1 per frame, mod 256
///         3–8   yaw, pitch, roll: int16 little-endian, 0.01° (yaw and roll ±180°, pitch ±90°)
///         9–14  x, y, z acceleration: int16 little-endian, mg
///         15–17 reserved (0 in 1000-3927; third-party drivers name the first two MI, motion
///               intent, and MR, motion request: not confirmed in a CEVA document here)
///         18    checksum: the sum of bytes 2…17, mod 256
/// ```
/// The attitude is the rotations yaw about z, then pitch about y, then roll about x (§1.3.5.2:
/// "applied in the order yaw, pitch then roll"); the yaw counts from the hub's reset.
public struct RVCFrame: Sendable, Equatable {
    public static let length = 19
    public static let headerByte: UInt8 = 0xAA

    public var index: UInt8
    /// Angles, hundredths of a degree.
    public var yawCentidegrees: Int16
    public var pitchCentidegrees: Int16
    public var rollCentidegrees: Int16
    /// Acceleration in chip axes, mg (thousandths of standard gravity, 9.80665 m/s²).
    public var accelerationMilliG: (x: Int16, y: Int16, z: Int16)
    /// The three reserved bytes as sent.
    public var reserved: (UInt8, UInt8, UInt8)

    public init(index: UInt8, yawCentidegrees: Int16, pitchCentidegrees: Int16, rollCentidegrees: Int16,
                accelerationMilliG: (x: Int16, y: Int16, z: Int16), reserved: (UInt8, UInt8, UInt8) = (0, 0, 0)) {
        self.index = index
        self.yawCentidegrees = yawCentidegrees
        self.pitchCentidegrees = pitchCentidegrees
        self.rollCentidegrees = rollCentidegrees
        self.accelerationMilliG = accelerationMilliG
        self.reserved = reserved
    }

    public static func == (lhs: RVCFrame, rhs: RVCFrame) -> Bool {
        lhs.index == rhs.index && lhs.yawCentidegrees == rhs.yawCentidegrees && lhs.pitchCentidegrees == rhs.pitchCentidegrees
            && lhs.rollCentidegrees == rhs.rollCentidegrees && lhs.accelerationMilliG == rhs.accelerationMilliG
            && lhs.reserved == rhs.reserved
    }

    /// Whether the angles lie in the ranges §1.3.5.2 gives: a frame outside them passed its
    /// one-byte checksum by chance (1 in 256 for a misaligned read).
    var anglesInRange: Bool {
        abs(Int(yawCentidegrees)) <= 18_000 && abs(Int(pitchCentidegrees)) <= 9_000 && abs(Int(rollCentidegrees)) <= 18_000
    }

    /// The frame's 19 bytes, checksum included, into `bytes` (at least 19 long).
    public func encode(into bytes: UnsafeMutableRawBufferPointer) {
        func put(_ value: Int16, at offset: Int) {
            bytes[offset] = UInt8(truncatingIfNeeded: value)
            bytes[offset + 1] = UInt8(truncatingIfNeeded: value >> 8)
        }
        bytes[0] = Self.headerByte
        bytes[1] = Self.headerByte
        bytes[2] = index
        put(yawCentidegrees, at: 3)
        put(pitchCentidegrees, at: 5)
        put(rollCentidegrees, at: 7)
        put(accelerationMilliG.x, at: 9)
        put(accelerationMilliG.y, at: 11)
        put(accelerationMilliG.z, at: 13)
        (bytes[15], bytes[16], bytes[17]) = reserved
        bytes[18] = Self.checksum(UnsafeRawBufferPointer(bytes), at: 0)
    }

    /// The sum of the frame's bytes 2…17 (index through reserved), mod 256.
    static func checksum(_ bytes: UnsafeRawBufferPointer, at start: Int) -> UInt8 {
        var sum: UInt8 = 0
        for offset in 2..<18 { sum &+= bytes[start + offset] }
        return sum
    }

    /// The frame starting at `start` (its header already matched), without checking its sum.
    static func decode(_ bytes: UnsafeRawBufferPointer, at start: Int) -> RVCFrame {
        func field(_ offset: Int) -> Int16 {
            Int16(bitPattern: UInt16(bytes[start + offset]) | UInt16(bytes[start + offset + 1]) << 8)
        }
        return RVCFrame(index: bytes[start + 2], yawCentidegrees: field(3), pitchCentidegrees: field(5), rollCentidegrees: field(7),
                        accelerationMilliG: (field(9), field(11), field(13)),
                        reserved: (bytes[start + 15], bytes[start + 16], bytes[start + 17]))
    }
}

/// Finds UART-RVC frames in a byte stream: whatever the line brought (a frame cut by the
/// read, bytes lost, noise) is skipped up to the next header whose frame sums right, and
/// counted. Pure and allocation-free: it scans the caller's buffer and keeps only its counts
/// and the last index.
public struct RVCFrameScanner: Sendable {
    /// Frames whose checksum did not match (the frame was dropped, its bytes scanned again for a header).
    public private(set) var checksumErrors = 0
    /// Frames that summed right but had an angle outside its range: a misaligned read (dropped).
    public private(set) var rangeErrors = 0
    /// Runs of bytes skipped to find the next header (after noise, a bad frame, lost bytes).
    public private(set) var resynchronisations = 0
    /// Bytes skipped that way.
    public private(set) var discardedBytes = 0
    /// Frames missing between two good ones, from their indices (mod 256: a gap of 256 or more
    /// frames, 2.56 s, is undercounted by a multiple of 256).
    public private(set) var lostFrames = 0
    /// Good frames found.
    public private(set) var frames = 0
    private var lastIndex: UInt8?
    /// Whether the bytes being skipped already counted as one resynchronisation.
    private var skipping = false

    public init() {}

    /// Scans `bytes`, giving each good frame to `frame` in order, and returns how many bytes
    /// are used up; the rest (at most 18: the start of a frame still arriving) belong before
    /// the next bytes read.
    public mutating func scan(_ bytes: UnsafeRawBufferPointer, frame: (RVCFrame) -> Void) -> Int {
        var start = 0
        while start + RVCFrame.length <= bytes.count {
            guard bytes[start] == RVCFrame.headerByte, bytes[start + 1] == RVCFrame.headerByte else {
                skip(&start)
                continue
            }
            guard RVCFrame.checksum(bytes, at: start) == bytes[start + RVCFrame.length - 1] else {
                checksumErrors += 1
                skip(&start)
                continue
            }
            let found = RVCFrame.decode(bytes, at: start)
            guard found.anglesInRange else {
                rangeErrors += 1
                skip(&start)
                continue
            }
            if let lastIndex { lostFrames += Int(found.index &- lastIndex &- 1) }
            lastIndex = found.index
            frames += 1
            skipping = false
            start += RVCFrame.length
            frame(found)
        }
        // A tail that cannot begin a frame is noise now, not later.
        while start < bytes.count, bytes[start] != RVCFrame.headerByte || (start + 1 < bytes.count && bytes[start + 1] != RVCFrame.headerByte) {
            skip(&start)
        }
        return start
    }

    private mutating func skip(_ start: inout Int) {
        if !skipping { resynchronisations += 1 }
        skipping = true
        discardedBytes += 1
        start += 1
    }
}
