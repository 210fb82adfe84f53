import Chips
import FixedPoint
import SensorBus
import Testing

@Suite struct LPS25HTests {
    @Test func conversionsFollowTheDatasheetFormulas() {
        // 4 128 768 counts (the kernel's in_pressure_raw on i2c-stub, hil-testing.md) /4096 = 1008 hPa.
        #expect(LPS25HConversion.pressureRaw(counts: 4_128_768) == Q24_8(100_800.0).rawValue)
        #expect(LPS25HConversion.temperatureRaw(counts: 0) == Q16_16(42.5).rawValue)
        #expect(LPS25HConversion.temperatureRaw(counts: -9600) == Q16_16(22.5).rawValue)  // 42.5 − 20
        #expect(LPS25HConversion.signed24(0x00, 0x00, 0x80) == -8_388_608)
        #expect(LPS25HConversion.signed24(0x00, 0xFC, 0x3E) == 4_127_744)
    }

    @Test func readsTheEnvironmentThroughAutoIncrementingBursts() throws {
        let emulator = LPS25HEmulator()
        let driver = try LPS25HDriver(bus: emulator)
        #expect(try driver.read() == nil)  // nothing measured yet
        emulator.pressurePascals = 98_765.4
        emulator.temperatureCelsius = 31.25
        emulator.advance(to: 50_000_000)
        let reading = try #require(try driver.read())
        // One count is 100/4096 Pa = 0.024 Pa; temperature 1/480 °C.
        #expect(abs(reading.pressure.doubleValue - 98_765.4) < 0.025)
        #expect(abs(reading.temperature.doubleValue - 31.25) < 0.0021)
    }

    @Test func aBurstWithoutTheAutoIncrementBitRereadsOneRegister() throws {
        // The datasheet's I2C rule, which the driver must respect: the emulator enforces it.
        let emulator = LPS25HEmulator()
        var bytes = [UInt8](repeating: 0, count: 2)
        try bytes.withUnsafeMutableBytes { try emulator.readRegisters(address: 0x5C, register: 0x0F, into: $0) }
        #expect(bytes == [0xBD, 0xBD])
        try bytes.withUnsafeMutableBytes { try emulator.readRegisters(address: 0x5C, register: 0x8F, into: $0) }
        #expect(bytes == [0xBD, 0x0F])  // WHO_AM_I then RES_CONF's reset value
    }

    @Test func resetMidStreamIsRecovered() throws {
        let emulator = LPS25HEmulator()
        let driver = try LPS25HDriver(bus: emulator)
        emulator.advance(to: 50_000_000)
        #expect(try driver.read() != nil)
        emulator.powerOnReset()
        #expect(try driver.read() == nil)
        #expect(driver.recoveries == 1)
        emulator.advance(to: 100_000_000)
        #expect(try driver.read() != nil)
    }

    @Test func faultsAndIdentity() throws {
        let absent = #expect(throws: ChipError.self) { _ = try LPS25HDriver(bus: LPS25HEmulator(address: 0x5D)) }
        #expect(absent?.description.contains("reading the LPS25H identity register (0x0F) on emulated I2C bus at address 0x5C") == true)
        let emulator = LPS25HEmulator()
        let driver = try LPS25HDriver(bus: emulator)
        emulator.advance(to: 50_000_000)
        emulator.inject(.inputOutputError(register: 0x28), count: 1)
        #expect(throws: ChipError.self) { _ = try driver.read() }
        #expect(try driver.read() != nil)
        let wrong = BMP280Emulator(address: 0x5C)  // another chip answering at the address
        let error = #expect(throws: ChipError.self) { _ = try LPS25HDriver(bus: wrong) }
        #expect(error?.description.contains("is not a LPS25H") == true)
    }
}
