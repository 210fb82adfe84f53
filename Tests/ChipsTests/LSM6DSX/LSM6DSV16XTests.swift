import Chips
import FixedPoint
import MotionAlgorithms
import SensorBus
import Testing

/// The LSM6DSV16X's own register map (CTRL1/CTRL2 OP_MODE + ODR, CTRL6/CTRL8 full scales)
/// through the polled driver, against the emulator in that map.
@Suite struct LSM6DSV16XTests {
    static let whoAmI: UInt8 = 0x70

    @Test func tablesMatchTheDatasheetSensitivitiesAndTheKernel() {
        // LSM6DSV16X datasheet, mechanical characteristics: 0.061 … 0.488 mg/LSB, 8.75 … 70
        // mdps/LSB; fields as in the kernel's LSM6DSV row (FS_XL 0…3 at 0x17, FS_G 1…4 at 0x15).
        for (scale, expected) in zip(LSM6DSXTable.accelerometerScalesLSM6DSV16X, [(0, 0.061), (1, 0.122), (2, 0.244), (3, 0.488)]) {
            #expect(Int(scale.field) == expected.0)
            #expect(abs(Double(scale.nanoUnitsPerLSB) - expected.1 * 9.80665e6) <= 0.5)
        }
        for (scale, expected) in zip(LSM6DSXTable.gyroscopeScalesLSM6DSV16X, [(1, 8.75), (2, 17.5), (3, 35.0), (4, 70.0)]) {
            #expect(Int(scale.field) == expected.0)
            #expect(abs(Double(scale.nanoUnitsPerLSB) - expected.1 * .pi / 180 * 1e6) <= 0.5)
        }
        // ODR codes 2…9 = 7.5 … 960 Hz (the kernel's odr_avl), doubling from code to code.
        #expect(LSM6DSXTable.ratesMilliHertzLSM6DSV16X[2] == 7_500 && LSM6DSXTable.ratesMilliHertzLSM6DSV16X[9] == 960_000)
        for code in 3...10 { #expect(LSM6DSXTable.ratesMilliHertzLSM6DSV16X[code] == 2 * LSM6DSXTable.ratesMilliHertzLSM6DSV16X[code - 1]) }
    }

    /// Level 2 (tools/test-kernel-qemu.sh, 2026-11-28, Debian's 6.1.0-56): the kernel's
    /// st_lsm6dsx bound to an i2c-stub LSM6DSOX at ±2 g / ±250 °/s read 16384 accelerometer
    /// counts as 9.80099072 m/s² and 1000 gyroscope counts as 0.152716 rad/s. Our LSB sizes for
    /// those scales (both maps) give the same within one Q16.16 step, plus, for the
    /// accelerometer, the kernel's gain truncated to 598 205 nano-m/s² where ours rounds
    /// 61 µg × 9.80665 = 598 205.65 to 598 206 (16384 counts × 1 nano = 16 µm/s²).
    @Test func ourLSBSizesAgreeWithTheKernelsReading() {
        for map in [LSM6DSXTable.RegisterMap.lsm6dso, .lsm6dsv16x] {
            let accelerometer = LSM6DSXTable.accelerometerScales(map).first { $0.rangeG == 2 }!
            let gyroscope = LSM6DSXTable.gyroscopeScales(map).first { $0.rangeDegreesPerSecond == 250 }!
            let acceleration = CountConversion.siValue(counts: 16384, nanoUnitsPerLSB: accelerometer.nanoUnitsPerLSB)
            let angularVelocity = CountConversion.siValue(counts: 1000, nanoUnitsPerLSB: gyroscope.nanoUnitsPerLSB)
            #expect(abs(acceleration.doubleValue - 9.80099072) <= 0x1p-16 + 16384e-9, "\(map)")
            #expect(abs(angularVelocity.doubleValue - 0.152716) <= 0x1p-16, "\(map)")
        }
    }

    @Test func identifiesAndConfiguresItsOwnRegisterMap() throws {
        let emulator = LSM6DSXEmulator(whoAmI: Self.whoAmI)
        let driver = try LSM6DSXDriver(bus: emulator, rateHertz: 100)
        #expect(driver.variant.name == "LSM6DSV16X" && driver.variant.map == .lsm6dsv16x)
        #expect(driver.rateField == 6 && driver.samplePeriodNanoseconds == 8_333_333)  // 120 Hz is the nearest
        // CTRL1/CTRL2: OP_MODE 000 (high performance), ODR 6; CTRL8 FS_XL 2 (±8 g), CTRL6 FS_G 3 (±1000 °/s).
        #expect(try emulator.readRegister(address: 0x6A, register: LSM6DSXRegister.control1Accelerometer) == 0x06)
        #expect(try emulator.readRegister(address: 0x6A, register: LSM6DSXRegister.control2Gyroscope) == 0x06)
        #expect(try emulator.readRegister(address: 0x6A, register: LSM6DSXRegister.control8) == 0x02)
        #expect(try emulator.readRegister(address: 0x6A, register: LSM6DSXRegister.control6) == 0x03)
        #expect(try emulator.readRegister(address: 0x6A, register: LSM6DSXRegister.control3) == 0x44)  // BDU | IF_INC
        for (hertz, field) in [(7, 2), (15, 3), (30, 4), (60, 5), (240, 7), (480, 8), (960, 9), (1000, 9)] {
            #expect(try LSM6DSXDriver(bus: LSM6DSXEmulator(whoAmI: Self.whoAmI), rateHertz: hertz).rateField == UInt8(field), "\(hertz) Hz")
        }
    }

    @Test func readsMotionAtItsScalesAndRecoversFromAReset() throws {
        let emulator = LSM6DSXEmulator(whoAmI: Self.whoAmI, motion: { _ in ((-3.5, 0.25, 9.0), (1.5, -0.75, 0.125)) })
        let driver = try LSM6DSXDriver(bus: emulator)
        emulator.advance(to: 10_000_000)
        let pair = try #require(try driver.read(nowNanoseconds: 10_000_000))
        guard case .acceleration(let a) = pair.acceleration.value, case .angularVelocity(let w) = pair.angularVelocity.value else {
            Issue.record("acceleration and angular velocity"); return
        }
        // ±8 g: 2.39 mm/s² per count; ±1000 °/s: 0.61 mrad/s per count (half a count of rounding, plus Q16.16).
        #expect(abs(a.x.doubleValue + 3.5) < 0.0024 && abs(a.y.doubleValue - 0.25) < 0.0024 && abs(a.z.doubleValue - 9.0) < 0.0024)
        #expect(abs(w.x.doubleValue - 1.5) < 0.00062 && abs(w.y.doubleValue + 0.75) < 0.00062 && abs(w.z.doubleValue - 0.125) < 0.00062)
        // A reset (CTRL3 SW_RESET) mid-stream: CTRL2 reads 0, the driver re-initialises.
        try emulator.writeRegister(address: 0x6A, register: LSM6DSXRegister.control3, value: LSM6DSXRegister.softwareReset)
        emulator.advance(to: 20_000_000)
        #expect(try driver.read(nowNanoseconds: 20_000_000) == nil && driver.recoveries == 1)
        emulator.advance(to: 30_000_000)
        #expect(try driver.read(nowNanoseconds: 30_000_000) != nil)
    }

    @Test func probeNamesItFromWhoAmIAndPicksItsFIFOFamily() throws {
        let bus = EmulatedI2CBus()
        bus.attach(LSM6DSXEmulator(address: 0x6B, whoAmI: Self.whoAmI), at: 0x6B)
        #expect(try ChipProbe.probe(bus) == [.init(address: 0x6B, outcome: .identified(driver: "lsm6dsv16x", chip: "LSM6DSV16X"))])
    }
}
