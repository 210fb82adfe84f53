import Chips
import FixedPoint
import MotionAlgorithms
import SensorBus
import Testing

/// Against BST-BNO055-DS000-14 (revision 1.4, June 2016).
@Suite struct BNO055Tests {
    typealias Sample = (acceleration: SensorReading, angularVelocity: SensorReading, magneticField: SensorReading?)

    static func vectors(_ sample: Sample?) -> (Vector3, Vector3, Vector3?)? {
        guard let sample, case .acceleration(let a) = sample.acceleration.value, case .angularVelocity(let w) = sample.angularVelocity.value else { return nil }
        guard let field = sample.magneticField else { return (a, w, nil) }
        guard case .magneticField(let b) = field.value else { return nil }
        return (a, w, b)
    }

    static func registers(_ bus: some I2CBus, from register: UInt8, count: Int, address: UInt8 = 0x28) throws -> [UInt8] {
        try (0..<count).map { try bus.readRegister(address: address, register: register + UInt8($0)) }
    }

    /// Table 3-17: 1 m/s² = 100 LSB; table 3-22: 1 rad/s = 900 LSB; §3.6.4.2: 1 µT = 16 LSB;
    /// table 3-31: quaternion 1 = 2¹⁴ LSB; TEMP 1 °C = 1 LSB. Power-on: CHIP_ID 0xA0, ACC_ID
    /// 0xFB, MAG_ID 0x32, GYR_ID 0x0F, UNIT_SEL 0x80, OPR_MODE 0 (CONFIGMODE).
    @Test func convertsAsTheDatasheetSays() throws {
        #expect(CountConversion.siValue(counts: 981, nanoUnitsPerLSB: 10_000_000) == Q16_16(9.81))
        #expect(CountConversion.siValue(counts: 900, nanoUnitsPerLSB: 1, denominator: 900) == Q16_16(1))
        #expect(CountConversion.siValue(counts: 304, nanoUnitsPerLSB: 1, denominator: 16) == Q16_16(19))
        let emulator = BNO055Emulator(motion: { _ in ((1.5, -2, 9.81), (1, -0.5, 0.25)) }, field: { _ in (19, -5.5, -46) },
                                      attitude: { _ in (0.5, 0.5, -0.5, 0.5) })
        emulator.temperatureCelsius = 31
        emulator.calibrationStatus = 0xE4  // SYS 3, GYR 2, ACC 1, MAG 0
        #expect(try Self.registers(emulator, from: 0x00, count: 4) == [0xA0, 0xFB, 0x32, 0x0F])
        #expect(try Self.registers(emulator, from: 0x3B, count: 1) == [0x80] && Self.registers(emulator, from: 0x3D, count: 1) == [0x00])
        let driver = try BNO055Driver(bus: emulator)
        #expect(try Self.registers(emulator, from: 0x3B, count: 4) == [0x86, 0x00, 0x0C, 0x00])  // UNIT_SEL, -, OPR_MODE NDOF, PWR_MODE
        #expect(emulator.ignoredWrites == 0)
        #expect(try driver.read(nowNanoseconds: 0) == nil)  // the fusion has no output yet (7 ms after the switch)
        emulator.advance(to: 7_000_000)
        #expect(try Self.registers(emulator, from: 0x08, count: 6) == [0x96, 0x00, 0x38, 0xFF, 0xD5, 0x03])  // 150, −200, 981
        #expect(try Self.registers(emulator, from: 0x0E, count: 6) == [0x30, 0x01, 0xA8, 0xFF, 0x20, 0xFD])  // 304, −88, −736
        #expect(try Self.registers(emulator, from: 0x14, count: 6) == [0x84, 0x03, 0x3E, 0xFE, 0xE1, 0x00])  // 900, −450, 225
        #expect(try Self.registers(emulator, from: 0x20, count: 8) == [0x00, 0x20, 0x00, 0x20, 0x00, 0xE0, 0x00, 0x20])  // ±8192
        #expect(try Self.registers(emulator, from: 0x34, count: 2) == [31, 0xE4])
        #expect(try Self.registers(emulator, from: 0x39, count: 2) == [0x05, 0x00])  // SYS_STATUS: fusion running
        let (a, w, b) = try #require(Self.vectors(try driver.read(nowNanoseconds: 7_000_000)))
        #expect(a == Vector3(x: Q16_16(1.5), y: Q16_16(-2), z: Q16_16(9.81)))
        #expect(w == Vector3(x: Q16_16(1), y: Q16_16(-0.5), z: Q16_16(0.25)))
        #expect(b == Vector3(x: Q16_16(19), y: Q16_16(-5.5), z: Q16_16(-46)))
        let fusion = try #require(driver.latestFusion)
        #expect(fusion.attitude == Quaternion(w: Q2_30(0.5), x: Q2_30(0.5), y: Q2_30(-0.5), z: Q2_30(0.5)))
        #expect(fusion.calibration == BNO055CalibrationStatus(system: 3, gyroscope: 2, accelerometer: 1, magnetometer: 0))
        #expect(!fusion.calibration.isFullyCalibrated && BNO055CalibrationStatus(register: 0xFF).isFullyCalibrated)
        #expect(fusion.temperature == Q16_16(31) && fusion.timestampNanoseconds == 7_000_000)
    }

