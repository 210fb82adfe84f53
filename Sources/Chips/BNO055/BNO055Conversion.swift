public import FixedPoint

/// The BNO055's outputs beside the three sensors: what its own fusion makes of them.
public enum BNO055Conversion {
    /// The quaternion registers (Q2.14, table 3-31: 1 = 2¹⁴ LSB) in the engine's Q2.30: the
    /// same number with 16 more fraction bits, exact.
    @inlinable
    public static func quaternion(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Quaternion {
        func component(_ index: Int) -> Q2_30 {
            Q2_30(rawValue: Int32(CountConversion.littleEndian16(bytes, at: offset + 2 * index)) << (30 - BNO055Register.quaternionFractionBits))
        }
        return Quaternion(w: component(0), x: component(1), y: component(2), z: component(3))
    }

    /// TEMP in °C mode (1 °C = 1 LSB, §3.6.5.8, a signed byte) as Q16.16 °C.
    @inlinable
    public static func temperature(_ byte: UInt8) -> Q16_16 { Q16_16(rawValue: Int32(Int8(bitPattern: byte)) << 16) }
}

/// CALIB_STAT (§4.3.54): how far the chip's background calibration has come, per sensor and
/// for the fusion as a whole, each 0 (not calibrated) … 3 (fully calibrated).
public struct BNO055CalibrationStatus: Sendable, Equatable {
    public var system: UInt8
    public var gyroscope: UInt8
    public var accelerometer: UInt8
    public var magnetometer: UInt8

    public init(system: UInt8, gyroscope: UInt8, accelerometer: UInt8, magnetometer: UInt8) {
        self.system = system
        self.gyroscope = gyroscope
        self.accelerometer = accelerometer
        self.magnetometer = magnetometer
    }

    /// From the register: SYS bits 7:6, GYR 5:4, ACC 3:2, MAG 1:0.
    public init(register: UInt8) {
        self.init(system: register >> 6 & 3, gyroscope: register >> 4 & 3, accelerometer: register >> 2 & 3, magnetometer: register & 3)
    }

    public var register: UInt8 { system << 6 | gyroscope << 4 | accelerometer << 2 | magnetometer }

    /// Every sensor and the system at 3: the offsets are worth saving (Bosch's advice, §3.11.4:
    /// store the profile once the chip is fully calibrated).
    public var isFullyCalibrated: Bool { register == 0xFF }
}

/// The chip's calibration profile (§3.6.4, registers 0x55…0x6A), lost at every power-off: the
/// offsets it learned, to save and write back so that a restarted chip is calibrated at once.
/// Values are as the registers hold them in the driver's units (UNIT_SEL 0x86): accelerometer
/// offset 1 LSB = 0.01 m/s² (table 3-17), magnetometer 1 LSB = 1/16 µT (§3.6.4.2, table 3-19),
/// gyroscope 1 LSB = 1/900 rad/s (table 3-22), radii in LSB of their sensor (table 3-24).
public struct BNO055CalibrationProfile: Sendable, Equatable {
    public var accelerometerOffset: [Int16]
    public var magnetometerOffset: [Int16]
    public var gyroscopeOffset: [Int16]
    public var accelerometerRadius: Int16
    public var magnetometerRadius: Int16

    public init(accelerometerOffset: [Int16], magnetometerOffset: [Int16], gyroscopeOffset: [Int16],
                accelerometerRadius: Int16, magnetometerRadius: Int16) {
        self.accelerometerOffset = accelerometerOffset
        self.magnetometerOffset = magnetometerOffset
        self.gyroscopeOffset = gyroscopeOffset
        self.accelerometerRadius = accelerometerRadius
        self.magnetometerRadius = magnetometerRadius
    }

    /// The eleven values in register order (what a calibration file stores).
    public var values: [Int16] {
        accelerometerOffset + magnetometerOffset + gyroscopeOffset + [accelerometerRadius, magnetometerRadius]
    }

    /// From eleven values in register order; nil for another count.
    public init?(values: [Int16]) {
        guard values.count == 11 else { return nil }
        self.init(accelerometerOffset: Array(values[0..<3]), magnetometerOffset: Array(values[3..<6]),
                  gyroscopeOffset: Array(values[6..<9]), accelerometerRadius: values[9], magnetometerRadius: values[10])
    }

    /// From the 22 register bytes, little endian.
    public init(bytes: [UInt8]) {
        let values = (0..<11).map { Int16(bitPattern: UInt16(bytes[2 * $0]) | UInt16(bytes[2 * $0 + 1]) << 8) }
        self.init(values: values)!
    }

    /// The 22 register bytes, little endian, in the order they are written.
    public var bytes: [UInt8] {
        values.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
    }

    /// Within the ranges the datasheet allows in the fusion modes' fixed ranges (4 g, 2000 °/s):
    /// accelerometer offset ±4000 mg = ±3923 LSB of 0.01 m/s² (table 3-16), magnetometer
    /// ±6400 LSB (§3.6.4.2), gyroscope ±32000 LSB at 2000 °/s in °/s units (table 3-21, ±2000
    /// °/s = ±31416 LSB of 1/900 rad/s), accelerometer radius ±1000, magnetometer ±960 (table
    /// 3-24). A profile outside them is not the chip's.
    public var isPlausible: Bool {
        accelerometerOffset.allSatisfy { abs(Int($0)) <= 3923 } && magnetometerOffset.allSatisfy { abs(Int($0)) <= 6400 }
            && gyroscopeOffset.allSatisfy { abs(Int($0)) <= 31416 } && abs(Int(accelerometerRadius)) <= 1000
            && abs(Int(magnetometerRadius)) <= 960
    }
}
