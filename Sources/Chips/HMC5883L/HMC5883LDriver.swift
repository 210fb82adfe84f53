import FixedPoint
public import MotionAlgorithms
public import SensorBus

/// The Honeywell HMC5883L magnetometer on I2C, in single-measurement mode at gain 0x20
/// (±1.3 G, 1090 LSB/G: one count is 10/109 µT), one measurement per read, about 100 Hz.
///
/// Single measurements, not continuous mode: in continuous mode RDY stays set while the data
/// is re-read (HMC5883L datasheet, status register: it clears only while the chip writes new
/// data), so a poll could not tell a new sample from the last one. A single measurement sets
/// the mode register to idle when its data is in (datasheet, "Single-Measurement Mode"): idle
/// means new data. Each read takes configuration A … status (0x00…0x09) in one burst: the mode
/// says whether the measurement is done, configuration A back at its power-on 0x10 says the chip
/// was reset, and the six data bytes are read whole, which releases the data registers' lock.
public final class HMC5883LDriver<Bus: I2CBus> {
    public let bus: Bus
    public let address: UInt8
    public private(set) var recoveries = 0
    /// Samples dropped because an axis was beyond ±1.3 G (it reads −4096).
    public private(set) var overflows = 0
    /// A measurement takes about 6 ms; the reader polls every 5 ms, so one per 10 ms.
    public let samplePeriodNanoseconds: Int64 = 10_000_000
    /// Counts per gauss of the configured gain (1090).
    public let countsPerGauss = HMC5883LRegister.countsPerGauss[Int(HMC5883LRegister.defaultConfigurationB >> 5)]

    private var access: RegisterAccess<Bus> { RegisterAccess(bus: bus, address: address, chip: "HMC5883L") }

    public init(bus: Bus, address: UInt8 = HMC5883LRegister.address) throws(ChipError) {
        self.bus = bus
        self.address = address
        try initialise()
    }

    private func initialise() throws(ChipError) {
        var identity = (UInt8(0), UInt8(0), UInt8(0))
        try withUnsafeMutableBytes(of: &identity) { (buffer) throws(ChipError) in
            try access.attempt("reading the HMC5883L identification registers (0x0A…0x0C)") { () throws(BusError) in
                try bus.readRegisters(address: address, register: HMC5883LRegister.identification, into: buffer)
            }
        }
        let expected = HMC5883LRegister.identity
        let pairs = [(identity.0, expected.0), (identity.1, expected.1), (identity.2, expected.2)]
        if let index = pairs.firstIndex(where: { $0.0 != $0.1 }) {  // the first of 'H', '4', '3' that differs
            throw .unexpectedIdentity(chip: "HMC5883L", bus: bus.name, address: address, register: HMC5883LRegister.identification + UInt8(index),
                                      expected: [pairs[index].1], found: pairs[index].0)
        }
        try access.write(HMC5883LRegister.configurationA, HMC5883LRegister.driverConfigurationA, "configuring the HMC5883L (configuration A)")
        try access.write(HMC5883LRegister.configurationB, HMC5883LRegister.defaultConfigurationB, "setting the HMC5883L gain (configuration B)")
        try startMeasurement()
    }

    private func startMeasurement() throws(ChipError) {
        try access.write(HMC5883LRegister.mode, HMC5883LRegister.singleMeasurement, "starting an HMC5883L measurement")
    }

    /// A new field reading (µT, Q16.16, chip axes) stamped `nowNanoseconds`, or nil.
    public func read(nowNanoseconds: Int64) throws(ChipError) -> SensorReading? {
        var storage = (UInt64(0), UInt16(0))  // CRA, CRB, mode, X MSB, X LSB, Z MSB, Z LSB, Y MSB, Y LSB, status
        let result = try withUnsafeMutableBytes(of: &storage) { (buffer) throws(ChipError) -> (UInt8, UInt8, UInt8, (Int16, Int16, Int16)) in
            let bytes = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<10])
            try access.attempt("reading the HMC5883L (0x00…0x09)") { () throws(BusError) in
                try bus.readRegisters(address: address, register: HMC5883LRegister.configurationA, into: bytes)
            }
            func bigEndian(_ offset: Int) -> Int16 { Int16(bitPattern: UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])) }
            return (bytes[0], bytes[2], bytes[9], (bigEndian(3), bigEndian(7), bigEndian(5)))  // X, Y, Z from X, Z, Y
        }
        let (configurationA, mode, status, counts) = result
        if configurationA != HMC5883LRegister.driverConfigurationA {
            try initialise()
            recoveries += 1
            return nil
        }
        guard mode & 0x02 != 0 else { return nil }  // still measuring (MD = single)
        try startMeasurement()
        guard status & 0x01 != 0 else { return nil }  // RDY
        if counts.0 == HMC5883LRegister.overflow || counts.1 == HMC5883LRegister.overflow || counts.2 == HMC5883LRegister.overflow {
            overflows += 1
            return nil
        }
        // µT = counts × 100 / 1090 = counts × 10 / 109 (1 G = 100 µT).
        let denominator = countsPerGauss / 10
        func microtesla(_ value: Int16) -> Q16_16 { CountConversion.siValue(counts: value, nanoUnitsPerLSB: 10, denominator: denominator) }
        return SensorReading(timestampNanoseconds: nowNanoseconds,
                             value: .magneticField(Vector3(x: microtesla(counts.0), y: microtesla(counts.1), z: microtesla(counts.2))))
    }
}