    /// No data-ready flag: a sample per 10 ms fusion period (table 3-14) however often it is
    /// read, the field (20 Hz) with every fifth.
    @Test func aSamplePerPeriodAndTheFieldWithEveryFifth() throws {
        let emulator = BNO055Emulator()
        let driver = try BNO055Driver(bus: emulator)
        var samples = 0, fields = 0
        for step in 0...40 {  // every 5 ms for 200 ms: half the period, as the engine polls
            let now = 7_000_000 + Int64(step) * 5_000_000
            emulator.advance(to: now)
            guard let sample = try driver.read(nowNanoseconds: now) else { continue }
            samples += 1
            if sample.magneticField != nil { fields += 1 }
        }
        #expect(samples == 21 && fields == 5)
        #expect(driver.samplePeriodNanoseconds == 10_000_000 && driver.magnetometerPeriodNanoseconds == 50_000_000)
    }

    /// §3.11.4: the profile (0x55…0x6A) is read and written in CONFIGMODE; 11 little-endian
    /// values in register order (accelerometer, magnetometer, gyroscope offsets; radii).
    @Test func theCalibrationProfileIsSavedAndRestoredInConfigMode() throws {
        let profile = BNO055CalibrationProfile(accelerometerOffset: [-12, 25, 3], magnetometerOffset: [480, -320, 96],
                                               gyroscopeOffset: [-2, 1, 0], accelerometerRadius: 1000, magnetometerRadius: 737)
        #expect(profile.bytes.prefix(6) == [0xF4, 0xFF, 0x19, 0x00, 0x03, 0x00])  // ACC_OFFSET_X_LSB first
        #expect(profile.bytes.suffix(4) == [0xE8, 0x03, 0xE1, 0x02])  // ACC_RADIUS 1000, MAG_RADIUS 737
        #expect(BNO055CalibrationProfile(bytes: profile.bytes) == profile && BNO055CalibrationProfile(values: profile.values) == profile)
        #expect(profile.isPlausible && !BNO055CalibrationProfile(values: [0, 0, 0, 7000, 0, 0, 0, 0, 0, 0, 0])!.isPlausible)
        #expect(BNO055CalibrationProfile(values: [1, 2]) == nil)

        let emulator = BNO055Emulator()
        var configuration = BNO055Driver<BNO055Emulator>.Configuration()
        configuration.calibrationProfile = profile
        let driver = try BNO055Driver(bus: emulator, configuration: configuration)
        #expect(emulator.ignoredWrites == 0)
        #expect(try Self.registers(emulator, from: 0x55, count: 22) == [UInt8](repeating: 0, count: 22))  // hidden in NDOF
        #expect(try driver.readCalibrationProfile() == profile)
        #expect(try Self.registers(emulator, from: 0x3D, count: 1) == [0x0C])  // back in NDOF
        // A reset loses the profile; the driver notices and writes it back.
        emulator.advance(to: 10_000_000)
        #expect(try driver.read(nowNanoseconds: 10_000_000) != nil)
        emulator.powerOnReset()
        #expect(try driver.read(nowNanoseconds: 20_000_000) == nil && driver.recoveries == 1)
        #expect(try driver.readCalibrationProfile() == profile && emulator.ignoredWrites == 0)
        // Written outside CONFIGMODE, the chip ignores it (which the driver never does).
        try emulator.writeRegister(address: 0x28, register: 0x55, value: 0x01)
        #expect(emulator.ignoredWrites == 1)
        // What the chip learns this run (here: MAG_RADIUS 737 → 800, written in CONFIGMODE as
        // its fusion would) is what a later reset gets back, once read.
        try emulator.writeRegister(address: 0x28, register: 0x3D, value: 0x00)
        try emulator.writeRegister(address: 0x28, register: 0x69, value: 0x20)
        try emulator.writeRegister(address: 0x28, register: 0x6A, value: 0x03)
        try emulator.writeRegister(address: 0x28, register: 0x3D, value: 0x0C)
        var learned = profile
        learned.magnetometerRadius = 800
        #expect(try driver.readCalibrationProfile() == learned)
        emulator.powerOnReset()
        emulator.advance(to: 40_000_000)
        #expect(try driver.read(nowNanoseconds: 40_000_000) == nil && driver.recoveries == 2)
        #expect(try driver.readCalibrationProfile() == learned)
    }

