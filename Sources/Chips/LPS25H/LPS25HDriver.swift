public import FixedPoint
public import SensorBus

/// An LPS25H barometer (the Raspberry Pi Sense HAT's) on I2C, measuring continuously at 25 Hz.
/// Each `read()` takes CTRL_REG1 through TEMP_OUT_H in one 13-byte burst (0x20…0x2C): if
/// CTRL_REG1 lost our configuration, the chip was reset and is brought back (`recoveries`).
public final class LPS25HDriver<Bus: I2CBus> {
    public struct Reading: Sendable, Equatable {
        /// Static pressure in Pa, Q24.8.
        public var pressure: Q24_8
        /// Temperature in °C, Q16.16.
        public var temperature: Q16_16
    }

    public let bus: Bus
    public let address: UInt8
    /// CTRL_REG1: active, 25 Hz, block data update.
    public let control1: UInt8 = LPS25HRegister.powerOn | 4 << 4 | LPS25HRegister.blockDataUpdate
    /// RES_CONF 0x05: 16 temperature and 32 pressure internal averages, as RTIMULib (the Sense
    /// HAT's library) configures it; the datasheet's 25 Hz mode allows at most AVGP = 32.
    public let resolution: UInt8 = 0x05
    public private(set) var recoveries = 0
    /// Time between two measurements at 25 Hz.
    public let measurementPeriodNanoseconds: Int64 = 40_000_000

    public init(bus: Bus, address: UInt8 = 0x5C) throws(ChipError) {
        self.bus = bus
        self.address = address
        try initialise()
    }

    private var access: RegisterAccess<Bus> { RegisterAccess(bus: bus, address: address, chip: "LPS25H") }

    private func initialise() throws(ChipError) {
        try access.identify(register: LPS25HRegister.whoAmI, expected: [LPS25HRegister.identity])
        try access.write(LPS25HRegister.control2, LPS25HRegister.softwareReset, "resetting the LPS25H")
        try access.waitUntilClear(register: LPS25HRegister.control2, mask: LPS25HRegister.softwareReset, what: "the LPS25H software reset")
        try access.write(LPS25HRegister.resolutionConfig, resolution, "configuring the LPS25H averaging")
        try access.write(LPS25HRegister.control1, control1, "starting the LPS25H")
    }

    /// The latest measurement, or nil when there is none yet (just started or recovered).
    public func read() throws(ChipError) -> Reading? {
        var burst = (UInt64(0), UInt32(0), UInt8(0))  // 13 bytes: 0x20 … 0x2C
        let bytes: (control: UInt8, status: UInt8, pressure: Int32, temperature: Int16)
        do {
            bytes = try withUnsafeMutableBytes(of: &burst) { (buffer) throws(BusError) in
                let thirteen = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<13])
                try bus.readRegisters(address: address, register: LPS25HRegister.autoIncrement | LPS25HRegister.control1, into: thirteen)
                return (thirteen[0], thirteen[7], LPS25HConversion.signed24(thirteen[8], thirteen[9], thirteen[10]),
                        Int16(bitPattern: UInt16(thirteen[12]) << 8 | UInt16(thirteen[11])))
            }
        } catch {
            throw .bus(error.during("reading the LPS25H measurement"))
        }
        if bytes.control != control1 {
            try initialise()
            recoveries += 1
            return nil
        }
        // Until both results exist once after power-on, the output registers hold zeros.
        guard bytes.status & 0x03 == 0x03 || bytes.pressure != 0 else { return nil }
        return Reading(pressure: Q24_8(rawValue: LPS25HConversion.pressureRaw(counts: bytes.pressure)),
                       temperature: Q16_16(rawValue: LPS25HConversion.temperatureRaw(counts: bytes.temperature)))
    }
}
