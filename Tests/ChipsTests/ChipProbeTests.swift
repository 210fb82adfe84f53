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

/// GY-271 boards are sold as "HMC5883L" but mostly carry QST's QMC5883L: the probe names each
/// by its registers (QMC: 0x0D reads 0xFF at address 0x0D; HMC: 'H43' at 0x0A…0x0C, address 0x1E).
@Suite struct MagnetometerProbeTests {
    @Test func aBusWithBothNamesEach() throws {
        let bus = EmulatedI2CBus()
        bus.attach(MPU6050Emulator(), at: 0x68)
        bus.attach(QMC5883LEmulator(), at: 0x0D)
        bus.attach(HMC5883LEmulator(), at: 0x1E)
        let sense = LSM9DS1Emulator()  // an LIS3MDL-like magnetometer at 0x1C beside the HMC's 0x1E
        bus.attach(sense, at: 0x1C)
        #expect(try ChipProbe.probe(bus) == [
            .init(address: 0x0D, outcome: .identified(driver: "qmc5883l", chip: "QMC5883L (GY-271; often sold as HMC5883L)")),
            .init(address: 0x1C, outcome: .identified(driver: "lsm9ds1-magnetometer", chip: "LSM9DS1 magnetometer or LIS3MDL")),
            .init(address: 0x1E, outcome: .identified(driver: "hmc5883l", chip: "HMC5883L (Honeywell)")),
            .init(address: 0x68, outcome: .identified(driver: "mpu6050", chip: "MPU-6050")),
        ])
    }

    @Test func aQMC5883LSoldAsHMC5883LIsCalledQMC() throws {
        let bus = EmulatedI2CBus()
        bus.attach(QMC5883LEmulator(), at: 0x0D)
        let findings = try ChipProbe.probe(bus)
        #expect(findings == [.init(address: 0x0D, outcome: .identified(driver: "qmc5883l", chip: "QMC5883L (GY-271; often sold as HMC5883L)"))])
        #expect(!findings.contains { $0.outcome == .identified(driver: "hmc5883l", chip: "HMC5883L (Honeywell)") })
    }

    @Test func anHMCThatNACKsIsSkippedAndABrokenTransferThrows() throws {
        let bus = EmulatedI2CBus()
        let hmc = HMC5883LEmulator()
        hmc.inject(.noAcknowledge)
        bus.attach(hmc, at: 0x1E)
        #expect(try ChipProbe.probe(bus).isEmpty)
        hmc.inject(.inputOutputError(register: 0x0A))  // a broken transfer is an error, not an empty bus
        #expect(throws: BusError.self) { try ChipProbe.probe(bus) }
    }
}
