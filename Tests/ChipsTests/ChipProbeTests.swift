import Chips
import SensorBus
import Testing

@Suite struct ChipProbeTests {
    @Test func findsEveryEmulatedChipOnASharedBus() throws {
        let bus = EmulatedI2CBus()
        bus.attach(MPU6050Emulator(address: 0x69, whoAmI: 0x71), at: 0x69)
        bus.attach(BMP280Emulator(address: 0x76, chipID: 0x60), at: 0x76)
        let hat = LSM9DS1Emulator()
        bus.attach(hat, at: 0x6A)
        bus.attach(hat, at: 0x1C)
        bus.attach(LPS25HEmulator(), at: 0x5C)
        bus.attach(LSM6DSXEmulator(address: 0x6B, whoAmI: 0x6B), at: 0x6B)
        let findings = try ChipProbe.probe(bus)
        #expect(findings == [
            .init(address: 0x1C, outcome: .identified(driver: "lsm9ds1-magnetometer", chip: "LSM9DS1 magnetometer or LIS3MDL")),
            .init(address: 0x5C, outcome: .identified(driver: "lps25h", chip: "LPS25H")),
            .init(address: 0x69, outcome: .identified(driver: "mpu6050", chip: "MPU-9250")),
            .init(address: 0x6A, outcome: .identified(driver: "lsm9ds1", chip: "LSM9DS1 accelerometer/gyroscope")),
            .init(address: 0x6B, outcome: .identified(driver: "lsm6dsx", chip: "ISM330DHCX")),
            .init(address: 0x76, outcome: .identified(driver: "bmp280", chip: "BME280")),
        ])
    }

    @Test func anEmptyBusFindsNothingAndABrokenBusSaysSo() throws {
        #expect(try ChipProbe.probe(EmulatedI2CBus()).isEmpty)
        let bus = EmulatedI2CBus()
        let emulator = BMP280Emulator()
        emulator.inject(.inputOutputError(register: nil))
        bus.attach(emulator, at: 0x76)
        #expect(throws: BusError.self) { try ChipProbe.probe(bus) }
    }
}
