import FixedPoint
public import MotionAlgorithms
public import SensorBus

/// An LSM6DSOX / LSM6DSO / LSM6DS3 / ISM330DHCX accelerometer + gyroscope on I2C, polled: one
/// 29-byte burst from CTRL2_G to OUTZ_H_A (0x11…0x2D) brings the configuration (reset
/// detection), STATUS_REG and both outputs from one instant. (The tagged FIFO is not used yet.)
public final class LSM6DSXDriver<Bus: I2CBus> {
    public let bus: Bus
    public let address: UInt8
    public private(set) var variant = LSM6DSXTable.variants[3]
    /// ODR field for both sensors (4 = 104 Hz).
    public let rateField: UInt8
    public let accelerometerScale = LSM6DSXTable.accelerometerScales[2]  // ±8 g
    public let gyroscopeScale = LSM6DSXTable.gyroscopeScales[2]          // ±1000 °/s
    public private(set) var recoveries = 0

    private var control2: UInt8 { rateField << 4 | gyroscopeScale.field << 2 }

    /// Time between two samples at the configured ODR.
    public var samplePeriodNanoseconds: Int64 { 1_000_000_000_000 / LSM6DSXTable.ratesMilliHertz[Int(rateField)] }
    private var access: RegisterAccess<Bus> { RegisterAccess(bus: bus, address: address, chip: variant.name) }

    public init(bus: Bus, address: UInt8 = 0x6A, rateHertz: Int = 104) throws(ChipError) {
        self.bus = bus
        self.address = address
        let index = LSM6DSXTable.ratesMilliHertz.indices.dropFirst().min {
            abs(LSM6DSXTable.ratesMilliHertz[$0] - Int64(rateHertz) * 1000) < abs(LSM6DSXTable.ratesMilliHertz[$1] - Int64(rateHertz) * 1000)
        } ?? 4
        rateField = UInt8(index)
        try initialise()
    }

    private func initialise() throws(ChipError) {
        let identity = try access.identify(register: LSM6DSXRegister.whoAmI, expected: LSM6DSXTable.variants.map(\.whoAmI),
                                           family: "LSM6DSx family")
        variant = LSM6DSXTable.variants.first { $0.whoAmI == identity }!  // identify() matched one
        try access.write(LSM6DSXRegister.control3, LSM6DSXRegister.softwareReset | LSM6DSXRegister.addressIncrement, "resetting the \(variant.name)")
        try access.waitUntilClear(register: LSM6DSXRegister.control3, mask: LSM6DSXRegister.softwareReset, what: "the \(variant.name) software reset")
        try access.write(LSM6DSXRegister.control3, LSM6DSXRegister.blockDataUpdate | LSM6DSXRegister.addressIncrement, "configuring the \(variant.name)")
        // Data ready on INT1: a board that wires INT1 to a GPIO line is read on its edges.
        try access.write(LSM6DSXRegister.int1Control, LSM6DSXRegister.int1DataReadyAccelerometer, "routing data ready to the \(variant.name) INT1 pin")
        try access.write(LSM6DSXRegister.control1Accelerometer, rateField << 4 | accelerometerScale.field << 2, "starting the \(variant.name) accelerometer")
        try access.write(LSM6DSXRegister.control2Gyroscope, control2, "starting the \(variant.name) gyroscope")
    }

    /// A new (acceleration, angular velocity) pair stamped `nowNanoseconds`, or nil.
    public func read(nowNanoseconds: Int64) throws(ChipError) -> (acceleration: SensorReading, angularVelocity: SensorReading)? {
        var storage = (UInt64(0), UInt64(0), UInt64(0), UInt32(0), UInt8(0))  // 29 bytes: 0x11 … 0x2D
        let result = try withUnsafeMutableBytes(of: &storage) { (buffer) throws(ChipError) -> (UInt8, UInt8, Vector3, Vector3) in
            let bytes = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<29])
            try access.attempt("reading the \(variant.name) outputs") { () throws(BusError) in
                try bus.readRegisters(address: address, register: LSM6DSXRegister.control2Gyroscope, into: bytes)
            }
            let raw = UnsafeRawBufferPointer(bytes)
            let gyroscopeOffset = Int(LSM6DSXRegister.gyroscopeOutXL - LSM6DSXRegister.control2Gyroscope)
            let accelerometerOffset = Int(LSM6DSXRegister.accelerometerOutXL - LSM6DSXRegister.control2Gyroscope)
            return (bytes[0], bytes[Int(LSM6DSXRegister.status - LSM6DSXRegister.control2Gyroscope)],
                    CountConversion.littleEndianVector(raw, at: accelerometerOffset, nanoUnitsPerLSB: accelerometerScale.nanoUnitsPerLSB),
                    CountConversion.littleEndianVector(raw, at: gyroscopeOffset, nanoUnitsPerLSB: gyroscopeScale.nanoUnitsPerLSB))
        }
        if result.0 != control2 {
            try initialise()
            recoveries += 1
            return nil
        }
        guard result.1 & 0x03 != 0 else { return nil }
        return (SensorReading(timestampNanoseconds: nowNanoseconds, value: .acceleration(result.2)),
                SensorReading(timestampNanoseconds: nowNanoseconds, value: .angularVelocity(result.3)))
    }
}
