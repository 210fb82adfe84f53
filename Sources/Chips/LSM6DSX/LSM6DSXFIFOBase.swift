public import SensorBus

/// What both LSM6DSx FIFO drivers hold and do alike (`LSM6DSXFIFODriver`, the tagged FIFO;
/// `LSM6DS3FIFODriver`, the LSM6DS3's pattern FIFO): the chip and its variant, the rate and
/// full scales, INT1's data-ready routing, the counters the engine reads, and the parts of
/// starting and of an in-place rate change that do not touch the FIFO. Each subclass has its
/// own FIFO registers.
public class LSM6DSXFIFOBase<Bus: I2CBus> {
    public let bus: Bus
    public let address: UInt8
    public internal(set) var variant: LSM6DSXTable.Variant
    var rateHertz: Int
    var settings: LSM6DSXSettings
    /// Whether INT1_CTRL routes data ready to INT1 (`setSampleRate` may turn it off).
    public internal(set) var dataReadyInterrupt: Bool
    /// ODR field of both sensors in the variant's map (also its FIFO's batch or write rate code).
    public var rateField: UInt8 { settings.rateField }
    public var samplePeriodNanoseconds: Int64 { settings.samplePeriodNanoseconds }
    public internal(set) var recoveries = 0
    public internal(set) var overflows = 0

    var access: RegisterAccess<Bus> { RegisterAccess(bus: bus, address: address, chip: variant.name) }

    /// `variant`: the one assumed until the chip's WHO_AM_I is read (`identifyAndReset`).
    init(bus: Bus, address: UInt8, rateHertz: Int, dataReadyInterrupt: Bool, variant: LSM6DSXTable.Variant) {
        self.bus = bus
        self.address = address
        self.rateHertz = rateHertz
        self.dataReadyInterrupt = dataReadyInterrupt
        self.variant = variant
        settings = LSM6DSXSettings(map: variant.map, rateHertz: rateHertz)
    }

    /// INT1_CTRL: INT1_DRDY_XL when the pin should pulse at each sample.
    var int1Value: UInt8 { dataReadyInterrupt ? LSM6DSXRegister.int1DataReadyAccelerometer : 0 }

    /// Identifies the chip among `variants` (`family` names them in the error), resets it,
    /// takes its map's settings and routes data ready to INT1 as asked. The FIFO comes next,
    /// then `settings.write`, which starts the sensors.
    func identifyAndReset(among variants: [LSM6DSXTable.Variant], family: String) throws(ChipError) {
        variant = try access.resetLSM6DSX(among: variants, family: family)
        settings = LSM6DSXSettings(map: variant.map, rateHertz: rateHertz)
        try access.write(LSM6DSXRegister.int1Control, int1Value, "routing data ready to the \(variant.name) INT1 pin")
    }

    /// The first half of an in-place rate change (no SW_RESET, which clears every register):
    /// takes the new rate, writes CTRL1 and CTRL2 with the same full scales and INT1_CTRL as
    /// asked. Returns what is being done, for the errors of the FIFO half that follows.
    func changeRate(hertz: Int, dataReadyInterrupt: Bool) throws(ChipError) -> String {
        let changed = LSM6DSXSettings(map: variant.map, rateHertz: hertz)
        let what = "changing the \(variant.name) output data rate to \(Double(LSM6DSXTable.rates(variant.map)[Int(changed.rateField)]) / 1000) Hz"
        rateHertz = hertz
        settings = changed
        self.dataReadyInterrupt = dataReadyInterrupt
        try access.write(LSM6DSXRegister.control1Accelerometer, settings.control1, what)
        try access.write(LSM6DSXRegister.control2Gyroscope, settings.control2, what)
        try access.write(LSM6DSXRegister.int1Control, int1Value, what)
        return what
    }
}