    @Test func aResetMidStreamIsNoticedAndRecovered() throws {
        let emulator = BNO055Emulator()
        let driver = try BNO055Driver(bus: emulator)
        emulator.advance(to: 10_000_000)
        #expect(try driver.read(nowNanoseconds: 10_000_000) != nil)
        try emulator.writeRegister(address: 0x28, register: 0x3F, value: 0x20)  // SYS_TRIGGER RST_SYS
        emulator.advance(to: 20_000_000)
        #expect(try driver.read(nowNanoseconds: 20_000_000) == nil && driver.recoveries == 1 && driver.latestFusion == nil)
        #expect(try Self.registers(emulator, from: 0x3B, count: 3) == [0x86, 0x00, 0x0C])
        emulator.advance(to: 30_000_000)
        #expect(try driver.read(nowNanoseconds: 30_000_000) != nil && driver.recoveries == 1)
    }

    /// A program (or the kernel's driver) that left page 1 selected: the driver selects page 0
    /// before it reads CHIP_ID.
    @Test func aChipLeftOnPage1IsBroughtBackToPage0() throws {
        let emulator = BNO055Emulator()
        try emulator.writeRegister(address: 0x28, register: 0x07, value: 1)
        #expect(try Self.registers(emulator, from: 0x00, count: 1) == [0x00])  // reserved on page 1
        _ = try BNO055Driver(bus: emulator)
        #expect(emulator.page == 0)
    }

    /// AMG (table 3-5, 0x07): the three sensors, no fusion outputs.
    @Test func amgModeGivesTheSensorsWithoutFusion() throws {
        let emulator = BNO055Emulator(motion: { _ in ((0, 9.80665, 0), (0, 0, -1)) })
        var configuration = BNO055Driver<BNO055Emulator>.Configuration()
        configuration.mode = .accelerometerMagnetometerGyroscope
        let driver = try BNO055Driver(bus: emulator, configuration: configuration)
        #expect(try Self.registers(emulator, from: 0x3D, count: 1) == [0x07])
        emulator.advance(to: 7_000_000)
        #expect(try Self.registers(emulator, from: 0x39, count: 1) == [0x06])  // running without fusion
        let (a, w, b) = try #require(Self.vectors(try driver.read(nowNanoseconds: 7_000_000)))
        #expect(a.y == Q16_16(9.81) && w.z == Q16_16(-1) && b != nil && driver.latestFusion == nil)
    }

