import Chips
import FixedPoint
import MotionAlgorithms
import SensorBus
import Testing

@Suite struct MMC5983MATests {
    static func field(_ reading: SensorReading?) -> Vector3? {
        guard case .magneticField(let b)? = reading?.value else { return nil }
        return b
    }

    static func registers(_ bus: some I2CBus, from register: UInt8, count: Int) throws -> [UInt8] {
        try (0..<count).map { try bus.readRegister(address: 0x30, register: register + UInt8($0)) }
    }

    /// Runs `driver` with a poll every 5 ms from `start` until a reading comes (at most 100 ms).
    static func nextReading(_ driver: MMC5983MADriver<MMC5983MAEmulator>, _ emulator: MMC5983MAEmulator,
                            from start: inout Int64) throws -> Vector3? {
        for _ in 0..<20 {
            start += 5_000_000
            emulator.advance(to: start)
            if let b = field(try driver.read(nowNanoseconds: start)) { return b }
        }
        return nil
    }

    /// MMC5983MA datasheet: 18-bit output, 16 384 counts/G, null field 131 072; Xout0 = X[17:10],
    /// Xout1 = X[9:2], XYZout2 bits 7:6 = X[1:0] (5:4 Y, 3:2 Z); product ID 0x30 at 0x2F.
    @Test func the18BitLayoutAndScale() throws {
        // 1 G, −0.5 G and 0.25 G plus one count (100 / 16384 µT): 147 456, 122 880, 135 169 counts.
        let emulator = MMC5983MAEmulator(field: { _ in (100, -50, 25 + 100.0 / 16384) })
        emulator.bridgeOffset = (0, 0, 0)
        #expect(try Self.registers(emulator, from: 0x2F, count: 1) == [0x30])
        #expect(try Self.registers(emulator, from: 0x08, count: 1) == [0x10])  // OTP_Rd_Done
        try emulator.writeRegister(address: 0x30, register: 0x09, value: 0x01)  // TM_M, magnetisation as after power-up (SET)
        emulator.advance(to: 8_000_000)  // BW 00: 8 ms
        let bytes = try Self.registers(emulator, from: 0x00, count: 9)
        #expect(bytes == [0x90, 0x00, 0x78, 0x00, 0x84, 0x00, 0b00_00_01_00, 0x00, 0x11])  // Meas_M_Done + OTP_Rd_Done
        let counts = bytes.withUnsafeBytes { MMC5983MARegister.counts($0) }
        #expect(counts == (147_456, 122_880, 135_169))
        #expect(try Self.registers(emulator, from: 0x09, count: 4) == [0, 0, 0, 0])  // the control registers are write-only
    }

