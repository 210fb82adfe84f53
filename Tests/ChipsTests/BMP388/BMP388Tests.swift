import Chips
import FixedPoint
import SensorBus
import Testing

/// The datasheet's floating-point compensation (BST-BMP388-DS001 §9.1 coefficients, §9.2
/// temperature, §9.3 pressure), written out as printed, in Double: °C and Pa.
func bmp388Datasheet(adcTemperature: Double, adcPressure: Double, _ c: BMP388Calibration) -> (celsius: Double, pascals: Double) {
    func p2(_ n: Double) -> Double { (0..<Int(abs(n))).reduce(1.0) { r, _ in n < 0 ? r / 2 : r * 2 } }
    let parT1 = Double(c.t1) / p2(-8), parT2 = Double(c.t2) / p2(30), parT3 = Double(c.t3) / p2(48)
    let parP1 = (Double(c.p1) - p2(14)) / p2(20), parP2 = (Double(c.p2) - p2(14)) / p2(29)
    let parP3 = Double(c.p3) / p2(32), parP4 = Double(c.p4) / p2(37), parP5 = Double(c.p5) / p2(-3)
    let parP6 = Double(c.p6) / p2(6), parP7 = Double(c.p7) / p2(8), parP8 = Double(c.p8) / p2(15)
    let parP9 = Double(c.p9) / p2(48), parP10 = Double(c.p10) / p2(48), parP11 = Double(c.p11) / p2(65)
    let partial1 = adcTemperature - parT1
    let tLin = partial1 * parT2 + partial1 * partial1 * parT3
    let out1 = parP5 + parP6 * tLin + parP7 * tLin * tLin + parP8 * tLin * tLin * tLin
    let out2 = adcPressure * (parP1 + parP2 * tLin + parP3 * tLin * tLin + parP4 * tLin * tLin * tLin)
    let data4 = adcPressure * adcPressure * (parP9 + parP10 * tLin) + adcPressure * adcPressure * adcPressure * parP11
    return (tLin, out1 + out2 + data4)
}

@Suite struct BMP388ConversionTests {
    /// Golden numbers of the example trimming, computed with the datasheet's float formulas
    /// (above, and independently in Python): uncomp_temp 8 500 000, uncomp_press 6 200 000 →
    /// 24.834360 °C, 101 375.6753 Pa. Ours: t_lin 1 627 545 / 65536 = 24.834366 °C (within
    /// half a Q16 step) and 25 952 173 / 256 = 101 375.676 Pa (within half a Q24.8 step).
    @Test func theDatasheetsFloatFormulasAtAKnownTrimming() {
        let c = BMP388Calibration.example
        let linear = BMP388Conversion.linearTemperature(adcTemperature: 8_500_000, c)
        #expect(linear == 1_627_545)
        let pressure = BMP388Conversion.pressure(adcPressure: 6_200_000, linearTemperature: linear, c)
        #expect(pressure.rawValue == 25_952_173)
        let float = bmp388Datasheet(adcTemperature: 8_500_000, adcPressure: 6_200_000, c)
        #expect(abs(float.celsius - 24.834360489770916) < 1e-9 && abs(float.pascals - 101_375.67530203672) < 1e-6)
        #expect(abs(Double(linear) / 65536 - float.celsius) <= 0.5 / 65536)
        #expect(abs(pressure.doubleValue - float.pascals) <= 0.5 / 256 + 1e-3)
        #expect(BMP388Conversion.temperature(linearTemperature: linear) == Q16_16(rawValue: 1_627_545))
    }

