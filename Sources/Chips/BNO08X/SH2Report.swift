public import FixedPoint

// SH-2 input reports (CEVA "SH-2 Reference Manual" 1000-3625, §6.5 "Input reports"; revision
// not confirmed in this checkout, so subsections are cited by name, not number). Every input report begins with the same four bytes: report
// ID, sequence number, status (bits 1:0 accuracy 0–3, bits 7:2 the delay's upper 6 bits) and
// the delay's lower 8 bits: a 14-bit delay in 100 µs ticks after the batch's base timestamp
// ("Base Timestamp Reference"). Values are little-endian two's complement in a fixed Q point per report, turned
// here into the project's formats exactly (shifts only: no rounding).

/// The report IDs this project reads or writes (1000-3625 §6.5 and the control reports' tables).
public enum SH2ReportID {
    public static let accelerometer: UInt8 = 0x01
    public static let gyroscopeCalibrated: UInt8 = 0x02
    public static let magneticFieldCalibrated: UInt8 = 0x03
    public static let rotationVector: UInt8 = 0x05
    public static let gameRotationVector: UInt8 = 0x08
    public static let stepCounter: UInt8 = 0x11
    public static let stabilityClassifier: UInt8 = 0x13
    public static let personalActivityClassifier: UInt8 = 0x1E
    /// "Timestamp Rebase" and "Base Timestamp Reference": 5 bytes each.
    public static let timestampRebase: UInt8 = 0xFA
    public static let baseTimestamp: UInt8 = 0xFB
    /// Control channel ("Product ID", "Set Feature Command"): Get Feature Response, Set Feature, Product ID.
    public static let getFeatureResponse: UInt8 = 0xFC
    public static let setFeature: UInt8 = 0xFD
    public static let productIDRequest: UInt8 = 0xF9
    public static let productIDResponse: UInt8 = 0xF8

    /// The length in bytes of each input report a hub may put in a batch (1000-3625 §6.5's
    /// report tables: the reports read here and the others a hub may have enabled, so a batch
    /// holding one is still walked past it). 0: unknown, the rest of the batch cannot be found.
    public static func length(of id: UInt8) -> Int {
        switch id {
        case 0x01, 0x02, 0x03, 0x04, 0x06: 10  // accelerometer, gyroscope, field, linear acceleration, gravity
        case 0x05, 0x09, 0x28, 0x2A: 14        // rotation vectors with an accuracy estimate
        case 0x08, 0x29: 12                    // game rotation vectors (no accuracy estimate)
        case 0x07, 0x0F, 0x14, 0x15, 0x16: 16  // uncalibrated and raw vectors
        case stepCounter: 12
        case stabilityClassifier: 6
        case personalActivityClassifier: 16
        case timestampRebase, baseTimestamp: 5
        default: 0
        }
    }
}

/// The stability classifier's classes (1000-3625 §6.5 "Stability Classifier", byte 4).
public enum SH2Stability: UInt8, Sendable, Equatable {
    case unknown = 0, onTable = 1, stationary = 2, stable = 3, motion = 4
}

/// The personal activity classifier's activities (1000-3625 §6.5 "Personal Activity Classifier": most likely state and a
/// confidence per activity, in this order).
public enum SH2Activity: UInt8, Sendable, Equatable, CaseIterable {
    case unknown = 0, inVehicle = 1, onBicycle = 2, onFoot = 3, still = 4, tilting = 5, walking = 6, running = 7, onStairs = 8
}

/// One input report, decoded.
public struct SH2InputReport: Sendable, Equatable {
    public enum Value: Sendable, Equatable {
        /// 0x01: m/s², Q8 on the wire, here Q16.16 (gravity included).
        case acceleration(Vector3)
        /// 0x02: rad/s, Q9 on the wire, here Q16.16.
        case angularVelocity(Vector3)
        /// 0x03: µT, Q4 on the wire, here Q16.16 (hard iron removed by the hub).
        case magneticField(Vector3)
        /// 0x05: unit quaternion (i, j, k, real in Q14 on the wire, here Q2.30) and the hub's
        /// heading accuracy estimate, rad (Q12 on the wire, here Q16.16).
        case rotationVector(Quaternion, accuracy: Q16_16)
        /// 0x08: unit quaternion without the magnetometer (Q14 → Q2.30).
        case gameRotationVector(Quaternion)
        /// 0x11: steps since the counter was enabled (16 bits: it wraps) and the detection
        /// latency, µs.
        case stepCount(steps: UInt16, latencyMicroseconds: UInt32)
        /// 0x13.
        case stability(SH2Stability?)
        /// 0x1E: the most likely activity (nil: a value outside the table) and its confidence, %.
        case activity(SH2Activity?, confidence: UInt8)
    }

    public var id: UInt8
    /// The report's own sequence number (per report ID).
    public var sequence: UInt8
    /// Status bits 1:0: 0 unreliable, 1 low, 2 medium, 3 high accuracy.
    public var accuracy: UInt8
    /// The 14-bit delay, 100 µs ticks after the batch's base timestamp.
    public var delayTicks: Int
    public var value: Value
}

