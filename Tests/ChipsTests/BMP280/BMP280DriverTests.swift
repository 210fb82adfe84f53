import Chips
import FixedPoint
import SensorBus
import Testing

@Suite struct BMP280DriverTests {
    @Test func readsTheEnvironmentWithinOneADCStep() throws {
        let emulator = BMP280Emulator()
        let driver = try BMP280Driver(bus: emulator)
        #expect(driver.variant.name == "BMP280")
        #expect(driver.calibration == .datasheetExample)
        #expect(try driver.read() == nil)  // no measurement has completed yet
        // Set a physical value, read it back: one adc_P step is ≈ 0.17 Pa at this calibration,
        // one adc_T step ≈ 0.005 °C; the result is rounded to 0.01 °C.
        for (step, (pascals, celsius)) in [(101_325.0, 22.5), (95_000.0, -10.0), (105_000.0, 40.25)].enumerated() {
            emulator.pressurePascals = pascals
            emulator.temperatureCelsius = celsius
            emulator.advance(to: Int64(step + 1) * 1_000_000_000)  // 1 s apart: a measurement completes
            let reading = try #require(try driver.read())
            #expect(abs(reading.pressure.doubleValue - pascals) < 0.2, "\(reading.pressure.doubleValue) Pa")
            #expect(abs(reading.temperature.doubleValue - celsius) < 0.011, "\(reading.temperature.doubleValue) °C")
        }
    }

    @Test func configurationReachesTheChip() throws {
        let emulator = BMP280Emulator()
        var configuration = BMP280Driver<BMP280Emulator>.Configuration()
        configuration.pressureOversampling = 3
        configuration.standby = 5
        _ = try BMP280Driver(bus: emulator, configuration: configuration)
        #expect(try emulator.readRegister(address: 0x76, register: 0xF4) == 0b010_011_11)  // ×2, ×4, normal
        #expect(try emulator.readRegister(address: 0x76, register: 0xF5) == 0b101_010_00)  // 1 s, filter 4
    }

    @Test func acceptsBME280AndRejectsOtherChips() throws {
        #expect(try BMP280Driver(bus: BMP280Emulator(chipID: 0x60)).variant.name == "BME280")
        let error = #expect(throws: ChipError.self) { _ = try BMP280Driver(bus: BMP280Emulator(chipID: 0x55)) }
        #expect(error?.description.contains("is not a BMP280/BME280: its identity register 0xD0 reads 0x55, expected 0x58 or 0x57 or 0x56 or 0x60") == true)
    }

    @Test func noChipAtTheAddressIsANACK() {
        let error = #expect(throws: ChipError.self) { _ = try BMP280Driver(bus: BMP280Emulator(address: 0x77), address: 0x76) }
        guard case .bus(let busError) = error else { Issue.record("expected a bus error, got \(String(describing: error))"); return }
        #expect(busError.kind == .noAcknowledge)
        #expect(busError.description.contains("reading the BMP280 identity register (0xD0)"))
    }

    @Test func aChipResetMidStreamIsRecoveredWithoutLosingTheStream() throws {
        let emulator = BMP280Emulator()
        let driver = try BMP280Driver(bus: emulator)
        emulator.advance(to: 100_000_000)
        #expect(try driver.read() != nil)
        emulator.powerOnReset()  // brown-out: sleep mode, configuration lost
        #expect(try driver.read() == nil)  // detected and re-initialised, no stale value returned
        #expect(driver.recoveries == 1)
        emulator.pressurePascals = 99_000
        emulator.advance(to: 200_000_000)
        let reading = try #require(try driver.read())
        #expect(abs(reading.pressure.doubleValue - 99_000) < 0.2)
        #expect(driver.recoveries == 1)
    }

    @Test func aTransientBusErrorIsReportedAndTheNextReadWorks() throws {
        let emulator = BMP280Emulator()
        let driver = try BMP280Driver(bus: emulator)
        emulator.advance(to: 100_000_000)
        emulator.inject(.inputOutputError(register: 0xF7), count: 1)
        let error = #expect(throws: ChipError.self) { _ = try driver.read() }
        #expect(error?.description.contains("Could not complete reading the BMP280 measurement on emulated I2C bus at address 0x76") == true)
        #expect(try driver.read() != nil)
    }

    @Test func anEIOOnlyOnTheCalibrationFailsTheProbeNamingIt() {
        let emulator = BMP280Emulator()
        emulator.inject(.inputOutputError(register: 0x90))
        let error = #expect(throws: ChipError.self) { _ = try BMP280Driver(bus: emulator) }
        #expect(error?.description.contains("reading the BMP280 calibration (0x88…0x9F)") == true)
    }

    @Test func junkCalibrationIsRefused() {
        let emulator = BMP280Emulator(calibration: [UInt8](repeating: 0xFF, count: 24).withUnsafeBytes { BMP280Calibration(bytes: $0) })
        let error = #expect(throws: ChipError.self) { _ = try BMP280Driver(bus: emulator) }
        #expect(error == .invalidCalibration(chip: "BMP280", bus: "emulated I2C bus", address: 0x76))
    }

    @Test func stuckOutputKeepsReturningTheLastMeasurement() throws {
        let emulator = BMP280Emulator()
        let driver = try BMP280Driver(bus: emulator)
        emulator.advance(to: 100_000_000)
        let first = try #require(try driver.read())
        emulator.stuckOutput = true
        emulator.pressurePascals = 90_000
        emulator.advance(to: 300_000_000)
        // The chip repeats itself; the driver cannot tell from one read (a stream-level stall
        // detector belongs in the engine: noted in the issue).
        #expect(try driver.read() == first)
    }
}
