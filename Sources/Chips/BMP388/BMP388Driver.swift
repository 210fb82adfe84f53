public import FixedPoint
public import SensorBus

/// A BMP388 or BMP390 barometer on I2C in normal mode: pressure ×8 and temperature ×1
/// oversampling, 25 Hz, IIR coefficient 3 (`BMP388Register.driver…`). Pressure in Pa (Q24.8)
/// and die temperature in °C (Q16.16), as the BMP280 driver reports them.
///
/// Every `read()` takes STATUS … EVENT (0x03…0x10) in one 14-byte burst, which stops short of
/// FIFO_DATA (0x14: reading it would pop the FIFO). EVENT's por_detected says the chip was reset
/// (power-up or soft reset; reading clears it), and the driver re-initialises it and counts a
/// recovery; drdy_press and drdy_temp say whether the result is new: a result already returned
/// is not returned again (nil instead), so a chip whose data ready stays low is silent, not stale.
public final class BMP388Driver<Bus: I2CBus> {
    public struct Reading: Sendable, Equatable {
        /// Static pressure in Pa, Q24.8.
        public var pressure: Q24_8
        /// Die temperature in °C, Q16.16.
        public var temperature: Q16_16
    }

    public let bus: Bus
    public let address: UInt8
    /// 40 ms: the 25 Hz of odr_sel 3, longer than the 19 ms conversion (§3.9.2) that ×8 / ×1 take.
    public let outputPeriodNanoseconds = BMP388Register.periodNanoseconds(outputDataRate: BMP388Register.driverOutputDataRate)
    /// Time between two reads: half the output period (`readsPerMeasurement` is 2), so a poll a
    /// little late or early never misses a result, which data ready returns once.
    public var measurementPeriodNanoseconds: Int64 { outputPeriodNanoseconds / 2 }
    public private(set) var variant: BMP388Register.Variant
    public private(set) var calibration: BMP388Calibration
    public private(set) var recoveries = 0

    /// Probes the chip (CHIP_ID at 0x00), soft-resets it, reads its trimming and starts normal mode.
    public init(bus: Bus, address: UInt8 = 0x76) throws(ChipError) {
        self.bus = bus
        self.address = address
        (variant, calibration) = try Self.initialise(bus: bus, address: address)
    }

    private static func initialise(bus: Bus, address: UInt8) throws(ChipError) -> (BMP388Register.Variant, BMP388Calibration) {
        var access = RegisterAccess(bus: bus, address: address, chip: "BMP388")
        // A BMP280/BME280 keeps its id at 0xD0 (driver bmp280); its 0x00 is not 0x50 or 0x60.
        let id = try access.identify(register: BMP388Register.chipID, expected: BMP388Register.variants.map(\.chipID), family: "BMP388/BMP390")
        let variant = BMP388Register.variants.first { $0.chipID == id }!  // identify() matched one
        access = RegisterAccess(bus: bus, address: address, chip: variant.name)
        try access.write(BMP388Register.command, BMP388Register.softReset, "resetting the \(variant.name) (CMD 0xB6)")
        // After the reset the command decoder is busy for about 2 ms (§4.3.21): cmd_rdy is 0 until then.
        try access.waitUntilSet(register: BMP388Register.status, mask: BMP388Register.statusCommandReady,
                                what: "its soft reset (STATUS cmd_rdy)")
        _ = try access.read(BMP388Register.event, "clearing the \(variant.name) reset event (EVENT 0x10)")  // clear on read
        var raw = (UInt64(0), UInt64(0), UInt64(0))  // 21 of 24 bytes used, no heap
        let calibration = try withUnsafeMutableBytes(of: &raw) { (buffer) throws(ChipError) -> BMP388Calibration in
            let bytes = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<BMP388Register.calibrationLength])
            try access.attempt("reading the \(variant.name) calibration (0x31…0x45)") { () throws(BusError) in
                try bus.readRegisters(address: address, register: BMP388Register.calibration, into: bytes)
            }
            return BMP388Calibration(bytes: UnsafeRawBufferPointer(bytes))
        }
        // All-zero or all-one trimming (T1, T2) is a bus returning junk, not a chip's NVM.
        guard calibration.t1 != 0, calibration.t1 != 0xFFFF, calibration.t2 != 0, calibration.t2 != 0xFFFF else {
            throw .invalidCalibration(chip: variant.name, bus: bus.name, address: address)
        }
        // Settings in sleep mode, then the mode (§3.3: changes are taken in sleep mode).
        try access.write(BMP388Register.oversampling, BMP388Register.driverOversampling, "setting the \(variant.name) oversampling (OSR)")
        try access.write(BMP388Register.outputDataRate, BMP388Register.driverOutputDataRate, "setting the \(variant.name) output data rate (ODR)")
        try access.write(BMP388Register.config, BMP388Register.driverConfig, "setting the \(variant.name) IIR filter (CONFIG)")
        try access.write(BMP388Register.powerControl, BMP388Register.driverPowerControl, "starting the \(variant.name) (PWR_CTRL normal mode)")
        return (variant, calibration)
    }

    /// The newest measurement, or nil when there is none since the last (none yet, data ready
    /// low, or the chip found reset and re-initialised: `recoveries` counts it).
    public func read() throws(ChipError) -> Reading? {
        var burst = (UInt64(0), UInt64(0))  // 14 of 16 bytes: STATUS, DATA_0…5, 0x0A, 0x0B, SENSORTIME ×3, 0x0F, EVENT
        let bytes: (status: UInt8, event: UInt8, pressure: UInt32, temperature: UInt32)
        do {
            bytes = try withUnsafeMutableBytes(of: &burst) { (buffer) throws(BusError) in
                let burst = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<14])
                try bus.readRegisters(address: address, register: BMP388Register.status, into: burst)
                return (burst[0], burst[13], BMP388Conversion.twentyFourBit(burst[1], burst[2], burst[3]),
                        BMP388Conversion.twentyFourBit(burst[4], burst[5], burst[6]))
            }
        } catch {
            throw .bus(error.during("reading the \(variant.name) measurement (0x03…0x10)"))
        }
        if bytes.event & BMP388Register.eventPowerOnReset != 0 {
            (variant, calibration) = try Self.initialise(bus: bus, address: address)
            recoveries += 1
            return nil
        }
        let ready = BMP388Register.statusPressureReady | BMP388Register.statusTemperatureReady
        guard bytes.status & ready == ready, bytes.pressure != BMP388Register.skippedMeasurement,
              bytes.temperature != BMP388Register.skippedMeasurement else { return nil }
        let linear = BMP388Conversion.linearTemperature(adcTemperature: bytes.temperature, calibration)
        return Reading(pressure: BMP388Conversion.pressure(adcPressure: bytes.pressure, linearTemperature: linear, calibration),
                       temperature: BMP388Conversion.temperature(linearTemperature: linear))
    }
}