    /// After SET the bridge reads +B + offset, after RESET −B + offset: the driver's pair gives
    /// B = (set − reset) / 2 with the offset gone, and the offset = (set + reset) / 2 − 131 072.
    @Test func setAndResetRemoveTheOffset() throws {
        let emulator = MMC5983MAEmulator(field: { _ in (19, 0, -46) })
        emulator.bridgeOffset = (35, -20, 12)
        let driver = try MMC5983MADriver(bus: emulator)
        var now: Int64 = 0
        let b = try #require(try Self.nextReading(driver, emulator, from: &now))
        // Each measurement is rounded to a count (0.0061 µT): the pair's half-difference is within one.
        let count = 100.0 / 16384
        #expect(abs(b.x.doubleValue - 19) <= count && abs(b.y.doubleValue) <= count && abs(b.z.doubleValue + 46) <= count)
        #expect(abs(driver.offset.x.doubleValue - 35) <= count && abs(driver.offset.y.doubleValue + 20) <= count
                && abs(driver.offset.z.doubleValue - 12) <= count)
        // The last measurement (after RESET) alone reads −B + offset: 16 µT for x, far from 19.
        let reset = try Self.registers(emulator, from: 0x00, count: 7).withUnsafeBytes { MMC5983MARegister.counts($0) }
        #expect(abs(Double(reset.0 - 131_072) * count - 16) <= count)
        // One pair per 10 ms: 4 ms measurements, polled every 5 ms.
        let start = now
        var readings = 0
        while now < start + 1_000_000_000 {
            now += 5_000_000
            emulator.advance(to: now)
            if try driver.read(nowNanoseconds: now) != nil { readings += 1 }
        }
        #expect(readings == 100)
    }

    @Test func aResetMidStreamIsNoticedByTheMissingMeasurementAndRecovered() throws {
        let emulator = MMC5983MAEmulator()
        let driver = try MMC5983MADriver(bus: emulator)
        var now: Int64 = 0
        #expect(try Self.nextReading(driver, emulator, from: &now) != nil)
        emulator.powerOnReset()  // the measurement asked for is lost: Meas_M_Done never comes
        var silent = 0
        while try driver.read(nowNanoseconds: now) == nil, driver.recoveries == 0 {
            silent += 1
            now += 5_000_000
            emulator.advance(to: now)
        }
        #expect(driver.recoveries == 1 && silent >= 4)  // after the 20 ms timeout, not before
        let b = try #require(try Self.nextReading(driver, emulator, from: &now))
        #expect(abs(b.x.doubleValue - 19) < 0.01 && driver.recoveries == 1)
    }

    @Test func stuckDataReadyIsReportedWithWhatToDo() throws {
        let emulator = MMC5983MAEmulator()
        let driver = try MMC5983MADriver(bus: emulator)
        emulator.dataReadyStuckLow = true
        var now: Int64 = 0
        let error = #expect(throws: ChipError.self) {
            for _ in 0..<100 {
                now += 5_000_000
                emulator.advance(to: now)
                _ = try driver.read(nowNanoseconds: now)
            }
        }
        #expect(error?.description.hasPrefix("The MMC5983MA at 0x30 on emulated I2C bus did not finish a field measurement (Meas_M_Done stayed 0 through 3 re-initialisations) in time. Power-cycle the sensor") == true)
        #expect(driver.recoveries == 3)
    }

    @Test func faultsNameTheBusTheAddressAndWhatToDo() throws {
        let emulator = MMC5983MAEmulator()
        let driver = try MMC5983MADriver(bus: emulator)
        emulator.advance(to: 5_000_000)
        emulator.inject(.inputOutputError(register: 0x03), count: 1)
        let failed = #expect(throws: ChipError.self) { _ = try driver.read(nowNanoseconds: 5_000_000) }
        #expect(failed?.description.contains("Could not complete reading the MMC5983MA (0x00…0x08) on emulated I2C bus at address 0x30") == true)
        var now: Int64 = 5_000_000
        #expect(try Self.nextReading(driver, emulator, from: &now) != nil)
        emulator.inject(.noAcknowledge)
        let gone = #expect(throws: ChipError.self) { _ = try MMC5983MADriver(bus: emulator) }
        #expect(gone?.description.contains("reading the MMC5983MA identity register (0x2F)") == true)
        #expect(gone?.description.contains("no device answered (NACK)") == true)
        let pulse = MMC5983MAEmulator()
        pulse.inject(.inputOutputError(register: 0x09), count: 1)
        let set = #expect(throws: ChipError.self) { _ = try MMC5983MADriver(bus: pulse) }
        #expect(set?.description.contains("sending the MMC5983MA a SET pulse") == true)
        // Stuck output: the pair repeats the same counts, so the same field comes again.
        let stuck = MMC5983MAEmulator(field: { let microtesla = Double($0) / 1e6; return (microtesla, 0, 0) })
        let reader = try MMC5983MADriver(bus: stuck)
        var time: Int64 = 0
        let first = try Self.nextReading(reader, stuck, from: &time)
        stuck.stuckOutput = true
        let again = try Self.nextReading(reader, stuck, from: &time)
        #expect(first != nil && again != nil)
        #expect(again?.x == Q16_16(0) && again?.y == Q16_16(0))  // set − reset of one frozen measurement: 0, not the field
    }

    @Test func otherChipsAt0x30AreNotTakenForAnMMC5983MA() {
        let wrong = #expect(throws: ChipError.self) { _ = try MMC5983MADriver(bus: QMC5883LEmulator(address: 0x30)) }
        #expect(wrong?.description.hasPrefix("The chip at 0x30 on emulated I2C bus is not a MMC5983MA: its identity register 0x2F reads 0x00, expected 0x30.") == true)
    }
}
