import FixedPoint
public import MotionAlgorithms
public import SensorBus

/// The ST LIS2MDL magnetometer (and the LSM303AGR's, the same die) on I2C: continuous 100 Hz,
/// temperature compensation on (COMP_TEMP_EN), offset cancellation, block data update; 1.5 mG
/// per count (0.15 µT), ±50 G.
///
/// Each read takes CFG_REG_A … OUTZ_H (0x60…0x6D) in one 14-byte burst: CFG_REG_A back at its
/// reset value 0x03 says the chip was reset (re-initialised, counted in `recoveries`), STATUS
/// Zyxda says the sample is new, Zyxor that one was missed (counted in `overruns`, the sample
/// still good), and BDU keeps the six data bytes one sample.
public final class LIS2MDLDriver<Bus: I2CBus> {
    public let bus: Bus
    public let address: UInt8
    public private(set) var recoveries = 0
    /// Samples the chip overwrote before they were read (STATUS Zyxor).
    public private(set) var overruns = 0
    public let samplePeriodNanoseconds: Int64 = 10_000_000

    private var access: RegisterAccess<Bus> { RegisterAccess(bus: bus, address: address, chip: "LIS2MDL") }

    public init(bus: Bus, address: UInt8 = LIS2MDLRegister.address) throws(ChipError) {
        self.bus = bus
        self.address = address
        try initialise()
    }

    private func initialise() throws(ChipError) {
        // An HMC5883L or a LIS3MDL at 0x1E answers 0x00 / something else at 0x4F, not 0x40.
        try access.identify(register: LIS2MDLRegister.whoAmI, expected: [LIS2MDLRegister.identity])
        // No SOFT_RST: the three configuration registers are written whole, which is all the
        // driver relies on, and a register file that does not clear the bit (i2c-stub at level 2)
        // would make a wait for it hang. Continuous mode last: the settings are in place first.
        try access.write(LIS2MDLRegister.configurationC, LIS2MDLRegister.driverConfigurationC, "setting the LIS2MDL block data update (CFG_REG_C)")
        try access.write(LIS2MDLRegister.configurationB, LIS2MDLRegister.driverConfigurationB, "setting the LIS2MDL offset cancellation (CFG_REG_B)")
        try access.write(LIS2MDLRegister.configurationA, LIS2MDLRegister.driverConfigurationA, "starting the LIS2MDL (CFG_REG_A)")
    }

    /// A new field reading (µT, Q16.16, chip axes) stamped `nowNanoseconds`, or nil.
    public func read(nowNanoseconds: Int64) throws(ChipError) -> SensorReading? {
        var storage = (UInt64(0), UInt64(0))  // 14 of 16 bytes: CFG_REG_A…C, INT_CTRL, INT_SOURCE, INT_THS ×2, STATUS, X, Y, Z
        let (configurationA, status, field) = try withUnsafeMutableBytes(of: &storage) { (buffer) throws(ChipError) -> (UInt8, UInt8, Vector3) in
            let bytes = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<14])
            try access.attempt("reading the LIS2MDL (0x60…0x6D)") { () throws(BusError) in
                try bus.readRegisters(address: address, register: LIS2MDLRegister.configurationA, into: bytes)
            }
            // counts × 150 nT = µT × 10⁻³: the shared conversion with 1000 as the denominator.
            return (bytes[0], bytes[7], CountConversion.littleEndianVector(UnsafeRawBufferPointer(bytes), at: 8,
                                                                             nanoUnitsPerLSB: LIS2MDLRegister.nanoteslaPerCount, denominator: 1000))
        }
        if configurationA != LIS2MDLRegister.driverConfigurationA {
            try initialise()
            recoveries += 1
            return nil
        }
        guard status & 0x08 != 0 else { return nil }  // Zyxda
        if status & 0x80 != 0 { overruns += 1 }  // Zyxor: one or more samples were missed before this one
        return SensorReading(timestampNanoseconds: nowNanoseconds, value: .magneticField(field))
    }
}
