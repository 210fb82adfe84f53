public import SensorBus

/// A BMP388 or BMP390 at register level (BST-BMP388-DS001 §4): CHIP_ID, the trimming NVM at
/// 0x31…0x45, soft reset through CMD with cmd_rdy low while it runs and por_detected set after
/// it, normal mode measuring every ODR period, drdy_press / drdy_temp cleared by reading their
/// DATA registers, 0x800000 results before the first measurement, and injected faults. Pressure
/// and temperature become the ADC counts a chip with this trimming would report, found by
/// inverting the datasheet's compensation (`BMP388Conversion`) with a binary search.
public final class BMP388Emulator: I2CBus {
    public let name = "emulated I2C bus"
    public let address: UInt8
    public var calibration: BMP388Calibration { didSet { storeCalibration() } }
    /// The environment the chip measures: pressure in Pa, temperature in °C.
    public var pressurePascals: Double = 101_325
    public var temperatureCelsius: Double = 22.5
    public private(set) var faults = EmulatedBusFaults()
    /// Fault injection: the DATA registers freeze while drdy goes on being set (a hung ADC).
    public var stuckOutput = false
    /// Fault injection: measurements stop and drdy_press / drdy_temp stay low (a stuck data
    /// ready, as a chip whose ODR is too fast for its oversampling does: conf_err, no data).
    public var dataReadyStuckLow = false
    public private(set) var transactionCount = 0

    private var registers = [UInt8](repeating: 0, count: 0x80)
    private var nanoseconds: Int64 = 0
    private var nextMeasurementNanoseconds: Int64 = 0
    /// STATUS reads left with cmd_rdy low after a soft reset (the ~2 ms it takes).
    private var commandBusyReads = 0

    public init(address: UInt8 = 0x76, chipID: UInt8 = 0x50, calibration: BMP388Calibration = .example) {
        self.address = address
        self.calibration = calibration
        registers[Int(BMP388Register.chipID)] = chipID
        storeCalibration()
        powerOnReset()
    }

    public func inject(_ fault: BusFault, count: Int? = nil) { faults.inject(fault, count: count) }

    public func clearFault() { faults.clear() }

    /// A brown-out or soft reset: sleep mode, settings at 0, results invalid (0x800000),
    /// por_detected set; the NVM (trimming, CHIP_ID) stays.
    public func powerOnReset() {
        for register in [BMP388Register.error, BMP388Register.powerControl, BMP388Register.oversampling,
                         BMP388Register.outputDataRate, BMP388Register.config] { registers[Int(register)] = 0 }
        registers[Int(BMP388Register.status)] = BMP388Register.statusCommandReady
        registers[Int(BMP388Register.event)] = BMP388Register.eventPowerOnReset
        store(BMP388Register.skippedMeasurement, at: BMP388Register.pressureXLSB)
        store(BMP388Register.skippedMeasurement, at: BMP388Register.temperatureXLSB)
    }

    /// Runs the clock to `timeNanoseconds`; in normal mode every ODR period ends a measurement
    /// (the latest wins, as on the chip).
    public func advance(to timeNanoseconds: Int64) {
        nanoseconds = timeNanoseconds
        let power = registers[Int(BMP388Register.powerControl)]
        guard power & 0x30 == 0x30, power & 0x03 == 0x03, !dataReadyStuckLow, nanoseconds >= nextMeasurementNanoseconds else { return }
        let period = BMP388Register.periodNanoseconds(outputDataRate: registers[Int(BMP388Register.outputDataRate)])
        while nextMeasurementNanoseconds <= nanoseconds { nextMeasurementNanoseconds += period }
        registers[Int(BMP388Register.status)] |= BMP388Register.statusPressureReady | BMP388Register.statusTemperatureReady
        if stuckOutput { return }
        let adcTemperature = Self.adcTemperature(for: temperatureCelsius, calibration)
        let linear = BMP388Conversion.linearTemperature(adcTemperature: adcTemperature, calibration)
        store(Self.adcPressure(for: pressurePascals, linearTemperature: linear, calibration), at: BMP388Register.pressureXLSB)
        store(adcTemperature, at: BMP388Register.temperatureXLSB)
    }

