import FixedPoint
public import MotionAlgorithms
public import SensorBus

/// The LSM9DS1's magnetometer, or a LIS3MDL (the same register map and identity; only the
/// sensitivity differs), on I2C: continuous mode, ultra-high performance, 40 Hz, ±4 gauss. Each `read()` takes CTRL_REG1_M … OUT_Z_H_M (0x20…0x2D) in one
/// burst with the auto-increment bit; a lost configuration means a reset, which is recovered.
public final class LSM9DS1MagnetometerDriver<Bus: I2CBus> {
    public let bus: Bus
    public let address: UInt8
    /// Which of the two chips: they cannot be told apart on the bus (both answer 0x3D), so the
    /// board file says.
    public enum Variant: Sendable { case lsm9ds1, lis3mdl }
    public let variant: Variant
    public let scale: (field: UInt8, rangeGauss: Int, picoteslaPerLSB: Int64)
    /// CTRL_REG1_M: temperature compensation, ultra-high x/y performance (11), 40 Hz (DO = 6).
    public let control1: UInt8 = 0x80 | 0x60 | 6 << 2
    /// 40 Hz (DO = 6).
    public let samplePeriodNanoseconds: Int64 = 25_000_000
    public private(set) var recoveries = 0

    public init(bus: Bus, address: UInt8 = 0x1C, variant: Variant = .lsm9ds1) throws(ChipError) {
        self.bus = bus
        self.address = address
        self.variant = variant
        scale = variant == .lsm9ds1 ? LSM9DS1Table.magnetometerScales[0] : LSM9DS1Table.lis3mdlMagnetometerScales[0]
        try initialise()
    }

    private var access: RegisterAccess<Bus> { RegisterAccess(bus: bus, address: address, chip: variant == .lsm9ds1 ? "LSM9DS1 magnetometer" : "LIS3MDL") }

    private func initialise() throws(ChipError) {
        try access.identify(register: LSM9DS1Register.whoAmI, expected: [LSM9DS1Register.magnetometerIdentity])
        let what = "configuring the LSM9DS1 magnetometer"
        try access.write(LSM9DS1Register.control2Magnetometer, LSM9DS1Register.magnetometerSoftReset, what)
        try access.write(LSM9DS1Register.control1Magnetometer, control1, what)
        try access.write(LSM9DS1Register.control2Magnetometer, scale.field << 5, what)
        try access.write(LSM9DS1Register.control4Magnetometer, 0x0C, what)  // z ultra-high performance
        try access.write(LSM9DS1Register.control3Magnetometer, 0x00, what)  // continuous conversion
    }

    /// A new magnetic field reading (µT, Q16.16, chip axes) stamped `nowNanoseconds`, or nil.
    public func read(nowNanoseconds: Int64) throws(ChipError) -> SensorReading? {
        var storage = (UInt64(0), UInt32(0), UInt16(0))  // 14 bytes: 0x20 … 0x2D
        let result = try withUnsafeMutableBytes(of: &storage) { (buffer) throws(ChipError) -> (UInt8, UInt8, Vector3) in
            let bytes = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<14])
            try access.attempt("reading the LSM9DS1 magnetometer") { () throws(BusError) in
                try bus.readRegisters(address: address, register: LSM9DS1Register.magnetometerAutoIncrement | LSM9DS1Register.control1Magnetometer,
                                      into: bytes)
            }
            return (bytes[0], bytes[7], CountConversion.littleEndianVector(UnsafeRawBufferPointer(bytes), at: 8,
                                                                            nanoUnitsPerLSB: scale.picoteslaPerLSB, denominator: 1_000_000))
        }
        if result.0 != control1 {
            try initialise()
            recoveries += 1
            return nil
        }
        guard result.1 & 0x08 != 0 else { return nil }  // ZYXDA
        return SensorReading(timestampNanoseconds: nowNanoseconds, value: .magneticField(result.2))
    }
}
