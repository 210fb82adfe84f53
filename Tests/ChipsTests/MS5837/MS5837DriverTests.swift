import Chips
import FixedPoint
import SensorBus
import Testing

@Suite struct MS5837DriverTests {
    /// Runs the emulator's clock one driver period at a time and reads, as the engine does;
    /// returns the first measurement.
    private func nextReading(_ driver: MS5837Driver<MS5837Emulator>, _ emulator: MS5837Emulator, _ clock: inout Int64) throws -> MS5837Driver<MS5837Emulator>.Reading {
        for _ in 0..<4 {
            clock += driver.measurementPeriodNanoseconds
            emulator.advance(to: clock)
            if let reading = try driver.read() { return reading }
        }
        throw ChipError.notReady(chip: "test", bus: "", address: 0, what: "a measurement in four periods")
    }

    @Test(arguments: MS5837Variant.allCases)
    func readsTheEnvironmentWithinOneStep(variant: MS5837Variant) throws {
        let emulator = MS5837Emulator(variant: variant)
        let driver = try MS5837Driver(bus: emulator, variant: variant)
        #expect(driver.calibration == (variant == .bar30 ? .example30BA : .example02BA))
        var clock: Int64 = 0
        let cases: [(Double, Double)] = variant == .bar30
            ? [(101_325, 20), (250_000, 8.5), (1_100_000, 4), (2_900_000, -10), (150_000, 30)]
            : [(101_325, 20), (115_000, 12), (95_000, 25.5), (120_000, -5)]
        for (pascals, celsius) in cases {
            emulator.pressurePascals = pascals
            emulator.temperatureCelsius = celsius
            _ = try nextReading(driver, emulator, &clock)  // the conversions in flight felt the last values
            let reading = try nextReading(driver, emulator, &clock)
            // One result step (10 Pa for the 30BA, 1 Pa for the 02BA) and 0.01 °C.
            #expect(abs(reading.pressure.doubleValue - pascals) <= Double(variant.pressureStepPascals), "\(reading.pressure.doubleValue) Pa")
            #expect(abs(reading.temperature.doubleValue - celsius) < 0.011, "\(reading.temperature.doubleValue) °C")
        }
        #expect(emulator.protocolViolations == 0)  // never read during a conversion
    }

    @Test func measuresEveryOtherPeriodAndNeverReadsTooEarly() throws {
        let emulator = MS5837Emulator()
        let driver = try MS5837Driver(bus: emulator, variant: .bar30)
        #expect(driver.measurementPeriodNanoseconds == 20_000_000)  // 18.08 ms at OSR 8192, + bus
        var clock: Int64 = 0
        var measured: [Bool] = []
        for _ in 0..<8 {
            clock += driver.measurementPeriodNanoseconds
            emulator.advance(to: clock)
            measured.append(try driver.read() != nil)
        }
        #expect(measured == [false, false, true, false, true, false, true, false])  // start D2; D2; D1; D2; D1…
        #expect(emulator.protocolViolations == 0)
        #expect(driver.recoveries == 0)
    }

    /// The PROM is read only after the reset's reload time, at start and after each recovery
    /// (a PROM read during the reload returns junk on a real chip).
    @Test func waitsForThePROMReloadAfterEveryReset() throws {
        let emulator = MS5837Emulator()
        final class Waits: @unchecked Sendable { var nanoseconds: [Int64] = []; var resetsSeen: [Int] = [] }
        let waits = Waits()
        let driver = try MS5837Driver(bus: emulator, variant: .bar30, wait: {
            waits.nanoseconds.append($0)
            waits.resetsSeen.append(emulator.resetCommands)
        })
        #expect(waits.nanoseconds == [10_000_000])
        #expect(waits.resetsSeen == [1])  // after the reset command, before the PROM reads
        var clock: Int64 = 0
        _ = try nextReading(driver, emulator, &clock)
        emulator.powerOnReset()
        clock += driver.measurementPeriodNanoseconds
        emulator.advance(to: clock)
        #expect(try driver.read() == nil)
        #expect(waits.nanoseconds == [10_000_000, 10_000_000])
        #expect(waits.resetsSeen == [1, 2])
    }

