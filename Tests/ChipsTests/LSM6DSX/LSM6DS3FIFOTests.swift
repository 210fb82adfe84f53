import Chips
import FixedPoint
import MotionAlgorithms
import SensorBus
import Testing

/// The LSM6DS3 / LSM6DS3TR-C pattern FIFO drained by `LSM6DS3FIFODriver` from the emulator's
/// register-level FIFO: untagged six-word frames kept aligned by FIFO_PATTERN, an overrun, a
/// reset in the middle of a burst, bus faults and a rate switch in place.
@Suite struct LSM6DS3FIFOTests {
    static let ramp = LSM6DSXFIFOTests.ramp
    static let variants: [UInt8] = [0x69, 0x6A]

    static func storage(_ capacity: Int) -> UnsafeMutableBufferPointer<SensorReading> {
        UnsafeMutableBufferPointer<SensorReading>.allocate(capacity: capacity)
    }

    /// FIFO_STATUS1…4 as the emulator answers them.
    static func status(_ emulator: LSM6DSXEmulator) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 4)
        try bytes.withUnsafeMutableBytes { try emulator.readRegisters(address: 0x6A, register: LSM6DS3FIFORegister.status1, into: $0) }
        return bytes
    }

    /// Checks that `frames` are consecutive samples of `ramp` ending at sample `last`, each
    /// stamped at its own time.
    static func expectRamp(_ frames: [(Int64, Double, Double)], endingAt last: Int64, period: Int64) {
        for (index, frame) in frames.enumerated() {
            let time = (last - Int64(frames.count - 1 - index)) * period
            #expect(frame.0 == time, "frame \(index)")
            // ±8 g: one count is 2.39 mm/s²; ±1000 °/s: 0.61 mrad/s (rounding: half a count).
            #expect(abs(frame.1 - Double(time) / 1e9) < 0.0013 && abs(frame.2 + Double(time) / 4e9) < 0.00031, "frame \(index)")
        }
    }

    @Test(arguments: variants)
    func drainsGyroscopeThenAccelerometerFrames(whoAmI: UInt8) throws {
        let emulator = LSM6DSXEmulator(whoAmI: whoAmI, motion: Self.ramp)
        let driver = try LSM6DS3FIFODriver(bus: emulator, rateHertz: 104)
        #expect(driver.variant.whoAmI == whoAmI && driver.fifoCapacityFrames == 341)
        // FIFO_CTRL3: both undecimated (001, 001); FIFO_CTRL5: ODR_FIFO = the ODR code (4,
        // 104 Hz), continuous (110); FIFO_CTRL1/2: FTH = 512 words.
        #expect(try emulator.readRegister(address: 0x6A, register: LSM6DS3FIFORegister.control3) == 0x09)
        #expect(try emulator.readRegister(address: 0x6A, register: LSM6DS3FIFORegister.control5) == 4 << 3 | 6)
        #expect(try emulator.readRegister(address: 0x6A, register: LSM6DS3FIFORegister.control2) == 0x02)
        let period = driver.samplePeriodNanoseconds
        emulator.advance(to: 10 * period - 1)  // samples 0 … 9: 60 words
        // DIFF_FIFO 60, no flag, FIFO_PATTERN 0 (the next word is a gyroscope x).
        #expect(try Self.status(emulator) == [60, 0, 0, 0])
        let storage = Self.storage(64)
        defer { storage.deallocate() }
        let result = try driver.drain(into: storage, nowNanoseconds: 9 * period)
        #expect(result == FIFODrainResult(readings: 20, overflowed: false, recovered: false))
        Self.expectRamp(LSM6DSXFIFOTests.values(storage, count: result.readings), endingAt: 9, period: period)
        #expect(try Self.status(emulator) == [0, LSM6DS3FIFORegister.emptyFlag, 0, 0])
        #expect(driver.realignedWords == 0 && driver.discardedFrames == 0)
    }

    @Test func aReadStartingMidPatternIsRealignedByFIFOPattern() throws {
        let emulator = LSM6DSXEmulator(whoAmI: 0x6A, motion: { _ in ((1, 2, 3), (0.5, -0.5, 0.25)) })
        let driver = try LSM6DS3FIFODriver(bus: emulator)
        emulator.advance(to: 5 * driver.samplePeriodNanoseconds - 1)  // 5 frames
        // Someone else read two words (the first frame's gyroscope x and y): the FIFO now
        // starts at the pattern's third word, which looks like any other.
        var words = [UInt8](repeating: 0, count: 4)
        try words.withUnsafeMutableBytes { try emulator.readRegisters(address: 0x6A, register: 0x3E, into: $0) }
        #expect(try Self.status(emulator) == [28, 0, 2, 0])
        let storage = Self.storage(64)
        defer { storage.deallocate() }
        let result = try driver.drain(into: storage, nowNanoseconds: 0)
        // Four words dropped up to the next frame; the four whole frames read right way round
        // (a misaligned read would give an acceleration of (0.5, -0.5, 0.25) m/s²).
        #expect(result.readings == 8 && driver.realignedWords == 4 && emulator.fifoWords == 0)
        for index in stride(from: 0, to: result.readings, by: 2) {
            guard case .acceleration(let a) = storage[index].value, case .angularVelocity(let w) = storage[index + 1].value else {
                Issue.record("reading \(index) is not an (acceleration, angular velocity) pair"); continue
            }
            #expect(abs(a.x.doubleValue - 1) < 0.003 && abs(a.z.doubleValue - 3) < 0.003 && abs(w.y.doubleValue + 0.5) < 0.001)
        }
    }

    @Test(arguments: variants)
    func anOverrunIsCountedAndEveryLostSampleAccountedFor(whoAmI: UInt8) throws {
        let emulator = LSM6DSXEmulator(whoAmI: whoAmI, motion: Self.ramp)
        let driver = try LSM6DS3FIFODriver(bus: emulator)
        let period = driver.samplePeriodNanoseconds
        // 700 samples, 4200 words, into 4095 (LSM6DS3, 8 kbyte) or 2046 (LSM6DS3TR-C) words,
        // overwritten a word at a time: the LSM6DS3's oldest frame loses half of itself.
        let capacity = whoAmI == 0x69 ? 4095 : 2046
        emulator.advance(to: 700 * period - 1)
        #expect(emulator.fifoWords == capacity && emulator.droppedFIFOWords == 4200 - capacity)
        let status = try Self.status(emulator)
        let flags = LSM6DS3FIFORegister.watermarkFlag | LSM6DS3FIFORegister.overrunFlag | LSM6DS3FIFORegister.fullFlag
        #expect(status == [UInt8(capacity & 0xFF), flags | UInt8(capacity >> 8), UInt8((4200 - capacity) % 6), 0])
        let storage = Self.storage(2048)
        defer { storage.deallocate() }
        let result = try driver.drain(into: storage, nowNanoseconds: 699 * period)
        #expect(result.overflowed && driver.overflows == 1)
        // The newest frames, at their own times; the realigned half frame and the overwritten
        // words make up every sample not given: none vanished unaccounted.
        let frames = result.readings / 2
        Self.expectRamp(LSM6DSXFIFOTests.values(storage, count: result.readings), endingAt: 699, period: period)
        #expect(driver.realignedWords == (4200 - capacity) % 6)
        #expect(frames + (emulator.droppedFIFOWords + driver.realignedWords) / 6 == 700, "\(frames) frames")
        // Reading cleared OVER_RUN: the next drain sees none.
        emulator.advance(to: 702 * period - 1)
        let next = try driver.drain(into: storage, nowNanoseconds: 701 * period)
        #expect(!next.overflowed && next.readings == 4 && driver.overflows == 1)
    }

    @Test func aResetInTheMiddleOfABurstIsRecoveredAndItsZerosNeverGivenOut() throws {
        let emulator = LSM6DSXEmulator(whoAmI: 0x6A, motion: Self.ramp)
        let driver = try LSM6DS3FIFODriver(bus: emulator)
        let period = driver.samplePeriodNanoseconds
        let storage = Self.storage(128)
        defer { storage.deallocate() }
        emulator.advance(to: 30 * period - 1)  // 30 frames: two bursts (20 + 10 frames)
        // A brown-out after 50 words: the frame then being read breaks off mid-pattern and
        // the rest of the drain reads the reset FIFO's zeros, which are valid-looking data.
        emulator.resetAfterFIFOWords = 50
        let broken = try driver.drain(into: storage, nowNanoseconds: 29 * period)
        #expect(broken == FIFODrainResult(readings: 0, overflowed: false, recovered: true))
        #expect(driver.recoveries == 1 && driver.discardedFrames == 30)
        // Re-initialised: FIFO back in continuous mode at the same rate, sensors sampling.
        #expect(try emulator.readRegister(address: 0x6A, register: LSM6DS3FIFORegister.control5) == 4 << 3 | 6)
        let restart = 30 * period
        emulator.advance(to: restart + 5 * period)
        let after = try driver.drain(into: storage, nowNanoseconds: restart + 5 * period)
        #expect(after.readings == 12 && !after.recovered)
        Self.expectRamp(LSM6DSXFIFOTests.values(storage, count: after.readings), endingAt: 35, period: period)
    }

    @Test func aResetBetweenDrainsIsRecovered() throws {
        let emulator = LSM6DSXEmulator(whoAmI: 0x69, motion: Self.ramp)
        let driver = try LSM6DS3FIFODriver(bus: emulator, dataReadyInterrupt: true)
        let period = driver.samplePeriodNanoseconds
        let storage = Self.storage(64)
        defer { storage.deallocate() }
        emulator.advance(to: 10 * period - 1)
        #expect(try driver.drain(into: storage, nowNanoseconds: 9 * period).readings == 20)
        emulator.powerOnReset()
        #expect(emulator.nextDataReadyNanoseconds == nil)
        let recovery = try driver.drain(into: storage, nowNanoseconds: 12 * period)
        #expect(recovery.recovered && recovery.readings == 0 && driver.recoveries == 1 && driver.discardedFrames == 0)
        #expect(emulator.nextDataReadyNanoseconds != nil, "INT1 routing restored")
    }

    @Test func aStrangersDecimationIsUndoneAndItsFramesNotGivenOut() throws {
        let emulator = LSM6DSXEmulator(whoAmI: 0x6A, motion: Self.ramp)
        let driver = try LSM6DS3FIFODriver(bus: emulator)
        let period = driver.samplePeriodNanoseconds
        // Another program sets the gyroscope's decimation to 2: the FIFO's pattern becomes nine
        // words (Gx Gy Gz Ax Ay Az Ax Ay Az), which read as six-word frames would mix sensors.
        try emulator.writeRegister(address: 0x6A, register: LSM6DS3FIFORegister.control3, value: 2 << 3 | 1)
        emulator.advance(to: 4 * period - 1)
        let storage = Self.storage(64)
        defer { storage.deallocate() }
        let result = try driver.drain(into: storage, nowNanoseconds: 3 * period)
        #expect(result.recovered && result.readings == 0 && driver.recoveries == 1 && driver.discardedFrames == 3)
        #expect(try emulator.readRegister(address: 0x6A, register: LSM6DS3FIFORegister.control3) == LSM6DS3FIFORegister.bothUndecimated)
    }

    @Test func aBusErrorMidDrainLosesNothingThatWasNotRead() throws {
        let emulator = LSM6DSXEmulator(whoAmI: 0x6A, motion: Self.ramp)
        let driver = try LSM6DS3FIFODriver(bus: emulator)
        let period = driver.samplePeriodNanoseconds
        emulator.advance(to: 30 * period - 1)
        let storage = Self.storage(128)
        defer { storage.deallocate() }
        emulator.inject(.inputOutputError(register: LSM6DS3FIFORegister.dataOutLow), count: 1)
        let error = #expect(throws: ChipError.self) { _ = try driver.drain(into: storage, nowNanoseconds: 29 * period) }
        #expect(error?.description.contains("reading the LSM6DS3TR-C FIFO") == true, "\(String(describing: error))")
        #expect(emulator.fifoWords == 180)  // the failed transfer popped nothing
        let result = try driver.drain(into: storage, nowNanoseconds: 29 * period)
        #expect(result.readings == 60 && driver.realignedWords == 0)
        Self.expectRamp(LSM6DSXFIFOTests.values(storage, count: result.readings), endingAt: 29, period: period)
        emulator.inject(.noAcknowledge, count: 1)
        let gone = #expect(throws: ChipError.self) { _ = try driver.drain(into: storage, nowNanoseconds: 30 * period) }
        #expect(gone?.description.contains("FIFO status") == true)
    }

    @Test func theTaggedVariantsAreRefusedByName() {
        for whoAmI: UInt8 in [0x6B, 0x6C, 0x70] {
            let error = #expect(throws: ChipError.self) { _ = try LSM6DS3FIFODriver(bus: LSM6DSXEmulator(whoAmI: whoAmI)) }
            #expect(error?.description.contains("the pattern FIFO (LSM6DS3, LSM6DS3TR-C)") == true)
        }
    }

    @Test func theEmulatorsPatternFollowsTheDecimation() throws {
        // Gyroscope every other FIFO tick (DEC_FIFO_GYRO = 010), accelerometer every tick: the
        // pattern is Gx Gy Gz Ax Ay Az Ax Ay Az, nine words, FIFO_PATTERN 0 … 8.
        let emulator = LSM6DSXEmulator(whoAmI: 0x6A, motion: Self.ramp)
        let driver = try LSM6DS3FIFODriver(bus: emulator)
        try emulator.writeRegister(address: 0x6A, register: LSM6DS3FIFORegister.control3, value: 2 << 3 | 1)
        try emulator.writeRegister(address: 0x6A, register: LSM6DS3FIFORegister.control5, value: 4 << 3)
        try emulator.writeRegister(address: 0x6A, register: LSM6DS3FIFORegister.control5, value: 4 << 3 | 6)
        try emulator.writeRegister(address: 0x6A, register: LSM6DSXRegister.control1Accelerometer, value: 0x4C)
        emulator.advance(to: 4 * driver.samplePeriodNanoseconds - 1)  // 4 ticks: 6 + 3 + 6 + 3 words
        #expect(emulator.fifoWords == 18)
        var positions: [UInt8] = []
        var word = [UInt8](repeating: 0, count: 2)
        for _ in 0..<18 {
            positions.append(try Self.status(emulator)[2])
            try word.withUnsafeMutableBytes { try emulator.readRegisters(address: 0x6A, register: 0x3E, into: $0) }
        }
        #expect(positions == [0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8])
    }

    @Test func sampleRateChangesInPlaceWithoutAResetOrALostSample() throws {
        let motion = NumberedMotion()
        let emulator = LSM6DSXEmulator(whoAmI: 0x6A, motion: { motion.sample($0) })
        let bus = WriteLoggingBus(emulator)
        var run = RateSwitchRun(driver: try LSM6DS3FIFODriver(bus: bus, rateHertz: 104), chip: emulator, motion: motion)
        // Up: CTRL1_XL (0x10) = 833 Hz (7) at ±8 g (11), CTRL2_G (0x11) = 833 Hz at ±1000 °/s
        // (10), INT1_CTRL (0x0D) = 0, FIFO_CTRL5 (0x0A) bypass then continuous at ODR_FIFO 7.
        try checkSwitchUpAndBack(&run, bus: bus, boardHertz: 104, fastHertz: 833,
                                 upWrites: [(0x10, 0x7C), (0x11, 0x78), (0x0D, 0x00), (0x0A, 0x38), (0x0A, 0x3E)],
                                 downWrites: [(0x10, 0x4C), (0x11, 0x48), (0x0D, 0x01), (0x0A, 0x20), (0x0A, 0x26)])
        #expect(try emulator.readRegister(address: 0x6A, register: LSM6DS3FIFORegister.control3) == 0x09)
    }
}
