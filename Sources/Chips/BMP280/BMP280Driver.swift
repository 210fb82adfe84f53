public import FixedPoint
public import SensorBus

/// A BMP280 or BME280 barometer on an I2C bus, in normal mode (the chip measures by itself at
/// the configured standby time; we read the latest result).
///
/// Every `read()` fetches ctrl_meas through the six result bytes in one 9-byte burst
/// (0xF4…0xFC). If ctrl_meas no longer holds our configuration, the chip was reset (a brown-out
/// or a glitch): the driver re-initialises it and counts a recovery, and the stream goes on.
public final class BMP280Driver<Bus: I2CBus> {
    public struct Configuration: Sendable, Equatable {
        /// osrs_t field (1 = ×1 … 5 = ×16). ×2 is Bosch's "standard resolution" choice (§3.4).
        public var temperatureOversampling: UInt8 = 2
        /// osrs_p field; ×16 (5) gives 0.16 Pa resolution (§3.3.1 table 4).
        public var pressureOversampling: UInt8 = 5
        /// t_sb field: index into `BMP280Table.standbyMicroseconds` (0 = 0.5 ms → ~26 Hz at ×16).
        public var standby: UInt8 = 0
        /// filter field: IIR coefficient 0 (off), 1 (2), 2 (4), 3 (8), 4 (16) (§3.3.3).
        public var filter: UInt8 = 2

        public init() {}

        /// The ctrl_meas byte: osrs_t[7:5] osrs_p[4:2] mode[1:0] = normal.
        var controlMeasurement: UInt8 { temperatureOversampling << 5 | pressureOversampling << 2 | BMP280Register.modeNormal }
        /// The config byte: t_sb[7:5] filter[4:2].
        var config: UInt8 { standby << 5 | filter << 2 }
    }

    public struct Reading: Sendable, Equatable {
        /// Static pressure in Pa, Q24.8.
        public var pressure: Q24_8
        /// Die temperature in °C, Q16.16.
        public var temperature: Q16_16
    }

    public let bus: Bus
    public let address: UInt8
    public let configuration: Configuration
    /// Time between two measurements in normal mode: measurement time plus standby (§3.8.2).
    public var measurementPeriodNanoseconds: Int64 {
        let oversampling = BMP280Table.oversampling
        return Int64(BMP280Table.measurementMicroseconds(
            temperatureOversampling: oversampling[Int(configuration.temperatureOversampling)],
            pressureOversampling: oversampling[Int(configuration.pressureOversampling)])
            + BMP280Table.standbyMicroseconds[Int(configuration.standby)]) * 1000
    }
    public private(set) var variant: BMP280Table.Variant
    public private(set) var calibration: BMP280Calibration
    /// How often the driver found the chip reset and brought it back.
    public private(set) var recoveries = 0

    /// Probes the chip (identity), resets it, reads its calibration and starts normal mode.
    public init(bus: Bus, address: UInt8 = 0x76, configuration: Configuration = .init()) throws(ChipError) {
        self.bus = bus
        self.address = address
        self.configuration = configuration
        (variant, calibration) = try Self.initialise(bus: bus, address: address, configuration: configuration)
    }

    private static func initialise(bus: Bus, address: UInt8, configuration: Configuration) throws(ChipError)
        -> (BMP280Table.Variant, BMP280Calibration)
    {
        var access = RegisterAccess(bus: bus, address: address, chip: "BMP280")
        let id = try access.identify(register: BMP280Register.id, expected: BMP280Table.variants.map(\.chipID), family: "BMP280/BME280")
        let variant = BMP280Table.variants.first { $0.chipID == id }!  // identify() matched one
        access = RegisterAccess(bus: bus, address: address, chip: variant.name)
        try access.write(BMP280Register.reset, BMP280Register.resetCommand, "resetting the \(variant.name)")
        // After reset the chip copies its NVM into the calibration registers (im_update = 1,
        // about 2 ms, §3.11.2 / start-up time).
        try access.waitUntilClear(register: BMP280Register.status, mask: BMP280Register.statusImageUpdate,
                                  what: "copying its calibration after reset")
        var raw = (UInt64(0), UInt64(0), UInt64(0))  // 24 bytes, no heap
        let calibration = try withUnsafeMutableBytes(of: &raw) { (buffer) throws(ChipError) -> BMP280Calibration in
            try access.attempt("reading the \(variant.name) calibration (0x88…0x9F)") { () throws(BusError) in
                try bus.readRegisters(address: address, register: BMP280Register.calibration, into: buffer)
            }
            return BMP280Calibration(bytes: UnsafeRawBufferPointer(buffer))
        }
        // All-zero or all-one trimming means the bus returned junk, not a chip's data.
        guard calibration.t1 != 0, calibration.t1 != 0xFFFF, calibration.p1 != 0, calibration.p1 != 0xFFFF else {
            throw .invalidCalibration(chip: variant.name, bus: bus.name, address: address)
        }
        // config first: it is only guaranteed to be taken in sleep mode (§5.4.6).
        try access.write(BMP280Register.config, configuration.config, "configuring the \(variant.name)")
        try access.write(BMP280Register.controlMeasurement, configuration.controlMeasurement, "starting the \(variant.name)")
        return (variant, calibration)
    }

    /// The latest measurement, or nil when the chip has none yet (just started or reset). A
    /// chip found reset is re-initialised here (`recoveries` counts it).
    public func read() throws(ChipError) -> Reading? {
        var burst = (UInt64(0), UInt8(0))  // 9 bytes: ctrl_meas, config, 0xF6, press ×3, temp ×3
        let bytes: (control: UInt8, adcPressure: Int32, adcTemperature: Int32)
        do {
            bytes = try withUnsafeMutableBytes(of: &burst) { (buffer) throws(BusError) in
                let nine = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<9])
                try bus.readRegisters(address: address, register: BMP280Register.controlMeasurement, into: nine)
                return (nine[0], BMP280Conversion.twentyBit(nine[3], nine[4], nine[5]), BMP280Conversion.twentyBit(nine[6], nine[7], nine[8]))
            }
        } catch {
            throw .bus(error.during("reading the BMP280 measurement"))
        }
        if bytes.control != configuration.controlMeasurement {
            (variant, calibration) = try Self.initialise(bus: bus, address: address, configuration: configuration)
            recoveries += 1
            return nil
        }
        guard bytes.adcPressure != BMP280Register.skippedMeasurement, bytes.adcTemperature != BMP280Register.skippedMeasurement else {
            return nil
        }
        let fine = BMP280Conversion.fineTemperature(adcTemperature: bytes.adcTemperature, calibration)
        guard let pressure = BMP280Conversion.pressure(adcPressure: bytes.adcPressure, fineTemperature: fine, calibration) else {
            throw .invalidCalibration(chip: variant.name, bus: bus.name, address: address)
        }
        return Reading(pressure: pressure,
                       temperature: BMP280Conversion.temperature(centidegrees: BMP280Conversion.temperatureCentidegrees(fineTemperature: fine)))
    }
}