    @Test func anADCReadBeforeTheConversionEndsReadsZeroAndIsRecovered() throws {
        let emulator = MS5837Emulator()
        let driver = try MS5837Driver(bus: emulator, variant: .bar30)
        #expect(try driver.read() == nil)  // starts the first conversion
        emulator.advance(to: 5_000_000)  // 5 ms into an 18.08 ms conversion
        #expect(try driver.read() == nil)
        #expect(emulator.protocolViolations == 1)  // the read the datasheet forbids happened…
        #expect(driver.recoveries == 1)  // …read 0, and the driver started over
        var clock: Int64 = 5_000_000
        let reading = try nextReading(driver, emulator, &clock)
        #expect(abs(reading.pressure.doubleValue - 101_325) <= 10)
    }

    @Test func aChipResetMidStreamIsRecovered() throws {
        let emulator = MS5837Emulator()
        let driver = try MS5837Driver(bus: emulator, variant: .bar30)
        var clock: Int64 = 0
        _ = try nextReading(driver, emulator, &clock)
        emulator.powerOnReset()  // a brown-out: the conversion in flight is lost
        clock += driver.measurementPeriodNanoseconds
        emulator.advance(to: clock)
        #expect(try driver.read() == nil)
        #expect(driver.recoveries == 1)
        emulator.pressurePascals = 200_000
        _ = try nextReading(driver, emulator, &clock)
        #expect(abs(try nextReading(driver, emulator, &clock).pressure.doubleValue - 200_000) <= 10)
        #expect(driver.recoveries == 1)
    }

    @Test func aBadPROMCRCIsAClearError() {
        let emulator = MS5837Emulator()
        emulator.calibration.words[3] ^= 0x0040  // C3 corrupted, CRC left as it was
        let error = #expect(throws: ChipError.self) { _ = try MS5837Driver(bus: emulator, variant: .bar30) }
        let text = error?.description ?? ""
        #expect(text.contains("The MS5837-30BA at 0x76 on emulated I2C bus returned a factory calibration (PROM) whose CRC-4 does not match"))
        #expect(text.contains("stored 0x0"))
        #expect(text.contains("check wiring and pull-ups"))
        #expect(text.contains("replace the sensor"))
    }

    @Test func aBlankPROMIsJunkNotACRCMatch() {
        let emulator = MS5837Emulator(calibration: MS5837Calibration(words: Array(repeating: 0, count: 7)))
        let error = #expect(throws: ChipError.self) { _ = try MS5837Driver(bus: emulator, variant: .bar30) }
        #expect(error == .invalidCalibration(chip: "MS5837-30BA", bus: "emulated I2C bus", address: 0x76))
    }

    @Test func theWrongVariantInTheBoardFileIsNamed() {
        let error = #expect(throws: ChipError.self) { _ = try MS5837Driver(bus: MS5837Emulator(variant: .bar02), variant: .bar30) }
        #expect(error?.description.contains("is not a MS5837-30BA: its identity register 0xA0 reads 0x15, expected 0x1A") == true)
    }

    @Test func aMissingChipIsANACKNamingTheCommand() {
        let error = #expect(throws: ChipError.self) { _ = try MS5837Driver(bus: MS5837Emulator(address: 0x77), variant: .bar30) }
        guard case .bus(let busError) = error else { Issue.record("expected a bus error, got \(String(describing: error))"); return }
        #expect(busError.kind == .noAcknowledge)
        #expect(busError.description.contains("resetting the MS5837-30BA"))
    }

    @Test func aNACKMidStreamIsABusError() throws {
        let emulator = MS5837Emulator()
        let driver = try MS5837Driver(bus: emulator, variant: .bar30)
        #expect(try driver.read() == nil)  // starts the first conversion
        emulator.advance(to: 20_000_000)
        emulator.inject(.noAcknowledge, count: 1)
        let error = #expect(throws: ChipError.self) { _ = try driver.read() }
        guard case .bus(let busError) = error else { Issue.record("expected a bus error"); return }
        #expect(busError.description.contains("reading the MS5837-30BA ADC result"))
    }

    @Test func theProbeFindsItByItsPROM() throws {
        let bus = EmulatedI2CBus()
        bus.attach(MS5837Emulator(variant: .bar02), at: 0x76)
        #expect(try ChipProbe.probe(bus) == [ChipProbe.Finding(address: 0x76, outcome: .identified(driver: "ms5837-02ba", chip: "MS5837-02BA"))])
        let broken = EmulatedI2CBus()
        let emulator = MS5837Emulator()
        emulator.calibration.words[2] ^= 1
        broken.attach(emulator, at: 0x76)
        #expect(try ChipProbe.probe(broken).isEmpty)  // a PROM failing its CRC is not claimed
    }
}