    /// Across the range a chip meets (−40…85 °C, 30…125 kPa, every ADC value on a grid) the
    /// fixed point stays within 0.01 Pa and 2⁻¹⁶ °C of the float formulas.
    @Test func agreesWithTheFloatFormulasEverywhere() {
        let c = BMP388Calibration.example
        var worstPascals = 0.0, worstCelsius = 0.0
        for adcTemperature in stride(from: UInt32(5_000_000), through: 12_000_000, by: 250_000) {
            let linear = BMP388Conversion.linearTemperature(adcTemperature: adcTemperature, c)
            for adcPressure in stride(from: UInt32(3_000_000), through: 11_000_000, by: 400_000) {
                let float = bmp388Datasheet(adcTemperature: Double(adcTemperature), adcPressure: Double(adcPressure), c)
                let pressure = BMP388Conversion.pressure(adcPressure: adcPressure, linearTemperature: linear, c)
                guard float.pascals > 30_000, float.pascals < 125_000, float.celsius > -40, float.celsius < 85 else { continue }
                worstPascals = max(worstPascals, abs(pressure.doubleValue - float.pascals))
                worstCelsius = max(worstCelsius, abs(Double(linear) / 65536 - float.celsius))
            }
        }
        #expect(worstPascals < 0.01, "\(worstPascals) Pa")
        #expect(worstCelsius <= 1.0 / 65536, "\(worstCelsius) °C")
    }

    /// Table 22's layout: T1, T2 unsigned LE at 0x31…0x34, T3 at 0x35, P1 at 0x36/0x37, …, P11 at 0x45.
    @Test func calibrationBytesAreTheNVMLayout() {
        let bytes = BMP388Calibration.example.bytes
        #expect(bytes.count == 21)
        #expect(Array(bytes[0..<7]) == [0x7C, 0x6C, 0x10, 0x4B, 0xF9, 0x80, 0xF8])  // T1 27772, T2 19216, T3 −7, P1 −1920
        #expect(bytes[20] == 0xC4)  // P11 −60
        #expect(bytes.withUnsafeBytes { BMP388Calibration(bytes: $0) } == .example)
        #expect(BMP388Conversion.twentyFourBit(0xC0, 0x9A, 0x5E) == 6_200_000)
    }

    @Test func junkNeverTraps() {
        let ones = [UInt8](repeating: 0xFF, count: 21).withUnsafeBytes { BMP388Calibration(bytes: $0) }
        let zeros = [UInt8](repeating: 0, count: 21).withUnsafeBytes { BMP388Calibration(bytes: $0) }
        for adc: UInt32 in [0, 1, 0x80_0000, 0xFF_FFFF, 0xFFFF_FFFF] {
            for c in [ones, zeros] {
                _ = BMP388Conversion.pressure(adcPressure: adc, linearTemperature: BMP388Conversion.linearTemperature(adcTemperature: adc, c), c)
            }
        }
    }

    /// The conversion time (§3.9.2) and ODR periods the driver's timing rests on.
    @Test func timing() {
        #expect(BMP388Register.measurementMicroseconds(oversampling: BMP388Register.driverOversampling) == 18_969)
        #expect(BMP388Register.periodNanoseconds(outputDataRate: 0) == 5_000_000)  // 200 Hz
        #expect(BMP388Register.periodNanoseconds(outputDataRate: 3) == 40_000_000)  // 25 Hz
    }
}

@Suite struct BMP388DriverTests {
    @Test func readsTheEnvironmentWithinOneADCStep() throws {
        let emulator = BMP388Emulator()
        let driver = try BMP388Driver(bus: emulator)
        #expect(driver.variant.name == "BMP388" && driver.calibration == .example)
        #expect(try emulator.readRegister(address: 0x76, register: 0x1B) == 0x33)  // press_en, temp_en, normal
        #expect(try emulator.readRegister(address: 0x76, register: 0x1C) == 0x03)  // ×8 pressure, ×1 temperature
        #expect(try emulator.readRegister(address: 0x76, register: 0x1D) == 0x03)  // 25 Hz
        #expect(try driver.read() == nil)  // no measurement yet
        // One uncomp_press step is ≈ 0.018 Pa at this trimming, one uncomp_temp step ≈ 18 µ°C.
        for (step, (pascals, celsius)) in [(101_325.0, 22.5), (95_000.0, -10.0), (105_000.0, 40.25)].enumerated() {
            emulator.pressurePascals = pascals
            emulator.temperatureCelsius = celsius
            emulator.advance(to: Int64(step + 1) * 1_000_000_000)
            let reading = try #require(try driver.read())
            #expect(abs(reading.pressure.doubleValue - pascals) < 0.03, "\(reading.pressure.doubleValue) Pa")
            #expect(abs(reading.temperature.doubleValue - celsius) < 0.001, "\(reading.temperature.doubleValue) °C")
            #expect(try driver.read() == nil)  // data ready cleared by the read: nothing new
        }
        #expect(try BMP388Driver(bus: BMP388Emulator(chipID: 0x60)).variant.name == "BMP390")
    }

