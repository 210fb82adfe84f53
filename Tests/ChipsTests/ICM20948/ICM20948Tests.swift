import Chips
import FixedPoint
import MotionAlgorithms
import SensorBus
import Testing

@Suite struct ICM20948Tests {
    typealias Sample = (acceleration: SensorReading, angularVelocity: SensorReading, magneticField: SensorReading?)

    static func vector(_ reading: SensorReading?) -> Vector3? {
        switch reading?.value {
        case .acceleration(let v)?, .angularVelocity(let v)?, .magneticField(let v)?: return v
        default: return nil
        }
    }

    /// Reads `count` registers of `bank` the way a host would (REG_BANK_SEL, then the read),
    /// and puts the chip back in bank 0, where the driver left it.
    static func peek(_ bus: ICM20948Emulator, bank: UInt8, _ register: UInt8, count: Int = 1) throws -> [UInt8] {
        try bus.writeRegister(address: bus.address, register: 0x7F, value: bank << 4)
        defer { _ = try? bus.writeRegister(address: bus.address, register: 0x7F, value: 0) }
        return try (0..<count).map { try bus.readRegister(address: bus.address, register: register + UInt8($0)) }
    }

    /// An AK09916 register read the way the driver reads one: through slave 4.
    static func magnetometerRegister(_ bus: ICM20948Emulator, _ register: UInt8) throws -> UInt8 {
        let address = bus.address
        try bus.writeRegister(address: address, register: 0x7F, value: 0x30)
        try bus.writeRegister(address: address, register: 0x13, value: 0x8C)  // read from 0x0C
        try bus.writeRegister(address: address, register: 0x14, value: register)
        try bus.writeRegister(address: address, register: 0x15, value: 0x80)
        try bus.writeRegister(address: address, register: 0x7F, value: 0x00)
        var done = false
        for _ in 0..<3 where !done { done = try bus.readRegister(address: address, register: 0x17) & 0x40 != 0 }
        #expect(done)
        try bus.writeRegister(address: address, register: 0x7F, value: 0x30)
        defer { _ = try? bus.writeRegister(address: address, register: 0x7F, value: 0) }
        return try bus.readRegister(address: address, register: 0x17)
    }

    /// DS-000189 tables 1–4 and §8: the worked example of ICM20948Conversion.decode.
    @Test func decodesTheDatasheetsSensitivities() {
        let bytes: [UInt8] = [0x40, 0x00, 0xC0, 0x00, 0x00, 0x00,  // ±2 g: +16384, −16384, 0 = ±1 g
                              0x00, 0x83, 0xFF, 0x7D, 0x00, 0x00,  // ±250 °/s: +131, −131 = ±1 °/s
                              0x00, 0x00,                          // TEMP_OUT 0 = 21 °C
                              0x01, 0xE8, 0x03, 0x18, 0xFC, 0x00, 0x00, 0x00, 0x10]  // ST1 DRDY, (1000, −1000, 0), TMPS, ST2
        let sample = bytes.withUnsafeBytes {
            ICM20948Conversion.decode($0, accelerometerNanoUnitsPerLSB: ICM20948Table.accelerometerScales[0].nanoUnitsPerLSB,
                                      gyroscopeNanoUnitsPerLSB: ICM20948Table.gyroscopeScales[0].nanoUnitsPerLSB)
        }
        // 16384 × 598 550 nm/s² = 9.80664… m/s²; 131 × 133 231 nrad/s = 0.0174533 rad/s.
        #expect(abs(sample.acceleration.x.rawValue - Q16_16(9.80665).rawValue) <= 1 && sample.acceleration.y.rawValue == -sample.acceleration.x.rawValue)
        #expect(abs(sample.angularVelocity.x.rawValue - Q16_16(Double.pi / 180).rawValue) <= 1)
        #expect(sample.angularVelocity.y.rawValue == -sample.angularVelocity.x.rawValue && sample.angularVelocity.z.rawValue == 0)
        #expect(sample.temperature == Q16_16(21))
        #expect(sample.magnetometerReady && !sample.magnetometerOverflow)
        // 0.15 µT/LSB: (150, −150, 0) µT in the AK09916's axes, (150, 150, 0) in the package's.
        #expect(sample.magneticField.x == Q16_16(150) && sample.magneticField.y == Q16_16(150) && sample.magneticField.z == Q16_16(0))
        // °C = raw / 333.87 + 21: 3339 counts = 31.0009 °C, −7011 = 0.0008 °C.
        #expect(ICM20948Conversion.temperature(raw: 3339).rawValue == 2_031_675)
        #expect(ICM20948Conversion.temperature(raw: -7011).rawValue == 53)
        // Sensitivities per full scale (tables 1, 2): 16384/8192/4096/2048 LSB/g, 131/65.5/32.8/16.4 LSB/(°/s).
        for (scale, lsbPerG) in zip(ICM20948Table.accelerometerScales, [16384.0, 8192, 4096, 2048]) {
            #expect(abs(Double(scale.nanoUnitsPerLSB) - 9.80665e9 / lsbPerG) < 1)
        }
        for (scale, lsbPerDegree) in zip(ICM20948Table.gyroscopeScales, [131.0, 65.5, 32.8, 16.4]) {
            #expect(abs(Double(scale.nanoUnitsPerLSB) - .pi / 180 * 1e9 / lsbPerDegree) < 1)
        }
    }

