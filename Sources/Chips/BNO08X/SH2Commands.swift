// SH-2 control messages (CEVA "SH-2 Reference Manual" 1000-3625, "Product ID Request/Response",
// "Set Feature Command", "Get Feature Response"; subsections by name, revision not confirmed) and the executable channel's commands
// (BNO08X data sheet 1000-3927, "SHTP": host → device 1 reset, 2 on, 3 sleep; device → host 1
// reset complete). Little endian throughout. Standard library only.

/// Where a BNO08x answers (BNO08X data sheet 1000-3927, "I2C": 0x4A with SA0 low, 0x4B high).
public enum BNO08XTable {
    public static let addresses: [UInt8] = [0x4A, 0x4B]
}

/// The executable channel's one-byte messages.
public enum SH2Executable {
    /// Host → device: reset the hub (it answers as after power-up: advertisement, reset complete).
    public static let reset: UInt8 = 0x01
    /// Device → host: the hub finished a reset and takes commands.
    public static let resetComplete: UInt8 = 0x01
}

/// Product ID Response (0xF8, 16 bytes). The hub sends one per firmware component.
public struct SH2ProductID: Sendable, Equatable {
    /// Why the hub last reset: 1 power-on, 2 internal system reset, 3 watchdog, 4 external
    /// reset, 5 other.
    public var resetCause: UInt8
    public var softwareMajor: UInt8
    public var softwareMinor: UInt8
    public var softwarePartNumber: UInt32
    public var softwareBuild: UInt32
    public var softwarePatch: UInt16

    public init(resetCause: UInt8, softwareMajor: UInt8, softwareMinor: UInt8, softwarePartNumber: UInt32, softwareBuild: UInt32, softwarePatch: UInt16) {
        self.resetCause = resetCause
        self.softwareMajor = softwareMajor
        self.softwareMinor = softwareMinor
        self.softwarePartNumber = softwarePartNumber
        self.softwareBuild = softwareBuild
        self.softwarePatch = softwarePatch
    }

    public static let length = 16
    /// Product ID Request (0xF9): the ID and a reserved byte.
    public static let request: [UInt8] = [SH2ReportID.productIDRequest, 0x00]

    /// Decodes a response; nil unless `bytes` is one (ID 0xF8, 16 bytes).
    public init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= Self.length, bytes[0] == SH2ReportID.productIDResponse else { return nil }
        resetCause = bytes[1]
        softwareMajor = bytes[2]
        softwareMinor = bytes[3]
        softwarePartNumber = SH2Decoder.uint32(bytes, 4)
        softwareBuild = SH2Decoder.uint32(bytes, 8)
        softwarePatch = UInt16(bytes[12]) | UInt16(bytes[13]) << 8
    }

    /// The response's 16 bytes (the emulator's side).
    public var bytes: [UInt8] {
        [SH2ReportID.productIDResponse, resetCause, softwareMajor, softwareMinor] + littleEndian(softwarePartNumber)
            + littleEndian(softwareBuild) + [UInt8(truncatingIfNeeded: softwarePatch), UInt8(truncatingIfNeeded: softwarePatch >> 8), 0, 0]
    }
}

/// Set Feature (0xFD, 17 bytes) and the Get Feature Response (0xFC) the hub answers it
/// with: the same layout after the ID. An interval of 0 turns the report off.
public struct SH2Feature: Sendable, Equatable {
    public static let length = 17

    public var reportID: UInt8
    /// Feature flags (change sensitivity relative/enabled, wake-up, always-on); 0 here.
    public var flags: UInt8 = 0
    public var changeSensitivity: UInt16 = 0
    /// Time between reports, µs.
    public var reportIntervalMicroseconds: UInt32
    /// How long the hub may hold reports back to batch them, µs (0: send at once).
    public var batchIntervalMicroseconds: UInt32 = 0
    /// Per report: the personal activity classifier's enable mask (bit per `SH2Activity`).
    public var sensorSpecific: UInt32 = 0

    public init(reportID: UInt8, reportIntervalMicroseconds: UInt32, sensorSpecific: UInt32 = 0) {
        self.reportID = reportID
        self.reportIntervalMicroseconds = reportIntervalMicroseconds
        self.sensorSpecific = sensorSpecific
    }

    /// Decodes a Set Feature (0xFD) or Get Feature Response (0xFC); nil for anything else.
    public init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= Self.length, bytes[0] == SH2ReportID.setFeature || bytes[0] == SH2ReportID.getFeatureResponse else { return nil }
        reportID = bytes[1]
        flags = bytes[2]
        changeSensitivity = UInt16(bytes[3]) | UInt16(bytes[4]) << 8
        reportIntervalMicroseconds = SH2Decoder.uint32(bytes, 5)
        batchIntervalMicroseconds = SH2Decoder.uint32(bytes, 9)
        sensorSpecific = SH2Decoder.uint32(bytes, 13)
    }

    /// The 17 bytes, led by `id` (0xFD to set, 0xFC for the hub's response).
    public func bytes(id: UInt8 = SH2ReportID.setFeature) -> [UInt8] {
        [id, reportID, flags, UInt8(truncatingIfNeeded: changeSensitivity), UInt8(truncatingIfNeeded: changeSensitivity >> 8)]
            + littleEndian(reportIntervalMicroseconds) + littleEndian(batchIntervalMicroseconds) + littleEndian(sensorSpecific)
    }
}

func littleEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 24)]
}