    @Test func oneMeasurementPerODRPeriod() throws {
        let emulator = BMP388Emulator()
        let driver = try BMP388Driver(bus: emulator)
        #expect(driver.outputPeriodNanoseconds == 40_000_000 && driver.measurementPeriodNanoseconds == 20_000_000)
        #expect(driver.readsPerMeasurement == 2)
        var count = 0
        for millisecond in stride(from: Int64(0), through: 1000, by: 5) {
            emulator.advance(to: millisecond * 1_000_000)
            if try driver.read() != nil { count += 1 }
        }
        #expect(count == 25)  // the first after the 19 ms conversion, then every 40 ms
    }

    @Test func aBMP280IsNotTakenForABMP388NorTheOtherWay() {
        let notBMP3 = #expect(throws: ChipError.self) { _ = try BMP388Driver(bus: BMP280Emulator()) }
        #expect(notBMP3?.description.hasPrefix("The chip at 0x76 on emulated I2C bus is not a BMP388/BMP390: its identity register 0x00 reads 0x00, expected 0x50 or 0x60.") == true)
        let notBMP2 = #expect(throws: ChipError.self) { _ = try BMP280Driver(bus: BMP388Emulator(chipID: 0x60)) }
        #expect(notBMP2?.description.contains("is not a BMP280/BME280: its identity register 0xD0 reads 0x00") == true)
    }

    @Test func aResetMidStreamIsNoticedByPORAndRecovered() throws {
        let emulator = BMP388Emulator()
        let driver = try BMP388Driver(bus: emulator)
        emulator.advance(to: 100_000_000)
        #expect(try driver.read() != nil)
        emulator.powerOnReset()  // brown-out: sleep, settings lost, por_detected
        emulator.advance(to: 140_000_000)
        #expect(try driver.read() == nil && driver.recoveries == 1)
        #expect(try emulator.readRegister(address: 0x76, register: 0x1B) == 0x33)  // normal mode again
        emulator.pressurePascals = 99_000
        emulator.advance(to: 200_000_000)
        let reading = try #require(try driver.read())
        #expect(abs(reading.pressure.doubleValue - 99_000) < 0.03 && driver.recoveries == 1)
    }

    @Test func faultsNameTheBusTheAddressAndWhatToDo() throws {
        let emulator = BMP388Emulator(address: 0x77)
        let driver = try BMP388Driver(bus: emulator, address: 0x77)
        emulator.advance(to: 100_000_000)
        emulator.inject(.inputOutputError(register: 0x05), count: 1)
        let failed = #expect(throws: ChipError.self) { _ = try driver.read() }
        #expect(failed?.description.contains("Could not complete reading the BMP388 measurement (0x03…0x10) on emulated I2C bus at address 0x77") == true)
        #expect(try driver.read() != nil)  // the transient error did not consume the result
        let calibration = BMP388Emulator()
        calibration.inject(.inputOutputError(register: 0x40))
        let trimming = #expect(throws: ChipError.self) { _ = try BMP388Driver(bus: calibration) }
        #expect(trimming?.description.contains("reading the BMP388 calibration (0x31…0x45)") == true)
        emulator.inject(.noAcknowledge)
        let gone = #expect(throws: ChipError.self) { _ = try BMP388Driver(bus: emulator, address: 0x77) }
        guard case .bus(let busError) = gone else { Issue.record("expected a bus error, got \(String(describing: gone))"); return }
        #expect(busError.kind == .noAcknowledge && busError.description.contains("reading the BMP388 identity register (0x00)"))
    }