    /// Rates: the gyroscope's 1.1 kHz / (1 + div), the accelerometer's 1.125 kHz / (1 + div);
    /// only dividers whose samples line up with the AK09916's 100 Hz.
    @Test func sampleRateDividers() {
        #expect(ICM20948Table.gyroscopeDivider(hertz: 100) == (10, 10_000_000))
        #expect(ICM20948Table.gyroscopeDivider(hertz: 1100) == (0, 909_091))
        #expect(ICM20948Table.gyroscopeDivider(hertz: 50).divider == 21)
        #expect(ICM20948Table.gyroscopeDivider(hertz: 400).divider == 0 && ICM20948Table.gyroscopeDivider(hertz: 200).divider == 10)
        #expect(ICM20948Table.magnetometerPeriod(divider: 0) == 10_000_001 && ICM20948Table.magnetometerPeriod(divider: 21) == 20_000_000)
        #expect(ICM20948Table.accelerometerDivider(hertz: 100) == 10)  // 102.3 Hz, the nearest
        #expect(ICM20948Table.accelerometerDivider(hertz: 1) == 1124)
    }

    @Test func configuresBanksScalesRatesAndTheMagnetometer() throws {
        let emulator = ICM20948Emulator(field: { _ in (15, -30, 45) })  // AK axes (15, 30, −45): (100, 200, −300) counts
        #expect(try Self.peek(emulator, bank: 0, 0x05, count: 2) == [0x40, 0x41])  // reset: master duty-cycled; asleep, CLKSEL auto
        var configuration = ICM20948Driver<ICM20948Emulator>.Configuration()
        configuration.accelerometerRange = 2 * 9.80665
        configuration.gyroscopeRange = 2000 * .pi / 180
        let redundantBefore = emulator.redundantBankSelects  // the peek's own
        let driver = try ICM20948Driver(bus: emulator, configuration: configuration)
        #expect(emulator.bank == 0 && driver.bank == 0)
        #expect(emulator.redundantBankSelects == redundantBefore + 1)  // only the deliberate one at open: the bank was unknown
        #expect(driver.samplePeriodNanoseconds == 10_000_000)
        #expect(try Self.peek(emulator, bank: 0, 0x03) == [0x20])  // USER_CTRL.I2C_MST_EN
        #expect(try Self.peek(emulator, bank: 0, 0x05, count: 3) == [0x00, 0x01, 0x00])  // LP_CONFIG continuous; awake, CLKSEL auto; all sensors on
        #expect(try Self.peek(emulator, bank: 0, 0x11) == [0x01])  // RAW_DATA_0_RDY_EN
        #expect(try Self.peek(emulator, bank: 2, 0x00, count: 2) == [10, 0x1F])  // GYRO_SMPLRT_DIV 10, DLPF 3, ±2000 °/s, FCHOICE
        #expect(try Self.peek(emulator, bank: 2, 0x10, count: 2) == [0, 10])
        #expect(try Self.peek(emulator, bank: 2, 0x14) == [0x19])  // DLPF 3, ±2 g, FCHOICE
        #expect(try Self.peek(emulator, bank: 3, 0x01) == [0x17])  // I2C_MST_CTRL: P_NSR, 345.6 kHz
        #expect(try Self.peek(emulator, bank: 3, 0x03, count: 3) == [0x8C, 0x10, 0x89])  // SLV0: read 0x0C from ST1, 9 bytes
        #expect(try Self.magnetometerRegister(emulator, 0x31) == 0x08)  // CNTL2: continuous mode 4, 100 Hz
        #expect(try Self.magnetometerRegister(emulator, 0x01) == 0x09)  // WIA2

        let writes = emulator.bankSelectWrites
        #expect(try driver.read(nowNanoseconds: 0) == nil)  // asleep until now: nothing yet
        emulator.advance(to: 0)
        #expect(try Self.peek(emulator, bank: 0, 0x3B, count: 9) == [0x01, 0x64, 0x00, 0xC8, 0x00, 0xD4, 0xFE, 0x00, 0x00])
        emulator.advance(to: 10_000_000)
        let writesAfterPeeks = emulator.bankSelectWrites
        let sample = try #require(try driver.read(nowNanoseconds: 10_000_000))
        let a = try #require(Self.vector(sample.acceleration)), b = try #require(Self.vector(sample.magneticField))
        // 1 g at ±2 g is 16384 counts.
        #expect(a.z == CountConversion.siValue(counts: 16384, nanoUnitsPerLSB: 598_550) && a.x == Q16_16(0))
        #expect(b.x == Q16_16(15) && b.y == Q16_16(-30) && b.z == Q16_16(45))  // the package's axes again
        #expect(emulator.bankSelectWrites == writesAfterPeeks && writes <= writesAfterPeeks)  // per-sample reads stay in bank 0
        #expect(try driver.read(nowNanoseconds: 12_000_000) == nil)  // INT_STATUS_1 cleared by the read
        #expect(emulator.bankSelectWrites == writesAfterPeeks && driver.recoveries == 0)
    }

