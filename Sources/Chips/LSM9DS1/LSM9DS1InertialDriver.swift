import FixedPoint
public import MotionAlgorithms
public import SensorBus

/// The LSM9DS1's accelerometer + gyroscope (the Sense HAT IMU) on I2C, polled: each `read()`
/// takes CTRL_REG1_G … OUT_Z_H_G (0x10…0x1D, 14 bytes) and OUT_X_L_XL … OUT_Z_H_XL (6 bytes) in
/// two bursts with block data update on. A CTRL_REG1_G that lost our setting means the chip
/// was reset: re-initialised and counted. (Its FIFO is not used yet; the engine polls faster
/// than the ODR, and a data-ready line will replace polling.)
public final class LSM9DS1InertialDriver<Bus: I2CBus> {
    public let bus: Bus
    public let address: UInt8
    /// ODR_G field: 2 = 59.5 Hz (both sensors).
    public let rateField: UInt8
    public let accelerometerScale = LSM9DS1Table.accelerometerScales[2]  // ±8 g
    public let gyroscopeScale = LSM9DS1Table.gyroscopeScales[1]          // ±500 °/s
    public private(set) var recoveries = 0

    private var control1: UInt8 { rateField << 5 | gyroscopeScale.field << 3 }

    /// Time between two samples at the configured ODR.
    public var samplePeriodNanoseconds: Int64 { 1_000_000_000_000 / Int64(LSM9DS1Table.inertialRatesMilliHertz[Int(rateField)]) }

    public init(bus: Bus, address: UInt8 = 0x6A, rateField: UInt8 = 2) throws(ChipError) {
        self.bus = bus
        self.address = address
        self.rateField = min(max(rateField, 1), 6)
        try initialise()
    }

    private var access: RegisterAccess<Bus> { RegisterAccess(bus: bus, address: address, chip: "LSM9DS1") }

    private func initialise() throws(ChipError) {
        try access.identify(register: LSM9DS1Register.whoAmI, expected: [LSM9DS1Register.inertialIdentity],
                            family: "LSM9DS1 accelerometer/gyroscope")
        try access.write(LSM9DS1Register.control8, LSM9DS1Register.softwareReset | LSM9DS1Register.addressIncrement, "resetting the LSM9DS1")
        try access.waitUntilClear(register: LSM9DS1Register.control8, mask: LSM9DS1Register.softwareReset, what: "the LSM9DS1 software reset")
        try access.write(LSM9DS1Register.control8, LSM9DS1Register.blockDataUpdate | LSM9DS1Register.addressIncrement, "configuring the LSM9DS1")
        try access.write(LSM9DS1Register.control6Accelerometer, rateField << 5 | accelerometerScale.field << 3, "configuring the LSM9DS1 accelerometer")
        try access.write(LSM9DS1Register.control1Gyroscope, control1, "starting the LSM9DS1 gyroscope")
    }

    /// A new sample pair (acceleration, angular velocity) stamped `nowNanoseconds`, or nil when
    /// the chip has none since the last read (or was just recovered).
    public func read(nowNanoseconds: Int64) throws(ChipError) -> (acceleration: SensorReading, angularVelocity: SensorReading)? {
        var storage = (UInt64(0), UInt64(0), UInt32(0))  // 20 bytes
        let result = try withUnsafeMutableBytes(of: &storage) { (buffer) throws(ChipError) -> (UInt8, UInt8, Vector3, Vector3) in
            let gyroscope = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<14])
            let accelerometer = UnsafeMutableRawBufferPointer(rebasing: buffer[14..<20])
            try access.attempt("reading the LSM9DS1 gyroscope") { () throws(BusError) in
                try bus.readRegisters(address: address, register: LSM9DS1Register.control1Gyroscope, into: gyroscope)
            }
            try access.attempt("reading the LSM9DS1 accelerometer") { () throws(BusError) in
                try bus.readRegisters(address: address, register: LSM9DS1Register.accelerometerOutXL, into: accelerometer)
            }
            return (gyroscope[0], gyroscope[7],
                    CountConversion.littleEndianVector(UnsafeRawBufferPointer(accelerometer), at: 0, nanoUnitsPerLSB: accelerometerScale.nanoUnitsPerLSB),
                    CountConversion.littleEndianVector(UnsafeRawBufferPointer(gyroscope), at: 8, nanoUnitsPerLSB: gyroscopeScale.nanoUnitsPerLSB))
        }
        if result.0 != control1 {
            try initialise()
            recoveries += 1
            return nil
        }
        guard result.1 & 0x03 != 0 else { return nil }  // GDA | XLDA: nothing new
        return (SensorReading(timestampNanoseconds: nowNanoseconds, value: .acceleration(result.2)),
                SensorReading(timestampNanoseconds: nowNanoseconds, value: .angularVelocity(result.3)))
    }
}