/// What walking a batch (the cargo of one channel 3 or 4 packet) found besides its reports.
public struct SH2BatchSummary: Sendable, Equatable {
    /// Reports decoded and handed on.
    public var decoded = 0
    /// Reports of a known ID this project does not decode (skipped by their length).
    public var skipped = 0
    /// An unknown report ID: the rest of the batch could not be walked.
    public var unknownID: UInt8?
    /// The batch ended inside a report (a truncated packet): that report was dropped.
    public var truncated = false

    public init() {}
}

/// SH-2 input reports to values: pure functions, no I/O.
public enum SH2Decoder {
    static func int16(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> Int16 {
        Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8)
    }

    static func uint32(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    /// A Qn value as Q16.16: a left shift by 16 − n (exact; n ≤ 16).
    static func q16(_ raw: Int16, q: Int) -> Q16_16 { Q16_16(rawValue: Int32(raw) << (16 - q)) }

    static func vector(_ bytes: UnsafeRawBufferPointer, q: Int) -> Vector3 {
        Vector3(x: q16(int16(bytes, 4), q: q), y: q16(int16(bytes, 6), q: q), z: q16(int16(bytes, 8), q: q))
    }

    /// i, j, k, real at bytes 4…11, Q14 → Q2.30 (a shift by 16).
    static func quaternion(_ bytes: UnsafeRawBufferPointer) -> Quaternion {
        func q30(_ offset: Int) -> Q2_30 { Q2_30(rawValue: Int32(int16(bytes, offset)) << 16) }
        return Quaternion(w: q30(10), x: q30(4), y: q30(6), z: q30(8))
    }

    /// Decodes one report of the IDs this project reads; nil for another ID or too few bytes.
    public static func report(_ bytes: UnsafeRawBufferPointer) -> SH2InputReport? {
        guard bytes.count >= 4 else { return nil }
        let id = bytes[0]
        let length = SH2ReportID.length(of: id)
        guard length > 0, bytes.count >= length else { return nil }
        let value: SH2InputReport.Value
        switch id {
        case SH2ReportID.accelerometer: value = .acceleration(vector(bytes, q: 8))
        case SH2ReportID.gyroscopeCalibrated: value = .angularVelocity(vector(bytes, q: 9))
        case SH2ReportID.magneticFieldCalibrated: value = .magneticField(vector(bytes, q: 4))
        case SH2ReportID.rotationVector: value = .rotationVector(quaternion(bytes), accuracy: q16(int16(bytes, 12), q: 12))
        case SH2ReportID.gameRotationVector: value = .gameRotationVector(quaternion(bytes))
        case SH2ReportID.stepCounter:
            value = .stepCount(steps: UInt16(bytes[8]) | UInt16(bytes[9]) << 8, latencyMicroseconds: uint32(bytes, 4))
        case SH2ReportID.stabilityClassifier: value = .stability(SH2Stability(rawValue: bytes[4]))
        case SH2ReportID.personalActivityClassifier:
            // Byte 4: page number (bits 6:0) and end of sequence (bit 7); byte 5 the most likely
            // state; bytes 6…15 the confidences, % per activity in the table's order.
            let state = bytes[5]
            value = .activity(SH2Activity(rawValue: state), confidence: state < 10 ? bytes[6 + Int(state)] : 0)
        default: return nil
        }
        return SH2InputReport(id: id, sequence: bytes[1], accuracy: bytes[2] & 0x03,
                              delayTicks: Int(bytes[2] & 0xFC) << 6 | Int(bytes[3]), value: value)
    }

    /// Walks a batch: each report's length comes from its ID; 0xFB sets the base (its signed
    /// delta, 100 µs ticks, says how long before the reference the batch's times count from),
    /// 0xFA adds to it (the manual's timestamp reports; CEVA's sh2 library does the same). Stops at an unknown ID or a
    /// report cut short; never reads past `cargo`. Each report goes to `visit` with its time
    /// relative to the transport's reference (the host interrupt, or the read), µs:
    /// (−base delta + rebases + delay) × 100. Nothing is allocated.
    @discardableResult
    public static func walk(_ cargo: UnsafeRawBufferPointer, _ visit: (SH2InputReport, _ offsetMicroseconds: Int64) -> Void) -> SH2BatchSummary {
        var result = SH2BatchSummary()
        var base: Int64 = 0  // 100 µs ticks
        var cursor = 0
        while cursor < cargo.count {
            let id = cargo[cursor]
            let length = SH2ReportID.length(of: id)
            guard length > 0 else {
                result.unknownID = id
                break
            }
            guard cursor + length <= cargo.count else {
                result.truncated = true
                break
            }
            let bytes = UnsafeRawBufferPointer(rebasing: cargo[cursor..<(cursor + length)])
            switch id {
            case SH2ReportID.baseTimestamp: base = -Int64(Int32(bitPattern: uint32(bytes, 1)))
            case SH2ReportID.timestampRebase: base += Int64(Int32(bitPattern: uint32(bytes, 1)))
            default:
                if let report = report(bytes) {
                    result.decoded += 1
                    visit(report, (base + Int64(report.delayTicks)) * 100)
                } else {
                    result.skipped += 1
                }
            }
            cursor += length
        }
        return result
    }
}