    /// The emulator's banks: 0x00 is WHO_AM_I in bank 0 and GYRO_SMPLRT_DIV in bank 2; REG_BANK_SEL
    /// answers at 0x7F in every bank; a reset returns to bank 0 (DS-000189 §7).
    @Test func theEmulatorKeepsFourBanks() throws {
        let emulator = ICM20948Emulator()
        try emulator.writeRegister(address: 0x68, register: 0x7F, value: 0x20)
        try emulator.writeRegister(address: 0x68, register: 0x00, value: 10)
        #expect(try emulator.readRegister(address: 0x68, register: 0x00) == 10)
        #expect(try emulator.readRegister(address: 0x68, register: 0x7F) == 0x20)
        try emulator.writeRegister(address: 0x68, register: 0x7F, value: 0x30)
        #expect(try emulator.readRegister(address: 0x68, register: 0x7F) == 0x30 && emulator.bank == 3)
        try emulator.writeRegister(address: 0x68, register: 0x7F, value: 0x00)
        #expect(try emulator.readRegister(address: 0x68, register: 0x00) == 0xEA)
        try emulator.writeRegister(address: 0x68, register: 0x00, value: 0x12)  // read-only
        #expect(try emulator.readRegister(address: 0x68, register: 0x00) == 0xEA)
        try emulator.writeRegister(address: 0x68, register: 0x7F, value: 0x20)
        try emulator.writeRegister(address: 0x68, register: 0x06, value: 0x80)  // DEVICE_RESET, written in bank 2: not PWR_MGMT_1
        #expect(emulator.bank == 2)
        try emulator.writeRegister(address: 0x68, register: 0x7F, value: 0x00)
        try emulator.writeRegister(address: 0x68, register: 0x06, value: 0x80)
        #expect(try emulator.readRegister(address: 0x68, register: 0x06) == 0xC1)  // resetting
        #expect(try emulator.readRegister(address: 0x68, register: 0x06) == 0xC1)
        #expect(try emulator.readRegister(address: 0x68, register: 0x06) == 0x41 && emulator.bank == 0)
        try emulator.writeRegister(address: 0x68, register: 0x7F, value: 0x20)
        #expect(try emulator.readRegister(address: 0x68, register: 0x00) == 0)  // GYRO_SMPLRT_DIV back to 0
    }

