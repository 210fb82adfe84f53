import Chips
import FixedPoint
import MotionAlgorithms
import SensorBus
import Testing

@Suite struct HMC5883LTests {
    static func field(_ reading: SensorReading?) -> Vector3? {
        guard case .magneticField(let b)? = reading?.value else { return nil }
        return b
    }

    static func registers(_ bus: some I2CBus, from register: UInt8, count: Int) throws -> [UInt8] {
        try (0..<count).map { try bus.readRegister(address: 0x1E, register: register + UInt8($0)) }
    }

    /// Honeywell HMC5883L datasheet: gain 0x20 (the default) is 1090 LSB/G (table 9); the data
    /// registers are X, Z, Y, MSB first (register list, 0x03…0x08); 'H43' at 0x0A…0x0C.
    @Test func convertsAsTheDatasheetSays() throws {
        #expect(HMC5883LRegister.countsPerGauss[Int(HMC5883LRegister.defaultConfigurationB >> 5)] == 1090)
        let emulator = HMC5883LEmulator(field: { _ in (100, -50, 20) })
        #expect(try Self.registers(emulator, from: 0x0A, count: 3) == Array("H43".utf8))
        #expect(try Self.registers(emulator, from: 0x00, count: 3) == [0x10, 0x20, 0x01])  // power-on: 15 Hz, ±1.3 G, single
        let driver = try HMC5883LDriver(bus: emulator)
        #expect(driver.countsPerGauss == 1090)
        #expect(try driver.read(nowNanoseconds: 0) == nil)  // measuring (mode still single)
        emulator.advance(to: 6_000_000)
        #expect(try Self.registers(emulator, from: 0x02, count: 8) == [0x03,  // idle: the measurement is done
                                                                     0x04, 0x42,  // X 1090 counts = 1 G
                                                                     0x00, 0xDA,  // Z 218 counts = 0.2 G
                                                                     0xFD, 0xDF,  // Y −545 counts = −0.5 G
                                                                     0x01])  // RDY
        let b = try #require(Self.field(try driver.read(nowNanoseconds: 6_000_000)))
        #expect(b.x == Q16_16(100) && b.y == Q16_16(-50) && b.z == Q16_16(20))
        // The read started the next measurement: nothing new until it ends 6 ms later.
        #expect(try driver.read(nowNanoseconds: 8_000_000) == nil)
        emulator.advance(to: 12_000_000)
        #expect(try driver.read(nowNanoseconds: 12_000_000) != nil)
    }

    @Test func overflowReadsMinus4096AndIsDropped() throws {
        var strength = 200.0  // 2 G: 2180 counts, beyond the 2047 the gain allows
        let emulator = HMC5883LEmulator(field: { _ in (0, strength, 0) })
        let driver = try HMC5883LDriver(bus: emulator)
        emulator.advance(to: 6_000_000)
        #expect(try Self.registers(emulator, from: 0x07, count: 2) == [0xF0, 0x00])  // −4096
        #expect(try driver.read(nowNanoseconds: 6_000_000) == nil && driver.overflows == 1)
        strength = 30
        emulator.advance(to: 12_000_000)
        #expect(try driver.read(nowNanoseconds: 12_000_000) != nil)
    }

    @Test func aResetMidStreamIsNoticedAndRecovered() throws {
        let emulator = HMC5883LEmulator()
        let driver = try HMC5883LDriver(bus: emulator)
        emulator.advance(to: 6_000_000)
        #expect(try driver.read(nowNanoseconds: 6_000_000) != nil)
        emulator.powerOnReset()  // configuration A back at 0x10
        emulator.advance(to: 20_000_000)
        #expect(try driver.read(nowNanoseconds: 20_000_000) == nil && driver.recoveries == 1)
        emulator.advance(to: 30_000_000)
        #expect(try driver.read(nowNanoseconds: 30_000_000) != nil)
    }

    @Test func faultsNameTheBusTheAddressAndWhatToDo() throws {
        let emulator = HMC5883LEmulator()
        let driver = try HMC5883LDriver(bus: emulator)
        emulator.advance(to: 6_000_000)
        emulator.inject(.inputOutputError(register: 0x05), count: 1)
        let failed = #expect(throws: ChipError.self) { _ = try driver.read(nowNanoseconds: 6_000_000) }
        #expect(failed?.description.contains("Could not complete reading the HMC5883L (0x00…0x09) on emulated I2C bus at address 0x1E") == true)
        #expect(try driver.read(nowNanoseconds: 6_000_000) != nil)
        emulator.inject(.noAcknowledge)
        let gone = #expect(throws: ChipError.self) { _ = try HMC5883LDriver(bus: emulator) }
        #expect(gone?.description.contains("identification registers (0x0A…0x0C)") == true)
        #expect(gone?.description.contains("no device answered (NACK)") == true)
        let stuck = HMC5883LEmulator(field: { let microtesla = Double($0) / 1e6; return (microtesla, microtesla, microtesla) })
        let reader = try HMC5883LDriver(bus: stuck)
        stuck.advance(to: 6_000_000)
        let first = Self.field(try reader.read(nowNanoseconds: 6_000_000))
        stuck.stuckOutput = true
        stuck.advance(to: 12_000_000)
        #expect(Self.field(try reader.read(nowNanoseconds: 12_000_000)) == first)
    }

    @Test func aQMC5883LIsNotTakenForAnHMC5883L() throws {
        // A QMC5883L answering at 0x1E (as a mislabelled board's would not; this is the worst
        // case): its 0x0A…0x0C are control 2, SET/RESET period and a reserved byte, not 'H43'.
        let wrong = #expect(throws: ChipError.self) { _ = try HMC5883LDriver(bus: QMC5883LEmulator(address: 0x1E)) }
        #expect(wrong?.description.hasPrefix("The chip at 0x1E on emulated I2C bus is not a HMC5883L: its identity register 0x0A reads 0x00, expected 0x48.") == true)
    }
}

@Suite struct HMC5883LRegisterImageTests {
    /// The register image tools/kernel-level/init.sh preloads for the kernel's hmc5843 driver
    /// (Tests/KernelLevel pins what the kernel makes of it): 'H43', RDY, X = 1090, Z = −1090,
    /// Y = 0 counts, which the datasheet's 1090 LSB/G makes (100, 0, −100) µT. Our driver reads
    /// the same bytes as that; the kernel's 6.1 driver reads 1/100 of it (its scale quirk).
    @Test func theKernelLevelImageReadsAsTheDatasheetSays() throws {
        let image = RegisterImage(address: 0x1E, [0x0A: [0x48, 0x34, 0x33], 0x09: [0x01], 0x03: [0x04, 0x42, 0xFB, 0xBE, 0x00, 0x00]])
        let driver = try HMC5883LDriver(bus: image)
        #expect(image.registers[0...2] == [0x18, 0x20, 0x01])  // configuration A, gain 0x20, a single measurement started
        #expect(try driver.read(nowNanoseconds: 0) == nil)  // the stub never measures: the mode stays single
        image.registers[2] = 0x03  // what the chip does when its measurement is in: idle
        let reading = try #require(try driver.read(nowNanoseconds: 10_000_000))
        guard case .magneticField(let b) = reading.value else { Issue.record("field"); return }
        #expect(b.x == Q16_16(100) && b.y == Q16_16(0) && b.z == Q16_16(-100))
    }
}
