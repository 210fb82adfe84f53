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

    /// 0x68/0x69 are shared by the MPU-6050/9250 (WHO_AM_I at 0x75), the BMI160 (CHIP_ID 0xD1 at
    /// 0x00) and the ICM-20948 (WHO_AM_I 0xEA at bank 0's 0x00): each is named by its own
    /// register, an MPU-9250 whose 0x00 (SELF_TEST_X_GYRO) happens to read 0xEA included.
    @Test func theICM20948IsToldFromTheMPUAndTheBMI160() throws {
        let bus = EmulatedI2CBus()
        let mpu = MPU6050Emulator(address: 0x68, whoAmI: 0x71)
        try mpu.writeRegister(address: 0x68, register: 0x00, value: 0xEA)  // a self-test trim that looks like an ICM's id
        bus.attach(mpu, at: 0x68)
        bus.attach(ICM20948Emulator(address: 0x69), at: 0x69)
        #expect(try ChipProbe.probe(bus) == [
            .init(address: 0x68, outcome: .identified(driver: "mpu6050", chip: "MPU-9250")),
            .init(address: 0x69, outcome: .identified(driver: "icm20948", chip: "ICM-20948 (with its AK09916 magnetometer)")),
        ])
        let swapped = EmulatedI2CBus()
        swapped.attach(ICM20948Emulator(address: 0x68), at: 0x68)
        swapped.attach(BMI160Emulator(address: 0x69), at: 0x69)
        #expect(try ChipProbe.probe(swapped) == [
            .init(address: 0x68, outcome: .identified(driver: "icm20948", chip: "ICM-20948 (with its AK09916 magnetometer)")),
            .init(address: 0x69, outcome: .identified(driver: "bmi160", chip: "BMI160")),
        ])
        // The probe configures nothing: the ICM-20948 stays asleep in bank 0.
        let icm = ICM20948Emulator()
        let alone = EmulatedI2CBus()
        alone.attach(icm, at: 0x68)
        #expect(try ChipProbe.probe(alone).count == 1 && icm.bankSelectWrites == 0 && icm.nextDataReadyNanoseconds == nil)
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

/// The BMP3 family shares 0x76/0x77 with the BMP280/BME280 and the MS5837, and the LIS2MDL
/// shares 0x1E with the HMC5883L and the LIS3MDL: each is named by its own identity register
/// (BMP388/BMP390 CHIP_ID 0x50/0x60 at 0x00, BMP280 0x58 / BME280 0x60 at 0xD0; LIS2MDL 0x40
/// at 0x4F; MMC5983MA 0x30 at 0x2F).
@Suite struct NewChipProbeTests {
    @Test func aBMP280AndABMP388SideBySideAreEachNamed() throws {
        let bus = EmulatedI2CBus()
        bus.attach(BMP280Emulator(address: 0x76, chipID: 0x60), at: 0x76)  // a BME280: 0x60 at 0xD0
        bus.attach(BMP388Emulator(address: 0x77, chipID: 0x60), at: 0x77)  // a BMP390: 0x60 at 0x00
        #expect(try ChipProbe.probe(bus) == [
            .init(address: 0x76, outcome: .identified(driver: "bmp280", chip: "BME280")),
            .init(address: 0x77, outcome: .identified(driver: "bmp388", chip: "BMP390")),
        ])
        let swapped = EmulatedI2CBus()
        swapped.attach(BMP388Emulator(address: 0x76), at: 0x76)
        swapped.attach(BMP280Emulator(address: 0x77), at: 0x77)
        #expect(try ChipProbe.probe(swapped) == [
            .init(address: 0x76, outcome: .identified(driver: "bmp388", chip: "BMP388")),
            .init(address: 0x77, outcome: .identified(driver: "bmp280", chip: "BMP280")),
        ])
    }

    @Test func anMS5837AtTheBMP388sAddressIsNotAskedForItsADC() throws {
        let bus = EmulatedI2CBus()
        let ms5837 = RecordingBus(MS5837Emulator(variant: .bar30))
        bus.attach(ms5837, at: 0x76)
        bus.attach(BMP388Emulator(address: 0x77), at: 0x77)
        #expect(try ChipProbe.probe(bus) == [
            .init(address: 0x76, outcome: .identified(driver: "ms5837-30ba", chip: "MS5837-30BA")),
            .init(address: 0x77, outcome: .identified(driver: "bmp388", chip: "BMP388")),
        ])
        #expect(!ms5837.registersRead.contains(0x00))  // the MS5837's ADC read: never sent by the probe
    }

    @Test func aMixedMagnetometerBusNamesEachChip() throws {
        let bus = EmulatedI2CBus()
        bus.attach(LIS2MDLEmulator(), at: 0x1E)
        bus.attach(MMC5983MAEmulator(), at: 0x30)
        bus.attach(QMC5883LEmulator(), at: 0x0D)
        bus.attach(LSM9DS1Emulator(isLIS3MDL: true), at: 0x1C)
        bus.attach(BMP388Emulator(), at: 0x76)
        #expect(try ChipProbe.probe(bus) == [
            .init(address: 0x0D, outcome: .identified(driver: "qmc5883l", chip: "QMC5883L (GY-271; often sold as HMC5883L)")),
            .init(address: 0x1C, outcome: .identified(driver: "lsm9ds1-magnetometer", chip: "LSM9DS1 magnetometer or LIS3MDL")),
            .init(address: 0x1E, outcome: .identified(driver: "lis2mdl", chip: "LIS2MDL (or LSM303AGR magnetometer)")),
            .init(address: 0x30, outcome: .identified(driver: "mmc5983ma", chip: "MMC5983MA")),
            .init(address: 0x76, outcome: .identified(driver: "bmp388", chip: "BMP388")),
        ])
        // An HMC5883L in the LIS2MDL's place is still the HMC5883L.
        let hmc = EmulatedI2CBus()
        hmc.attach(HMC5883LEmulator(), at: 0x1E)
        #expect(try ChipProbe.probe(hmc) == [.init(address: 0x1E, outcome: .identified(driver: "hmc5883l", chip: "HMC5883L (Honeywell)"))])
    }

    @Test func chipsThatNACKAreSkippedAndABrokenTransferThrows() throws {
        let bus = EmulatedI2CBus()
        let lis = LIS2MDLEmulator(), mmc = MMC5983MAEmulator(), bmp = BMP388Emulator()
        bus.attach(lis, at: 0x1E)
        bus.attach(mmc, at: 0x30)
        bus.attach(bmp, at: 0x76)
        lis.inject(.noAcknowledge)
        mmc.inject(.noAcknowledge)
        bmp.inject(.noAcknowledge)
        #expect(try ChipProbe.probe(bus).isEmpty)
        mmc.inject(.inputOutputError(register: 0x2F))  // a broken transfer mid-probe is an error, not an empty bus
        #expect(throws: BusError.self) { try ChipProbe.probe(bus) }
    }
}