    // MARK: I2CBus

    public func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        try transaction(address: address, register: register, length: buffer.count)
        var clearPressure = false, clearTemperature = false, clearEvent = false
        for offset in 0..<buffer.count {
            let index = Int(register &+ UInt8(truncatingIfNeeded: offset))
            guard index < registers.count else { buffer[offset] = 0; continue }  // beyond the map (0xD0, where a BMP280 has its id): 0
            if index == Int(BMP388Register.status), commandBusyReads > 0 {
                commandBusyReads -= 1
                buffer[offset] = registers[index] & ~BMP388Register.statusCommandReady
                continue
            }
            buffer[offset] = registers[index]
            switch index {
            case 0x04...0x06: clearPressure = true
            case 0x07...0x09: clearTemperature = true
            case Int(BMP388Register.event): clearEvent = true
            default: break
            }
        }
        if clearPressure { registers[Int(BMP388Register.status)] &= ~BMP388Register.statusPressureReady }
        if clearTemperature { registers[Int(BMP388Register.status)] &= ~BMP388Register.statusTemperatureReady }
        if clearEvent { registers[Int(BMP388Register.event)] = 0 }
    }

    public func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        try transaction(address: address, register: register, length: values.count)
        for (offset, value) in values.enumerated() {
            let target = register &+ UInt8(truncatingIfNeeded: offset)
            switch target {
            case BMP388Register.command where value == BMP388Register.softReset:
                powerOnReset()
                commandBusyReads = 2
            case BMP388Register.powerControl:
                registers[Int(target)] = value & 0x33
                nextMeasurementNanoseconds = nanoseconds + BMP388Register.measurementMicroseconds(oversampling: registers[Int(BMP388Register.oversampling)]) * 1000
            case BMP388Register.oversampling, BMP388Register.outputDataRate, BMP388Register.config:
                registers[Int(target)] = value
            default:
                break  // read-only registers ignore writes
            }
        }
    }

    private func transaction(address: UInt8, register: UInt8, length: Int) throws(BusError) {
        transactionCount += 1
        try faults.check(bus: name, chipAddress: self.address, address: address, register: register, length: length)
    }

    // MARK: Register contents

    private func storeCalibration() {
        for (offset, byte) in calibration.bytes.enumerated() { registers[Int(BMP388Register.calibration) + offset] = byte }
    }

    private func store(_ value: UInt32, at register: UInt8) {
        registers[Int(register)] = UInt8(truncatingIfNeeded: value)
        registers[Int(register) + 1] = UInt8(truncatingIfNeeded: value >> 8)
        registers[Int(register) + 2] = UInt8(truncatingIfNeeded: value >> 16)
    }

    /// The 24-bit uncomp_temp whose t_lin is closest above `celsius` (t_lin grows with it for a
    /// real chip's trimming, T2 > 0).
    static func adcTemperature(for celsius: Double, _ calibration: BMP388Calibration) -> UInt32 {
        let target = celsius * 65536
        var low: UInt32 = 0, high: UInt32 = 0xFF_FFFF
        while low < high {
            let middle = (low + high) / 2
            if Double(BMP388Conversion.linearTemperature(adcTemperature: middle, calibration)) < target { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The 24-bit uncomp_press whose pressure is closest to `pascals`; the compensation falls
    /// as uncomp_press grows for a real chip's trimming (PAR_P1 < 0), else it rises: the search
    /// takes whichever way the ends say.
    static func adcPressure(for pascals: Double, linearTemperature: Int64, _ calibration: BMP388Calibration) -> UInt32 {
        func pressure(_ adc: UInt32) -> Double {
            Double(BMP388Conversion.pressure(adcPressure: adc, linearTemperature: linearTemperature, calibration).rawValue)
        }
        let target = pascals * 256
        let falling = pressure(0) > pressure(0xFF_FFFF)
        var low: UInt32 = 0, high: UInt32 = 0xFF_FFFF
        while low < high {
            let middle = (low + high) / 2
            if falling ? pressure(middle) > target : pressure(middle) < target { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
