public import SensorBus

/// An MS5837-30BA or -02BA at command level, per its datasheet, on an emulated I2C bus: the
/// PROM with its CRC-4, conversions that take the datasheet's longest conversion time at their
/// oversampling, ADC Read returning 0 when no conversion has completed since the last read (or
/// when read during a conversion, which then ends with a wrong result), reset, and faults.
/// The environment (pressure, temperature) becomes the D1 and D2 a real chip with this
/// calibration would convert, by inverting the datasheet's second-order compensation.
public final class MS5837Emulator: I2CBus {
    public let name = "emulated I2C bus"
    public let address: UInt8
    public let variant: MS5837Variant
    /// The PROM (fault injection: change a word without fixing the CRC).
    public var calibration: MS5837Calibration
    /// What the chip feels: pressure in Pa, temperature in °C.
    public var pressurePascals: Double = 101_325
    public var temperatureCelsius: Double = 20
    /// When true conversions keep their last results (a hung sensing element).
    public var stuckOutput = false
    public private(set) var faults = EmulatedBusFaults()
    /// Commands the datasheet forbids that the driver sent: ADC Read during a conversion, a
    /// conversion started during another. A correct driver leaves this at 0.
    public private(set) var protocolViolations = 0
    /// Reset commands received (a brown-out, `powerOnReset()`, is not one).
    public private(set) var resetCommands = 0

    private var nanoseconds: Int64 = 0
    private struct Conversion {
        var isPressure: Bool
        var endsNanoseconds: Int64
        var spoiled: Bool
    }
    private var converting: Conversion?
    /// The completed result ADC Read clocks out next (nil: it reads 0).
    private var result: UInt32?
    private var lastResults = (pressure: UInt32(0), temperature: UInt32(0))

    public init(address: UInt8 = MS5837Command.address, variant: MS5837Variant = .bar30, calibration: MS5837Calibration? = nil) {
        self.address = address
        self.variant = variant
        self.calibration = calibration ?? (variant == .bar30 ? .example30BA : .example02BA)
    }

    public func inject(_ fault: BusFault, count: Int? = nil) { faults.inject(fault, count: count) }
    public func clearFault() { faults.clear() }

    /// A brown-out: any conversion and result are lost (the next ADC Read gives 0).
    public func powerOnReset() {
        converting = nil
        result = nil
    }

    /// Moves the chip's clock: a conversion due by `timeNanoseconds` completes then.
    public func advance(to timeNanoseconds: Int64) {
        nanoseconds = timeNanoseconds
        guard let conversion = converting, conversion.endsNanoseconds <= nanoseconds else { return }
        converting = nil
        if !stuckOutput {
            let (d1, d2) = Self.raw(pressure: pressurePascals, celsius: temperatureCelsius, variant, calibration)
            if conversion.isPressure { lastResults.pressure = d1 } else { lastResults.temperature = d2 }
        }
        let value = conversion.isPressure ? lastResults.pressure : lastResults.temperature
        // A conversion disturbed by an ADC Read or another command ends wrong ("Conversion
        // sequence"): modelled as the result with its low half scrambled.
        result = conversion.spoiled ? value ^ 0x00_5A5A : value
    }

    // MARK: I2CBus

    public func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        try transaction(address: address, register: register, length: buffer.count)
        for index in buffer.indices { buffer[index] = 0 }
        switch register {
        case MS5837Command.adcRead:
            advance(to: nanoseconds)
            if converting != nil {
                converting?.spoiled = true
                protocolViolations += 1
            }
            let value = result ?? 0
            result = nil  // a repeated read gives 0
            for index in 0..<min(3, buffer.count) { buffer[index] = UInt8(truncatingIfNeeded: value >> (16 - 8 * index)) }
        case MS5837Command.promRead...(MS5837Command.promRead + 2 * UInt8(MS5837Command.promWords - 1)) where register & 1 == 0:
            let word = calibration.words[Int(register - MS5837Command.promRead) / 2]
            if buffer.count > 0 { buffer[0] = UInt8(word >> 8) }
            if buffer.count > 1 { buffer[1] = UInt8(word & 0xFF) }
        default:
            break  // not a read command: the chip clocks out nothing meaningful (zeros here)
        }
    }

    public func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        try transaction(address: address, register: register, length: values.count)
        advance(to: nanoseconds)
        if register == MS5837Command.reset {
            resetCommands += 1
            powerOnReset()
        } else if let oversampling = MS5837Oversampling.of(command: register) {
            if converting != nil { protocolViolations += 1 }
            converting = Conversion(isPressure: register & 0x10 == 0,
                                    endsNanoseconds: nanoseconds + oversampling.maximumConversionMicroseconds * 1000,
                                    spoiled: converting != nil)
            result = nil
        }
    }

    private func transaction(address: UInt8, register: UInt8, length: Int) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: register, length: length)
    }

    // MARK: The environment as raw conversions

    /// The D1 and D2 whose second-order compensation gives `pressure` (Pa) and `celsius`
    /// (binary searches: TEMP grows with D2 over the chip's range, P with D1).
    static func raw(pressure: Double, celsius: Double, _ variant: MS5837Variant, _ prom: MS5837Calibration) -> (d1: UInt32, d2: UInt32) {
        // dT within ±3.5 M (beyond ±100 °C for real trimming) keeps TEMP − Ti monotonic.
        let reference = prom.c(5) << 8
        let lowest = UInt32(clamping: max(0, reference - 3_500_000)), highest = UInt32(clamping: min(0xFF_FFFF, reference + 3_500_000))
        let d2 = search(lowest, highest) { Double(MS5837Conversion.secondOrder(variant, d1: 0, d2: $0, prom).centidegrees) < celsius * 100 }
        let d1 = search(1, 0xFF_FFFF) { Double(MS5837Conversion.secondOrder(variant, d1: $0, d2: d2, prom).pascals) < pressure }
        return (d1, d2)
    }

    /// The smallest value in low…high for which `isBelow` is false.
    private static func search(_ low: UInt32, _ high: UInt32, isBelow: (UInt32) -> Bool) -> UInt32 {
        var (low, high) = (low, high)
        while low < high {
            let middle = low + (high - low) / 2
            if isBelow(middle) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension MS5837Emulator: EmulatedBarometer {}