    @Test func faultsNameTheBusTheAddressAndWhatToDo() throws {
        let emulator = BNO055Emulator()
        let driver = try BNO055Driver(bus: emulator)
        emulator.advance(to: 10_000_000)
        emulator.inject(.inputOutputError(register: 0x20), count: 1)
        let failed = #expect(throws: ChipError.self) { _ = try driver.read(nowNanoseconds: 10_000_000) }
        #expect(failed?.description.contains("Could not complete reading the BNO055 (0x08…0x3D) on emulated I2C bus at address 0x28") == true)
        #expect(try driver.read(nowNanoseconds: 10_000_000) != nil)
        emulator.systemError = 0x09
        emulator.advance(to: 20_000_000)
        let system = #expect(throws: ChipError.self) { _ = try driver.read(nowNanoseconds: 20_000_000) }
        #expect(system?.description == "The BNO055 at 0x28 on emulated I2C bus reports a system error (0x09: fusion algorithm configuration error). "
            + "Power-cycle the sensor; if it persists after a power cycle, the chip's firmware or one of its sensors has failed.")
        emulator.systemError = nil
        emulator.advance(to: 30_000_000)
        let before = try #require(Self.vectors(try driver.read(nowNanoseconds: 30_000_000)))
        emulator.stuckOutput = true
        emulator.motion = { _ in ((5, 5, 5), (1, 1, 1)) }
        emulator.advance(to: 40_000_000)
        #expect(try #require(Self.vectors(try driver.read(nowNanoseconds: 40_000_000))).0 == before.0)  // the same sample again
        emulator.inject(.noAcknowledge)
        let gone = #expect(throws: ChipError.self) { _ = try BNO055Driver(bus: emulator) }
        #expect(gone?.description.contains("selecting the BNO055's register page 0 (PAGE_ID)") == true)
        #expect(gone?.description.contains("no device answered (NACK)") == true)
    }

    /// Something else at 0x28 (0x00 not 0xA0), or a BNO055 whose gyroscope did not start
    /// (GYR_ID not 0x0F), is refused with what was found.
    @Test func anotherChipAt0x28OrAMissingSensorIsRefused() throws {
        let stranger = RegisterImage(address: 0x28, [0x00: [0xEE]])
        let wrong = #expect(throws: ChipError.self) { _ = try BNO055Driver(bus: stranger) }
        #expect(wrong?.description.hasPrefix("The chip at 0x28 on i2c-stub image is not a BNO055: its identity register 0x00 reads 0xEE, expected 0xA0.") == true)
        let noGyroscope = RegisterImage(address: 0x28, [0x00: [0xA0, 0xFB, 0x32, 0x00]])
        let missing = #expect(throws: ChipError.self) { _ = try BNO055Driver(bus: noGyroscope) }
        #expect(missing?.description.hasPrefix("The chip at 0x28 on i2c-stub image is not a BNO055 gyroscope (BMG160): its identity register 0x03 reads 0x00, expected 0x0F.") == true)
        // And the BNO055 is no other chip: an MPU-6050 driver at its address finds no WHO_AM_I.
        #expect(throws: ChipError.self) { _ = try MPU6050Driver(bus: BNO055Emulator(address: 0x68), address: 0x68) }
    }
}

@Suite struct BNO055RegisterImageTests {
    /// A register file that only stores what is written (the kernel's i2c-stub): identities,
    /// acceleration (0, 0, 981) = 9.81 m/s², the field (304, 0, −736) = (19, 0, −46) µT, the rate
    /// (900, 0, 0) = 1 rad/s, the quaternion (2¹⁴, 0, 0, 0) = identity, CALIB_STAT 0xFF. The
    /// driver's writes land in the same file, so OPR_MODE reads back NDOF.
    @Test func aPlainRegisterFileReadsAsTheDatasheetSays() throws {
        let image = RegisterImage(address: 0x28, [0x00: [0xA0, 0xFB, 0x32, 0x0F],
                                                  0x08: [0, 0, 0, 0, 0xD5, 0x03, 0x30, 0x01, 0, 0, 0x20, 0xFD, 0x84, 0x03, 0, 0, 0, 0],
                                                  0x20: [0x00, 0x40, 0, 0, 0, 0, 0, 0], 0x34: [0x19, 0xFF]])
        let driver = try BNO055Driver(bus: image)
        #expect(image.registers[0x3B] == 0x86 && image.registers[0x3D] == 0x0C)
        let (a, w, b) = try #require(BNO055Tests.vectors(try driver.read(nowNanoseconds: 0)))
        #expect(a == Vector3(x: .zero, y: .zero, z: Q16_16(9.81)) && w == Vector3(x: Q16_16(1), y: .zero, z: .zero))
        #expect(b == Vector3(x: Q16_16(19), y: .zero, z: Q16_16(-46)))
        #expect(driver.latestFusion?.attitude == .identity && driver.latestFusion?.calibration.isFullyCalibrated == true)
        #expect(driver.latestFusion?.temperature == Q16_16(25))
    }
}