    @Test func junkCalibrationIsRefused() {
        let emulator = BMP388Emulator(calibration: [UInt8](repeating: 0xFF, count: 21).withUnsafeBytes { BMP388Calibration(bytes: $0) })
        let error = #expect(throws: ChipError.self) { _ = try BMP388Driver(bus: emulator) }
        #expect(error == .invalidCalibration(chip: "BMP388", bus: "emulated I2C bus", address: 0x76))
    }

    @Test func stuckDataReadyIsSilenceAndStuckOutputRepeats() throws {
        let emulator = BMP388Emulator()
        let driver = try BMP388Driver(bus: emulator)
        emulator.advance(to: 100_000_000)
        let first = try #require(try driver.read())
        emulator.dataReadyStuckLow = true
        emulator.pressurePascals = 90_000
        for time in stride(from: Int64(140_000_000), through: 1_000_000_000, by: 40_000_000) {
            emulator.advance(to: time)
            #expect(try driver.read() == nil)  // no stale value passed off as new
        }
        emulator.dataReadyStuckLow = false
        emulator.stuckOutput = true
        emulator.advance(to: 1_100_000_000)
        #expect(try driver.read() == first)  // data ready without new data: the chip repeats itself
    }

    /// A soft reset that never finishes (cmd_rdy stuck low) is reported, not waited on forever.
    @Test func aResetThatNeverEndsIsReported() {
        let emulator = StuckCommandDecoder()
        let error = #expect(throws: ChipError.self) { _ = try BMP388Driver(bus: emulator) }
        #expect(error?.description.contains("did not finish its soft reset (STATUS cmd_rdy) in time. Power-cycle the sensor") == true)
    }
}

/// A BMP388 whose STATUS reads 0 forever after the soft reset.
private final class StuckCommandDecoder: I2CBus {
    let name = "emulated I2C bus"
    let chip = BMP388Emulator()
    func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        try chip.readRegisters(address: address, register: register, into: buffer)
        if register == 0x03 { buffer[0] = 0 }
    }
    func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        try chip.writeRegisters(address: address, register: register, values: values)
    }
}

@Suite struct BMP388RegisterImageTests {
    /// The register image tools/kernel-level/init.sh preloads for the kernel's bmp380 driver:
    /// CHIP_ID 0x50, STATUS cmd_rdy + drdy (0x70; the 6.1 driver refuses a command while cmd_rdy
    /// is low), the example trimming at 0x31, uncomp_press 6 200 000 and uncomp_temp 8 500 000
    /// at 0x04. Our driver reads the datasheet's 24.834 °C and 101 375.68 Pa from it.
    @Test func theKernelLevelImageReadsAsTheDatasheetSays() throws {
        let image = RegisterImage(address: 0x76, [0x00: [0x50], 0x03: [0x70, 0xC0, 0x9A, 0x5E, 0x20, 0xB3, 0x81], 0x31: BMP388Calibration.example.bytes])
        let driver = try BMP388Driver(bus: image)
        #expect(image.registers[0x1B] == 0x33 && image.registers[0x7E] == 0xB6)
        let reading = try #require(try driver.read())
        let expected = bmp388Datasheet(adcTemperature: 8_500_000, adcPressure: 6_200_000, .example)
        #expect(abs(reading.temperature.doubleValue - expected.celsius) < 1e-4)
        #expect(abs(reading.pressure.doubleValue - expected.pascals) < 0.005)
    }
}
