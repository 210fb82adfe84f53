public import SensorBus

/// A BMP280 at register level, per its datasheet, on an emulated I2C bus: reset values, the id
/// register, the factory calibration, soft reset with the NVM copy (`im_update`), normal mode
/// measuring at the configured standby time, burst reads that auto-increment, and faults.
/// The environment (pressure, temperature) is turned into the raw ADC counts a real chip with
/// this calibration would report, by inverting the datasheet's compensation.
public final class BMP280Emulator: I2CBus {

    public let name = "emulated I2C bus"
    public let address: UInt8
    public var calibration: BMP280Calibration { didSet { storeCalibration() } }
    /// The environment the chip measures: pressure in Pa, temperature in °C.
    public var pressurePascals: Double = 101_325
    public var temperatureCelsius: Double = 22.5
    /// Injected bus faults (see `inject`).
    public private(set) var faults = EmulatedBusFaults()
    /// When true the result registers stop updating (a hung measurement).
    public var stuckOutput = false
    /// Transactions seen, for tests.
    public private(set) var transactionCount = 0

    private var registers = [UInt8](repeating: 0, count: 256)
    private var nanoseconds: Int64 = 0
    private var nextMeasurementNanoseconds: Int64 = 0
    /// Status reads left before the NVM copy after a reset is done (im_update = 1 until then).
    private var imageUpdateReads = 0

    public init(address: UInt8 = 0x76, chipID: UInt8 = 0x58, calibration: BMP280Calibration = .datasheetExample) {
        self.address = address
        self.calibration = calibration
        registers[Int(BMP280Register.id)] = chipID
        storeCalibration()
        powerOnReset()
    }

    /// Injects `fault` for the next `count` transactions it touches (nil: until `clearFault()`).
    public func inject(_ fault: BusFault, count: Int? = nil) { faults.inject(fault, count: count) }

    public func clearFault() { faults.clear() }

    /// What a brown-out does: every control register back to its reset value, sleep mode, the
    /// results invalid (0x80000), the NVM copied again.
    public func powerOnReset() {
        for register in [BMP280Register.status, BMP280Register.controlMeasurement, BMP280Register.config] { registers[Int(register)] = 0 }
        storeResult(at: BMP280Register.pressureMSB, BMP280Register.skippedMeasurement)
        storeResult(at: BMP280Register.pressureMSB + 3, BMP280Register.skippedMeasurement)
        imageUpdateReads = 2
    }

    /// Moves the emulator's clock to `timeNanoseconds`; in normal mode each measurement that
    /// completes by then updates the result registers (the latest one wins, as on the chip).
    public func advance(to timeNanoseconds: Int64) {
        nanoseconds = timeNanoseconds
        let control = registers[Int(BMP280Register.controlMeasurement)]
        guard control & 0x03 == BMP280Register.modeNormal else { return }
        let temperatureOversampling = BMP280Table.oversampling[Int(control >> 5)]
        let pressureOversampling = BMP280Table.oversampling[Int(control >> 2 & 0x07)]
        let period = Int64(BMP280Table.measurementMicroseconds(temperatureOversampling: temperatureOversampling, pressureOversampling: pressureOversampling)
            + BMP280Table.standbyMicroseconds[Int(registers[Int(BMP280Register.config)] >> 5)]) * 1000
        guard nanoseconds >= nextMeasurementNanoseconds else { return }
        while nextMeasurementNanoseconds <= nanoseconds { nextMeasurementNanoseconds += period }  // fixed schedule
        if stuckOutput { return }
        let adcTemperature = temperatureOversampling == 0 ? BMP280Register.skippedMeasurement : Self.adcTemperature(for: temperatureCelsius, calibration)
        let fine = BMP280Conversion.fineTemperature(adcTemperature: adcTemperature, calibration)
        let adcPressure = pressureOversampling == 0 ? BMP280Register.skippedMeasurement : Self.adcPressure(for: pressurePascals, fineTemperature: fine, calibration)
        storeResult(at: BMP280Register.pressureMSB, adcPressure)
        storeResult(at: BMP280Register.pressureMSB + 3, adcTemperature)
    }

    // MARK: I2CBus

    public func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        try transaction(address: address, register: register, length: buffer.count)
        for offset in 0..<buffer.count {
            let index = Int(register &+ UInt8(truncatingIfNeeded: offset))
            if index == Int(BMP280Register.status) {
                // im_update stays set for a couple of reads after a reset (the ~2 ms NVM copy).
                if imageUpdateReads > 0 { imageUpdateReads -= 1; buffer[offset] = BMP280Register.statusImageUpdate; continue }
            }
            buffer[offset] = index == Int(BMP280Register.reset) ? 0 : registers[index]
        }
    }

    public func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        try transaction(address: address, register: register, length: values.count)
        for (offset, value) in values.enumerated() {
            let target = register &+ UInt8(truncatingIfNeeded: offset)
            switch target {
            case BMP280Register.reset where value == BMP280Register.resetCommand:
                powerOnReset()
            case BMP280Register.controlMeasurement:
                registers[Int(target)] = value
                nextMeasurementNanoseconds = nanoseconds  // a mode change starts a measurement
            case BMP280Register.config:
                registers[Int(target)] = value
            default:
                break  // read-only registers ignore writes, as on the chip
            }
        }
    }

    private func transaction(address: UInt8, register: UInt8, length: Int) throws(BusError) {
        transactionCount += 1
        try faults.check(bus: name, chipAddress: self.address, address: address, register: register, length: length)
    }

    // MARK: Register contents

    private func storeCalibration() {
        for (offset, byte) in calibration.bytes.enumerated() { registers[Int(BMP280Register.calibration) + offset] = byte }
    }

    private func storeResult(at register: UInt8, _ value: Int32) {
        registers[Int(register)] = UInt8(truncatingIfNeeded: value >> 12)
        registers[Int(register) + 1] = UInt8(truncatingIfNeeded: value >> 4)
        registers[Int(register) + 2] = UInt8(truncatingIfNeeded: value << 4)
    }

    /// The 20-bit adc_T whose compensated temperature is closest to `celsius` (the
    /// compensation increases with adc_T for a real chip's trimming: a binary search).
    static func adcTemperature(for celsius: Double, _ calibration: BMP280Calibration) -> Int32 {
        let target = celsius * 5120  // t_fine is 5120 × °C (§8.2: T = t_fine × 5 / 256 in 0.01 °C)
        var low: Int32 = 0, high: Int32 = (1 << 20) - 1
        while low < high {
            let middle = (low + high) / 2
            if Double(BMP280Conversion.fineTemperature(adcTemperature: middle, calibration)) < target { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The 20-bit adc_P whose compensated pressure is closest to `pascals` (the compensation
    /// decreases as adc_P grows).
    static func adcPressure(for pascals: Double, fineTemperature: Int32, _ calibration: BMP280Calibration) -> Int32 {
        let target = pascals * 256
        var low: Int32 = 0, high: Int32 = (1 << 20) - 1
        while low < high {
            let middle = (low + high) / 2
            let pressure = BMP280Conversion.pressure(adcPressure: middle, fineTemperature: fineTemperature, calibration)?.rawValue ?? 0
            if Double(pressure) > target { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
