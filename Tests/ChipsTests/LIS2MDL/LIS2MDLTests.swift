import Chips
import FixedPoint
import MotionAlgorithms
import SensorBus
import Testing

@Suite struct LIS2MDLTests {
    static func field(_ reading: SensorReading?) -> Vector3? {
        guard case .magneticField(let b)? = reading?.value else { return nil }
        return b
    }

    static func registers(_ bus: some I2CBus, from register: UInt8, count: Int) throws -> [UInt8] {
        try (0..<count).map { try bus.readRegister(address: 0x1E, register: register + UInt8($0)) }
    }

    /// ST DS12144: 1.5 mG/LSB (table 2), X, Y, Z little endian at 0x68…0x6D, WHO_AM_I 0x40 at
    /// 0x4F, CFG_REG_A 0x03 at reset; the driver sets COMP_TEMP_EN + 100 Hz continuous (0x8C),
    /// OFF_CANC (0x02) and BDU (0x10).
    @Test func convertsAsTheDatasheetSays() throws {
        #expect(CountConversion.siValue(counts: 1000, nanoUnitsPerLSB: 150, denominator: 1000) == Q16_16(150))  // 1.5 G
        let emulator = LIS2MDLEmulator(field: { _ in (150, -30, 0.45) })  // 1000, −200, 3 counts
        #expect(try Self.registers(emulator, from: 0x4F, count: 1) == [0x40])
        #expect(try Self.registers(emulator, from: 0x60, count: 3) == [0x03, 0x00, 0x00])
        let driver = try LIS2MDLDriver(bus: emulator)
        #expect(try Self.registers(emulator, from: 0x60, count: 3) == [0x8C, 0x02, 0x10])
        #expect(try driver.read(nowNanoseconds: 0) == nil)  // nothing measured yet
        emulator.advance(to: 0)
        #expect(try Self.registers(emulator, from: 0x67, count: 7) == [0x0F,  // Zyxda and each axis's
                                                                     0xE8, 0x03,  // X 1000
                                                                     0x38, 0xFF,  // Y −200
                                                                     0x03, 0x00])  // Z 3
        emulator.advance(to: 10_000_000)
        let b = try #require(Self.field(try driver.read(nowNanoseconds: 10_000_000)))
        #expect(b.x == Q16_16(150) && b.y == Q16_16(-30) && b.z == Q16_16(0.45))
        #expect(driver.overruns == 0)  // the register reads above took the first sample
        #expect(try driver.read(nowNanoseconds: 12_000_000) == nil)  // Zyxda cleared by the data read
        emulator.advance(to: 20_000_000)
        emulator.advance(to: 30_000_000)  // two samples, the first never read
        #expect(try driver.read(nowNanoseconds: 30_000_000) != nil && driver.overruns == 1)
    }

    /// With BDU the outputs keep the sample whose low byte was read until its high byte is.
    @Test func blockDataUpdateHoldsASampleHalfRead() throws {
        var strength = 150.0
        let emulator = LIS2MDLEmulator(field: { _ in (strength, 0, 0) })
        _ = try LIS2MDLDriver(bus: emulator)
        emulator.advance(to: 0)
        #expect(try Self.registers(emulator, from: 0x68, count: 1) == [0xE8])  // X low of 1000
        strength = -150
        emulator.advance(to: 10_000_000)
        #expect(try Self.registers(emulator, from: 0x69, count: 1) == [0x03])  // X high of the same 1000, not −1000's 0xFC
        emulator.advance(to: 20_000_000)
        #expect(try Self.registers(emulator, from: 0x68, count: 2) == [0x18, 0xFC])  // −1000 after the pair was read
    }

    @Test func aResetMidStreamIsNoticedAndRecovered() throws {
        let emulator = LIS2MDLEmulator()
        let driver = try LIS2MDLDriver(bus: emulator)
        emulator.advance(to: 10_000_000)
        #expect(try driver.read(nowNanoseconds: 10_000_000) != nil)
        emulator.powerOnReset()  // CFG_REG_A back at 0x03: idle
        emulator.advance(to: 20_000_000)
        #expect(try driver.read(nowNanoseconds: 20_000_000) == nil && driver.recoveries == 1)
        emulator.advance(to: 30_000_000)
        #expect(try driver.read(nowNanoseconds: 30_000_000) != nil && driver.recoveries == 1)
    }

    @Test func faultsNameTheBusTheAddressAndWhatToDo() throws {
        let emulator = LIS2MDLEmulator()
        let driver = try LIS2MDLDriver(bus: emulator)
        emulator.advance(to: 10_000_000)
        emulator.inject(.inputOutputError(register: 0x6A), count: 1)
        let failed = #expect(throws: ChipError.self) { _ = try driver.read(nowNanoseconds: 10_000_000) }
        #expect(failed?.description.contains("Could not complete reading the LIS2MDL (0x60…0x6D) on emulated I2C bus at address 0x1E") == true)
        #expect(try driver.read(nowNanoseconds: 10_000_000) != nil)
        emulator.inject(.noAcknowledge)
        let gone = #expect(throws: ChipError.self) { _ = try LIS2MDLDriver(bus: emulator) }
        #expect(gone?.description.contains("reading the LIS2MDL identity register (0x4F)") == true)
        #expect(gone?.description.contains("no device answered (NACK)") == true)
        // Stuck data ready: silence, not stale samples; stuck output: the same field again.
        let stuck = LIS2MDLEmulator(field: { let microtesla = Double($0) / 1e6; return (microtesla, -microtesla, 1) })
        let reader = try LIS2MDLDriver(bus: stuck)
        stuck.advance(to: 10_000_000)
        let first = Self.field(try reader.read(nowNanoseconds: 10_000_000))
        stuck.dataReadyStuckLow = true
        stuck.advance(to: 50_000_000)
        #expect(try reader.read(nowNanoseconds: 50_000_000) == nil)
        stuck.dataReadyStuckLow = false
        stuck.stuckOutput = true
        stuck.advance(to: 60_000_000)
        #expect(Self.field(try reader.read(nowNanoseconds: 60_000_000)) == first)
    }

    @Test func anHMC5883LOrALIS3MDLAt0x1EIsNotTakenForALIS2MDL() throws {
        let hmc = #expect(throws: ChipError.self) { _ = try LIS2MDLDriver(bus: HMC5883LEmulator()) }
        #expect(hmc?.description.hasPrefix("The chip at 0x1E on emulated I2C bus is not a LIS2MDL: its identity register 0x4F reads 0x00, expected 0x40.") == true)
        #expect(throws: ChipError.self) { _ = try LIS2MDLDriver(bus: LSM9DS1Emulator(magnetometerAddress: 0x1E, isLIS3MDL: true)) }
        let wrong = #expect(throws: ChipError.self) { _ = try HMC5883LDriver(bus: LIS2MDLEmulator()) }
        #expect(wrong?.description.contains("is not a HMC5883L: its identity register 0x0A reads 0x00") == true)
    }
}

@Suite struct LIS2MDLRegisterImageTests {
    /// The register image tools/kernel-level/init.sh preloads for the kernel's st_magn lis2mdl:
    /// WHO_AM_I 0x40, STATUS Zyxda, X, Y, Z = (1000, −1000, 0) counts, which the datasheet's
    /// 1.5 mG/LSB makes (150, −150, 0) µT. Our driver reads the same from those bytes.
    @Test func theKernelLevelImageReadsAsTheDatasheetSays() throws {
        let image = RegisterImage(address: 0x1E, [0x4F: [0x40], 0x67: [0x08, 0xE8, 0x03, 0x18, 0xFC, 0x00, 0x00]])
        let driver = try LIS2MDLDriver(bus: image)
        #expect(image.registers[0x60...0x62] == [0x8C, 0x02, 0x10])
        let reading = try #require(try driver.read(nowNanoseconds: 0))
        guard case .magneticField(let b) = reading.value else { Issue.record("field"); return }
        #expect(b.x == Q16_16(150) && b.y == Q16_16(-150) && b.z == Q16_16(0))
    }
}