    @Test func opensAChipLeftInAnotherBank() throws {
        let emulator = ICM20948Emulator()
        try emulator.writeRegister(address: 0x68, register: 0x7F, value: 0x20)  // a previous program left bank 2
        let driver = try ICM20948Driver(bus: emulator)
        #expect(emulator.bank == 0)
        emulator.advance(to: 10_000_000)
        #expect(try driver.read(nowNanoseconds: 10_000_000) != nil)
        // Moved to bank 3 behind the driver's back: the next empty poll reads REG_BANK_SEL.
        try emulator.writeRegister(address: 0x68, register: 0x7F, value: 0x30)
        #expect(try driver.read(nowNanoseconds: 12_000_000) == nil && driver.recoveries == 1)
        emulator.advance(to: 50_000_000)
        #expect(try driver.read(nowNanoseconds: 50_000_000)?.magneticField != nil)
    }

    @Test func aResetMidStreamIsNoticedAndRecovered() throws {
        let emulator = ICM20948Emulator()
        let driver = try ICM20948Driver(bus: emulator)
        emulator.advance(to: 10_000_000)
        #expect(try driver.read(nowNanoseconds: 10_000_000)?.magneticField != nil)
        #expect(emulator.nextDataReadyNanoseconds == 20_000_000)
        emulator.powerOnReset()  // asleep, bank 0, I2C master off, INT routing gone
        #expect(emulator.nextDataReadyNanoseconds == nil)
        emulator.advance(to: 20_000_000)
        #expect(try driver.read(nowNanoseconds: 20_000_000) == nil && driver.recoveries == 1)
        emulator.advance(to: 30_000_000)
        let again = try #require(try driver.read(nowNanoseconds: 30_000_000))
        #expect(again.magneticField != nil && driver.recoveries == 1)
    }

    @Test func theMagnetometerNotAnsweringDropsOnlyTheField() throws {
        let emulator = ICM20948Emulator()
        let driver = try ICM20948Driver(bus: emulator)
        emulator.magnetometerNotAnswering = true
        for step in 1...3 {
            emulator.advance(to: Int64(step) * 10_000_000)
            let sample = try #require(try driver.read(nowNanoseconds: Int64(step) * 10_000_000))
            #expect(sample.magneticField == nil)
        }
        #expect(driver.magnetometerNoAcknowledges == 3)
        emulator.magnetometerNotAnswering = false
        emulator.advance(to: 40_000_000)
        #expect(try driver.read(nowNanoseconds: 40_000_000)?.magneticField != nil)
        // At open, a silent AK09916 is an error naming it and its auxiliary bus.
        let silent = ICM20948Emulator(address: 0x69)
        silent.magnetometerNotAnswering = true
        let failed = #expect(throws: ChipError.self) { _ = try ICM20948Driver(bus: silent, address: 0x69) }
        #expect(failed?.description.contains("The ICM-20948 at 0x69 on emulated I2C bus answers, but its AK09916 magnetometer at 0x0C") == true)
    }

    @Test func aMagnetometerResetAloneIsSetUpAgain() throws {
        let emulator = ICM20948Emulator()
        let driver = try ICM20948Driver(bus: emulator)
        emulator.magnetometerPowerOnReset()  // the AK09916 back in power-down: ST1.DRDY never again
        var fields = 0
        for step in 1...20 {
            emulator.advance(to: Int64(step) * 10_000_000)
            if try driver.read(nowNanoseconds: Int64(step) * 10_000_000)?.magneticField != nil { fields += 1 }
        }
        #expect(driver.magnetometerRestarts == 1 && fields >= 10)
        #expect(try Self.magnetometerRegister(emulator, 0x31) == 0x08)
    }

    @Test func anOverflowedFieldIsDropped() throws {
        let emulator = ICM20948Emulator(field: { _ in (4950, 0, 0) })  // over ±4912 µT: ST2.HOFL
        let driver = try ICM20948Driver(bus: emulator)
        emulator.advance(to: 10_000_000)
        let sample = try #require(try driver.read(nowNanoseconds: 10_000_000))
        #expect(sample.magneticField == nil && driver.overflows == 1)
    }

