import FixedPoint
public import MotionAlgorithms
public import SensorBus

/// An LSM6DSOX / LSM6DSO / LSM6DS3 / LSM6DS3TR-C / ISM330DHCX / LSM6DSV16X accelerometer +
/// gyroscope on I2C, polled: one 29-byte burst from CTRL2_G to OUTZ_H_A (0x11…0x2D) brings
/// the configuration (reset detection), STATUS_REG and both outputs from one instant. The
/// variants with a tagged FIFO can be drained instead with `LSM6DSXFIFODriver`, the LSM6DS3
/// and LSM6DS3TR-C (the older pattern FIFO, no tags) with `LSM6DS3FIFODriver`.
public final class LSM6DSXDriver<Bus: I2CBus> {
    public let bus: Bus
    public let address: UInt8
    public private(set) var variant = LSM6DSXTable.variants[3]
    private let rateHertz: Int
    private var settings: LSM6DSXSettings
    /// ODR field of both sensors in the variant's map (LSM6DSO map: 4 = 104 Hz; LSM6DSV16X: 6 = 120 Hz).
    public var rateField: UInt8 { settings.rateField }
    public var accelerometerScale: (field: UInt8, rangeG: Int, nanoUnitsPerLSB: Int64) { settings.accelerometerScale }  // ±8 g
    public var gyroscopeScale: (field: UInt8, rangeDegreesPerSecond: Int, nanoUnitsPerLSB: Int64) { settings.gyroscopeScale }  // ±1000 °/s
    public private(set) var recoveries = 0

    /// Time between two samples at the configured ODR.
    public var samplePeriodNanoseconds: Int64 { settings.samplePeriodNanoseconds }
    private var access: RegisterAccess<Bus> { RegisterAccess(bus: bus, address: address, chip: variant.name) }

    public init(bus: Bus, address: UInt8 = 0x6A, rateHertz: Int = 104) throws(ChipError) {
        self.bus = bus
        self.address = address
        self.rateHertz = rateHertz
        settings = LSM6DSXSettings(map: .lsm6dso, rateHertz: rateHertz)
        try initialise()
    }

    private func initialise() throws(ChipError) {
        variant = try access.resetLSM6DSX(among: LSM6DSXTable.variants, family: "LSM6DSx family")
        settings = LSM6DSXSettings(map: variant.map, rateHertz: rateHertz)
        // Data ready on INT1: a board that wires INT1 to a GPIO line is read on its edges.
        try access.write(LSM6DSXRegister.int1Control, LSM6DSXRegister.int1DataReadyAccelerometer, "routing data ready to the \(variant.name) INT1 pin")
        try settings.write(access, chip: variant.name)
    }

    /// A new (acceleration, angular velocity) pair stamped `nowNanoseconds`, or nil.
    public func read(nowNanoseconds: Int64) throws(ChipError) -> (acceleration: SensorReading, angularVelocity: SensorReading)? {
        var storage = (UInt64(0), UInt64(0), UInt64(0), UInt32(0), UInt8(0))  // 29 bytes: 0x11 … 0x2D
        let accelerometerLSB = settings.accelerometerScale.nanoUnitsPerLSB
        let gyroscopeLSB = settings.gyroscopeScale.nanoUnitsPerLSB
        let result = try withUnsafeMutableBytes(of: &storage) { (buffer) throws(ChipError) -> (UInt8, UInt8, Vector3, Vector3) in
            let bytes = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<29])
            try access.attempt("reading the \(variant.name) outputs") { () throws(BusError) in
                try bus.readRegisters(address: address, register: LSM6DSXRegister.control2Gyroscope, into: bytes)
            }
            let raw = UnsafeRawBufferPointer(bytes)
            let gyroscopeOffset = Int(LSM6DSXRegister.gyroscopeOutXL - LSM6DSXRegister.control2Gyroscope)
            let accelerometerOffset = Int(LSM6DSXRegister.accelerometerOutXL - LSM6DSXRegister.control2Gyroscope)
            return (bytes[0], bytes[Int(LSM6DSXRegister.status - LSM6DSXRegister.control2Gyroscope)],
                    CountConversion.littleEndianVector(raw, at: accelerometerOffset, nanoUnitsPerLSB: accelerometerLSB),
                    CountConversion.littleEndianVector(raw, at: gyroscopeOffset, nanoUnitsPerLSB: gyroscopeLSB))
        }
        if result.0 != settings.control2 {
            try initialise()
            recoveries += 1
            return nil
        }
        guard result.1 & 0x03 != 0 else { return nil }
        return (SensorReading(timestampNanoseconds: nowNanoseconds, value: .acceleration(result.2)),
                SensorReading(timestampNanoseconds: nowNanoseconds, value: .angularVelocity(result.3)))
    }
}