/// The BNO055 at 0x28/0x29 (CHIP_ID 0xA0 at 0x00, BST-BNO055-DS000-14 §4.3.1).
@Suite struct BNO055ProbeTests {
    @Test func aBNO055At0x28IsNamedBesideTheOtherChipsAndOnlyItsChipIDIsRead() throws {
        let bus = EmulatedI2CBus()
        let bno = BNO055Emulator()
        let recorded = RecordingBus(bno)
        bus.attach(recorded, at: 0x28)
        bus.attach(MPU6050Emulator(), at: 0x68)
        bus.attach(ICM20948Emulator(address: 0x69), at: 0x69)
        bus.attach(LIS2MDLEmulator(), at: 0x1E)
        bus.attach(BMP280Emulator(address: 0x76, chipID: 0x58), at: 0x76)
        #expect(try ChipProbe.probe(bus) == [
            .init(address: 0x1E, outcome: .identified(driver: "lis2mdl", chip: "LIS2MDL (or LSM303AGR magnetometer)")),
            .init(address: 0x28, outcome: .identified(driver: "bno055", chip: "BNO055 (with its own fusion)")),
            .init(address: 0x68, outcome: .identified(driver: "mpu6050", chip: "MPU-6050")),
            .init(address: 0x69, outcome: .identified(driver: "icm20948", chip: "ICM-20948 (with its AK09916 magnetometer)")),
            .init(address: 0x76, outcome: .identified(driver: "bmp280", chip: "BMP280")),
        ])
        // Only CHIP_ID was read at 0x28 (no other family asks there), and nothing was written:
        // the chip is still in CONFIGMODE on page 0.
        #expect(recorded.registersRead == [0x00])
        #expect(try bno.readRegister(address: 0x28, register: 0x3D) == 0x00 && bno.page == 0 && bno.ignoredWrites == 0)
    }

    @Test func somethingElseAt0x28Or0x29IsNotTakenForABNO055() throws {
        // A stranger (a VL53L0X-like part reading 0xEE at 0x00, or a blank one) at the BNO055's
        // addresses is not named; a BNO055 at 0x29 beside it is.
        let bus = EmulatedI2CBus()
        bus.attach(RegisterImage(address: 0x28, [0x00: [0xEE], 0x0F: [0x3D], 0x75: [0x68]]), at: 0x28)
        bus.attach(BNO055Emulator(address: 0x29), at: 0x29)
        #expect(try ChipProbe.probe(bus) == [.init(address: 0x29, outcome: .identified(driver: "bno055", chip: "BNO055 (with its own fusion)"))])
        // A BNO055 left on page 1 reads a reserved 0 at 0x00: not named (the probe selects no page).
        let paged = BNO055Emulator()
        try paged.writeRegister(address: 0x28, register: 0x07, value: 1)
        let alone = EmulatedI2CBus()
        alone.attach(paged, at: 0x28)
        #expect(try ChipProbe.probe(alone).isEmpty && paged.page == 1)
    }
}

/// A bus that passes every transaction on and records which registers were read.
private final class RecordingBus: I2CBus {
    let inner: any I2CBus
    var name: String { inner.name }
    private(set) var registersRead: [UInt8] = []

    init(_ inner: any I2CBus) { self.inner = inner }

    func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        registersRead.append(register)
        try inner.readRegisters(address: address, register: register, into: buffer)
    }

    func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        try inner.writeRegisters(address: address, register: register, values: values)
    }
}
