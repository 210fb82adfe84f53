import FixedPoint
public import MotionAlgorithms
public import SensorBus

/// The QMC5883L magnetometer on I2C: continuous 100 Hz, ±8 G (3000 LSB/G: one count is
/// 1/30 µT), oversampling 512. Each read takes status, temperature and control 1 (0x06…0x09)
/// in one burst: DRDY says whether a sample waits, and control 1 back at its power-on 0 says
/// the chip was reset. The data (0x00…0x05) is read only when DRDY is set, in a second burst
/// (reading it clears DRDY, QMC5883L datasheet rev 1.0 §9.2.2).
public final class QMC5883LDriver<Bus: I2CBus> {
    public let bus: Bus
    public let address: UInt8
    public private(set) var recoveries = 0
    /// Samples dropped because an axis was beyond ±8 G (status OVL).
    public private(set) var overflows = 0
    public let samplePeriodNanoseconds: Int64 = 10_000_000
    /// Counts per µT of the configured range (30 at ±8 G).
    public let countsPerMicrotesla = QMC5883LRegister.countsPerMicrotesla(rangeBits: QMC5883LRegister.continuous100HzEightGauss >> 4)

    private var access: RegisterAccess<Bus> { RegisterAccess(bus: bus, address: address, chip: "QMC5883L") }

    public init(bus: Bus, address: UInt8 = QMC5883LRegister.address) throws(ChipError) {
        self.bus = bus
        self.address = address
        try initialise()
    }

    private func initialise() throws(ChipError) {
        // The chip ID register is the only identity the QMC5883L has (0xFF); a Honeywell
        // HMC5883L answers at 0x1E with 'H43' instead (driver hmc5883l).
        try access.identify(register: QMC5883LRegister.chipID, expected: [QMC5883LRegister.identity])
        try access.write(QMC5883LRegister.control2, QMC5883LRegister.softReset, "resetting the QMC5883L")
        try access.write(QMC5883LRegister.setResetPeriod, QMC5883LRegister.recommendedSetResetPeriod, "setting the QMC5883L SET/RESET period")
        try access.write(QMC5883LRegister.control1, QMC5883LRegister.continuous100HzEightGauss, "starting the QMC5883L")
    }

    /// A new field reading (µT, Q16.16, chip axes) stamped `nowNanoseconds`, or nil.
    public func read(nowNanoseconds: Int64) throws(ChipError) -> SensorReading? {
        var state: UInt32 = 0  // status, TOUT LSB, TOUT MSB, control 1
        let (status, control) = try withUnsafeMutableBytes(of: &state) { (buffer) throws(ChipError) -> (UInt8, UInt8) in
            try access.attempt("reading the QMC5883L status (0x06…0x09)") { () throws(BusError) in
                try bus.readRegisters(address: address, register: QMC5883LRegister.status, into: buffer)
            }
            return (buffer[0], buffer[3])
        }
        if control != QMC5883LRegister.continuous100HzEightGauss {
            try initialise()
            recoveries += 1
            return nil
        }
        guard status & 0x01 != 0 else { return nil }  // DRDY
        var data = (UInt32(0), UInt16(0))  // XL XH YL YH ZL ZH
        let field = try withUnsafeMutableBytes(of: &data) { (buffer) throws(ChipError) -> Vector3 in
            let bytes = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<6])
            try access.attempt("reading the QMC5883L field (0x00…0x05)") { () throws(BusError) in
                try bus.readRegisters(address: address, register: QMC5883LRegister.outXLow, into: bytes)
            }
            return CountConversion.littleEndianVector(UnsafeRawBufferPointer(bytes), at: 0, nanoUnitsPerLSB: 1, denominator: countsPerMicrotesla)
        }
        if status & 0x02 != 0 {  // OVL: an axis is beyond the range, the data is clipped
            overflows += 1
            return nil
        }
        return SensorReading(timestampNanoseconds: nowNanoseconds, value: .magneticField(field))
    }
}
