import Chips
import FixedPoint
import MotionAlgorithms
import SensorBus
import Testing

@Suite struct QMC5883LTests {
    static func field(_ reading: SensorReading?) -> Vector3? {
        guard case .magneticField(let b)? = reading?.value else { return nil }
        return b
    }

    /// QMC5883L datasheet rev 1.0, table 2: 3000 LSB/G at ±8 G, 12000 LSB/G at ±2 G (1 G = 100 µT);
    /// register map (table 13): X, Y, Z little endian at 0x00…0x05.
    @Test func convertsAsTheDatasheetSays() throws {
        #expect(QMC5883LRegister.countsPerMicrotesla(rangeBits: 0b01) == 30)  // ±8 G: 3000 / 100
        #expect(QMC5883LRegister.countsPerMicrotesla(rangeBits: 0b00) == 120)  // ±2 G: 12000 / 100
        #expect(CountConversion.siValue(counts: 12000, nanoUnitsPerLSB: 1, denominator: 120) == Q16_16(100))  // 1 G at ±2 G
        #expect(CountConversion.siValue(counts: 3000, nanoUnitsPerLSB: 1, denominator: 30) == Q16_16(100))  // 1 G at ±8 G

        let emulator = QMC5883LEmulator(field: { _ in (100, -50, 0.5) })
        let driver = try QMC5883LDriver(bus: emulator)
        #expect(try emulator.readRegister(address: 0x0D, register: 0x09) == 0x19)  // OSR 512, ±8 G, 100 Hz, continuous
        #expect(try emulator.readRegister(address: 0x0D, register: 0x0B) == 0x01)  // SET/RESET period, as recommended
        #expect(try driver.read(nowNanoseconds: 0) == nil)
        emulator.advance(to: 10_000_000)
        let bytes = try (0..<6).map { try emulator.readRegister(address: 0x0D, register: UInt8($0)) }
        #expect(bytes == [0xB8, 0x0B, 0x24, 0xFA, 0x0F, 0x00])  // 3000, −1500, 15 counts, LSB first
        emulator.advance(to: 20_000_000)
        let b = try #require(Self.field(try driver.read(nowNanoseconds: 20_000_000)))
        #expect(b.x == Q16_16(100) && b.y == Q16_16(-50) && b.z == Q16_16(0.5))
        #expect(try driver.read(nowNanoseconds: 21_000_000) == nil)  // reading the data cleared DRDY
    }

    @Test func dataReadyOverrunOverflowAndTheRangeBits() throws {
        var strength = 40.0
        let emulator = QMC5883LEmulator(field: { _ in (strength, 0, 0) })
        let driver = try QMC5883LDriver(bus: emulator)
        emulator.advance(to: 10_000_000)
        emulator.advance(to: 20_000_000)
        #expect(try emulator.readRegister(address: 0x0D, register: 0x06) == 0x05)  // DRDY + DOR: a sample was skipped
        #expect(try driver.read(nowNanoseconds: 20_000_000) != nil)
        #expect(try emulator.readRegister(address: 0x0D, register: 0x06) == 0x00)  // both cleared by the data read
        strength = 1200  // 12 G: beyond ±8 G
        emulator.advance(to: 30_000_000)
        #expect(try driver.read(nowNanoseconds: 30_000_000) == nil && driver.overflows == 1)
        // ±2 G at 200 Hz (control 1 = 0b00_00_11_01): 120 counts per µT.
        strength = 100
        try emulator.writeRegister(address: 0x0D, register: 0x09, value: 0x0D)
        emulator.advance(to: 35_000_000)
        let x = try (0..<2).map { try emulator.readRegister(address: 0x0D, register: UInt8($0)) }
        #expect(x == [0xE0, 0x2E])  // 12000 counts
    }

    @Test func aResetMidStreamIsNoticedAndRecovered() throws {
        let emulator = QMC5883LEmulator()
        let driver = try QMC5883LDriver(bus: emulator)
        emulator.advance(to: 10_000_000)
        #expect(try driver.read(nowNanoseconds: 10_000_000) != nil)
        emulator.powerOnReset()
        emulator.advance(to: 20_000_000)
        #expect(try driver.read(nowNanoseconds: 20_000_000) == nil && driver.recoveries == 1)
        emulator.advance(to: 30_000_000)
        #expect(try driver.read(nowNanoseconds: 30_000_000) != nil)
        // SOFT_RST written behind the driver's back: the same.
        try emulator.writeRegister(address: 0x0D, register: 0x0A, value: 0x80)
        #expect(try driver.read(nowNanoseconds: 35_000_000) == nil && driver.recoveries == 2)
    }

    @Test func faultsNameTheBusTheAddressAndWhatToDo() throws {
        let emulator = QMC5883LEmulator()
        let driver = try QMC5883LDriver(bus: emulator)
        emulator.advance(to: 10_000_000)
        emulator.inject(.inputOutputError(register: 0x00), count: 1)
        let failed = #expect(throws: ChipError.self) { _ = try driver.read(nowNanoseconds: 10_000_000) }
        #expect(failed?.description.contains("Could not complete reading the QMC5883L field (0x00…0x05) on emulated I2C bus at address 0x0D") == true)
        #expect(failed?.description.contains("Check the wiring and pull-ups") == true)
        #expect(try driver.read(nowNanoseconds: 10_000_000) != nil)  // the fault was counted: the data is still there
        emulator.inject(.noAcknowledge)
        let gone = #expect(throws: ChipError.self) { _ = try driver.read(nowNanoseconds: 20_000_000) }
        #expect(gone?.description.contains("no device answered (NACK)") == true)
        // Stuck output: the registers repeat while DRDY goes on.
        let stuck = QMC5883LEmulator(field: { let microtesla = Double($0) / 1e6; return (microtesla, microtesla, microtesla) })
        let reader = try QMC5883LDriver(bus: stuck)
        stuck.advance(to: 10_000_000)
        let first = Self.field(try reader.read(nowNanoseconds: 10_000_000))
        stuck.stuckOutput = true
        stuck.advance(to: 20_000_000)
        #expect(Self.field(try reader.read(nowNanoseconds: 20_000_000)) == first)
    }

    @Test func anHMC5883LIsNotTakenForAQMC5883L() throws {
        // An HMC5883L's register 0x0D is past its map: it reads 0, not the QMC's 0xFF.
        let wrong = #expect(throws: ChipError.self) { _ = try QMC5883LDriver(bus: HMC5883LEmulator(address: 0x0D)) }
        #expect(wrong?.description == "The chip at 0x0D on emulated I2C bus is not a QMC5883L: its identity register 0x0D reads 0x00, expected 0xFF. "
            + "Check the board file's chip and address (`motionctl probe` lists what answers).")
    }
}