    @Test func faultsNameTheBusTheAddressAndWhatToDo() throws {
        let emulator = ICM20948Emulator()
        let driver = try ICM20948Driver(bus: emulator)
        emulator.advance(to: 10_000_000)
        emulator.inject(.inputOutputError(register: 0x2D), count: 1)
        let failed = #expect(throws: ChipError.self) { _ = try driver.read(nowNanoseconds: 10_000_000) }
        #expect(failed?.description.contains("reading the ICM-20948 data (0x2D…0x43) on emulated I2C bus at address 0x68") == true)
        #expect(driver.bank == nil)  // a failed transaction: the bank is selected anew
        let writes = emulator.bankSelectWrites
        emulator.advance(to: 20_000_000)
        #expect(try driver.read(nowNanoseconds: 20_000_000) != nil && emulator.bankSelectWrites == writes + 1 && driver.bank == 0)
        emulator.inject(.noAcknowledge)
        let gone = #expect(throws: ChipError.self) { _ = try ICM20948Driver(bus: emulator) }
        #expect(gone?.description.contains("selecting the ICM-20948 register bank 0 (REG_BANK_SEL 0x7F)") == true)
        #expect(gone?.description.contains("no device answered (NACK)") == true)
        // Stuck output: the same sample again while data ready goes on.
        let stuck = ICM20948Emulator(motion: { t in ((Double(t) / 1e9, 0, 9.80665), (0, 0, 0)) }, field: { t in (Double(t) / 1e7, 0, 0) })
        let reader = try ICM20948Driver(bus: stuck)
        stuck.advance(to: 10_000_000)
        let first = try #require(try reader.read(nowNanoseconds: 10_000_000))
        stuck.stuckOutput = true
        stuck.advance(to: 500_000_000)
        let later = try #require(try reader.read(nowNanoseconds: 500_000_000))
        #expect(Self.vector(later.acceleration) == Self.vector(first.acceleration))
        #expect(Self.vector(later.magneticField) == Self.vector(first.magneticField))
    }

    /// At 1.1 kHz the master reads the AK09916 every sample; its 100 Hz field arrives with
    /// every 11th, on that schedule (no sample twice: ST1.DRDY is clear in the cycles between).
    @Test func atOnePointOneKilohertzTheFieldComesEveryEleventhSample() throws {
        let emulator = ICM20948Emulator()
        var configuration = ICM20948Driver<ICM20948Emulator>.Configuration()
        configuration.sampleRateHertz = 1000
        let driver = try ICM20948Driver(bus: emulator, configuration: configuration)
        #expect(driver.samplePeriodNanoseconds == 909_091 && driver.magnetometerPeriodNanoseconds == 10_000_001)
        var fieldSamples: [Int] = []
        for index in 0..<44 {
            let time = Int64(index) * 909_091
            emulator.advance(to: time)
            let sample = try #require(try driver.read(nowNanoseconds: time))
            if sample.magneticField != nil { fieldSamples.append(index) }
        }
        #expect(fieldSamples == [0, 11, 22, 33] && driver.magnetometerRestarts == 0)
    }

    /// 0x68 is shared: an MPU-9250 (WHO_AM_I 0x71 at 0x75, whatever its 0x00 holds) and a BMI160
    /// (CHIP_ID 0xD1 at 0x00) are not taken for an ICM-20948, nor the other way round.
    @Test func anMPUOrABMI160At0x68IsNotTakenForAnICM20948() throws {
        let mpu = MPU6050Emulator(whoAmI: 0x71)
        let wrong = #expect(throws: ChipError.self) { _ = try ICM20948Driver(bus: mpu) }
        #expect(wrong?.description.contains("is not a ICM-20948: its identity register 0x00 reads 0x00, expected 0xEA") == true)
        #expect(throws: ChipError.self) { _ = try ICM20948Driver(bus: BMI160Emulator()) }
        let icm = #expect(throws: ChipError.self) { _ = try MPU6050Driver(bus: ICM20948Emulator()) }
        #expect(icm?.description.contains("its identity register 0x75 reads 0x00") == true)
    }
}
