import Chips
import FixedPoint
import MotionAlgorithms
import SensorBus
import Testing

/// The tagged FIFO (LSM6DSO/LSM6DSOX, ISM330DHCX, LSM6DSV16X) drained by `LSM6DSXFIFODriver`
/// from the emulator's register-level FIFO, faults included.
@Suite struct LSM6DSXFIFOTests {
    /// Every variant with a tagged FIFO: (WHO_AM_I, FIFO_STATUS1's address).
    static let variants: [(whoAmI: UInt8, status1: UInt8)] = [(0x6B, 0x3A), (0x6C, 0x3A), (0x70, 0x1B)]

    /// A motion that changes every sample, so that a reading tells which sample it is: x
    /// acceleration = t in seconds (m/s²), x angular velocity = −t/4 rad/s.
    static func ramp(_ nanoseconds: Int64) -> (acceleration: (Double, Double, Double), angularVelocity: (Double, Double, Double)) {
        let seconds = Double(nanoseconds) / 1e9
        return ((seconds, 0.5, 9.80665), (-seconds / 4, 0.25, 0))
    }

    static func values(_ readings: UnsafeMutableBufferPointer<SensorReading>, count: Int) -> [(Int64, Double, Double)] {
        stride(from: 0, to: count, by: 2).map { index in
            guard case .acceleration(let a) = readings[index].value, case .angularVelocity(let w) = readings[index + 1].value else {
                Issue.record("reading \(index) is not an (acceleration, angular velocity) pair"); return (0, 0, 0)
            }
            #expect(readings[index].timestampNanoseconds == readings[index + 1].timestampNanoseconds)
            return (readings[index].timestampNanoseconds, a.x.doubleValue, w.x.doubleValue)
        }
    }

    @Test(arguments: variants.map(\.whoAmI), [false, true])
    func drainsInterleavedTagsIntoFrames(whoAmI: UInt8, accelerometerFirst: Bool) throws {
        let emulator = LSM6DSXEmulator(whoAmI: whoAmI, motion: Self.ramp)
        emulator.accelerometerWordFirst = accelerometerFirst
        let driver = try LSM6DSXFIFODriver(bus: emulator, rateHertz: 104)
        #expect(driver.variant.whoAmI == whoAmI)
        let period = driver.samplePeriodNanoseconds
        // FIFO_CTRL3: BDR_GY = BDR_XL = the ODR code; FIFO_CTRL4: continuous (110).
        let code = driver.rateField
        #expect(try emulator.readRegister(address: 0x6A, register: LSM6DSXRegister.fifoControl3) == code << 4 | code)
        #expect(try emulator.readRegister(address: 0x6A, register: LSM6DSXRegister.fifoControl4) == 6)
        emulator.advance(to: 10 * period - 1)  // samples 0 … 9: 20 words
        #expect(emulator.fifoWords == 20)
        let storage = UnsafeMutableBufferPointer<SensorReading>.allocate(capacity: 64)
        defer { storage.deallocate() }
        let result = try driver.drain(into: storage, nowNanoseconds: 9 * period)
        #expect(result == FIFODrainResult(readings: 20, overflowed: false, recovered: false))
        let frames = Self.values(storage, count: result.readings)
        for (index, frame) in frames.enumerated() {
            let time = Int64(index) * period
            #expect(frame.0 == time)
            // ±8 g: one count is 2.39 mm/s²; ±1000 °/s: 0.61 mrad/s (rounding: half a count).
            #expect(abs(frame.1 - Double(time) / 1e9) < 0.0013 && abs(frame.2 + Double(time) / 4e9) < 0.00031, "frame \(index)")
        }
        #expect(emulator.fifoWords == 0 && driver.unpairedWords == 0)
    }

    @Test func aSmallBufferLeavesTheRestAndAHalfSlotWaits() throws {
        let emulator = LSM6DSXEmulator(motion: Self.ramp)
        let driver = try LSM6DSXFIFODriver(bus: emulator)
        let period = driver.samplePeriodNanoseconds
        emulator.advance(to: 5 * period - 1)  // 5 samples
        let storage = UnsafeMutableBufferPointer<SensorReading>.allocate(capacity: 4)
        defer { storage.deallocate() }
        #expect(try driver.drain(into: storage, nowNanoseconds: 0).readings == 4)
        #expect(emulator.fifoWords == 6)
        // Read one word by hand: the next slot's gyroscope word; the driver must pair the
        // accelerometer word that follows with nothing and wait for the next slot.
        var word = [UInt8](repeating: 0, count: 7)
        try word.withUnsafeMutableBytes { try emulator.readRegisters(address: 0x6A, register: 0x78, into: $0) }
        #expect(word[0] >> 3 == 1 && word[0] >> 1 & 3 == 2)  // gyroscope, TAG_CNT 2
        // Four words fit: the orphaned accelerometer word (dropped), a frame, and the next
        // slot's gyroscope word, kept for the drain after.
        #expect(try driver.drain(into: storage, nowNanoseconds: 0).readings == 2)
        #expect(driver.unpairedWords == 1 && emulator.fifoWords == 1)
        #expect(try driver.drain(into: storage, nowNanoseconds: 0).readings == 2)
        #expect(driver.unpairedWords == 1 && emulator.fifoWords == 0)
    }

    @Test(arguments: variants.map(\.whoAmI))
    func overrunIsCountedAndTheNewestFramesRead(whoAmI: UInt8) throws {
        let emulator = LSM6DSXEmulator(whoAmI: whoAmI, motion: Self.ramp)
        let driver = try LSM6DSXFIFODriver(bus: emulator)
        let period = driver.samplePeriodNanoseconds
        // 300 samples, 600 words, into 512 (LSM6DSO map) or 511 (LSM6DSV16X) words.
        let capacity = whoAmI == 0x70 ? 511 : 512
        emulator.advance(to: 300 * period - 1)
        #expect(emulator.fifoWords == capacity && emulator.droppedFIFOWords == 600 - capacity)
        let statusAddress = Self.variants.first { $0.whoAmI == whoAmI }!.status1
        var status = [UInt8](repeating: 0, count: 2)
        try status.withUnsafeMutableBytes { try emulator.readRegisters(address: 0x6A, register: statusAddress, into: $0) }
        // DIFF_FIFO = the count (the LSM6DSO map's [9:0], the LSM6DSV16X's [8:0]); WTM_IA
        // (≥ 128), OVR_IA, FULL_IA and OVR_LATCHED (cleared by this read: OVR_IA stays).
        #expect(status == [UInt8(capacity & 0xFF), 0x80 | 0x40 | 0x20 | 0x08 | UInt8(capacity >> 8)])
        let storage = UnsafeMutableBufferPointer<SensorReading>.allocate(capacity: 1024)
        defer { storage.deallocate() }
        let result = try driver.drain(into: storage, nowNanoseconds: 299 * period)
        #expect(result.overflowed && driver.overflows == 1 && result.readings == 2 * (capacity / 2))
        // The newest frames, stamped at their own times: samples 44 … 299 (an odd capacity
        // begins with the overwritten slot's second word, dropped).
        let frames = Self.values(storage, count: result.readings)
        let first = Int64(300 - capacity / 2)
        #expect(frames.first!.0 == first * period && frames.last!.0 == 299 * period)
        #expect(abs(frames.first!.1 - Double(first * period) / 1e9) < 0.0013)
        #expect(driver.unpairedWords == capacity % 2)
        // The next drain sees no overrun: the flags cleared as the words were read.
        emulator.advance(to: 302 * period - 1)
        let next = try driver.drain(into: storage, nowNanoseconds: 301 * period)
        #expect(!next.overflowed && next.readings == 4 && driver.overflows == 1)
    }

    @Test func watermarkFlagFollowsTheUnreadCount() throws {
        let emulator = LSM6DSXEmulator(whoAmI: 0x70)
        let driver = try LSM6DSXFIFODriver(bus: emulator)
        #expect(try emulator.readRegister(address: 0x6A, register: LSM6DSXRegister.fifoControl1) == UInt8(driver.watermarkWords))
        let period = driver.samplePeriodNanoseconds
        emulator.advance(to: 63 * period)  // 64 samples, 128 words: the watermark
        #expect(try emulator.readRegister(address: 0x6A, register: 0x1C) & LSM6DSXRegister.fifoWatermarkFlag != 0)
        let storage = UnsafeMutableBufferPointer<SensorReading>.allocate(capacity: 8)
        defer { storage.deallocate() }
        _ = try driver.drain(into: storage, nowNanoseconds: 0)
        #expect(try emulator.readRegister(address: 0x6A, register: 0x1C) & LSM6DSXRegister.fifoWatermarkFlag == 0)
    }

    @Test func aNACKMidDrainLosesNothingThatWasNotRead() throws {
        let emulator = LSM6DSXEmulator(motion: Self.ramp)
        let driver = try LSM6DSXFIFODriver(bus: emulator)
        let period = driver.samplePeriodNanoseconds
        emulator.advance(to: 30 * period - 1)  // 60 words: three bursts of 20
        let storage = UnsafeMutableBufferPointer<SensorReading>.allocate(capacity: 128)
        defer { storage.deallocate() }
        // The chip stops answering at the FIFO data register: after the status reads, the
        // first burst fails.
        emulator.inject(.inputOutputError(register: LSM6DSXRegister.fifoDataOutTag), count: 1)
        let error = #expect(throws: ChipError.self) { _ = try driver.drain(into: storage, nowNanoseconds: 29 * period) }
        #expect(error?.description.contains("reading the LSM6DSO/LSM6DSOX FIFO") == true)
        #expect(emulator.fifoWords == 60)  // a failed transfer popped nothing
        let result = try driver.drain(into: storage, nowNanoseconds: 29 * period)
        #expect(result.readings == 60 && !result.overflowed)
        let frames = Self.values(storage, count: result.readings)
        #expect(frames.first!.0 == 0 && frames.last!.0 == 29 * period)
        emulator.inject(.noAcknowledge, count: 1)
        let gone = #expect(throws: ChipError.self) { _ = try driver.drain(into: storage, nowNanoseconds: 30 * period) }
        #expect(gone?.description.contains("FIFO mode") == true)
    }

    @Test(arguments: variants.map(\.whoAmI))
    func aResetMidStreamIsRecoveredAndItsGapCounted(whoAmI: UInt8) throws {
        let emulator = LSM6DSXEmulator(whoAmI: whoAmI, motion: Self.ramp)
        let driver = try LSM6DSXFIFODriver(bus: emulator)
        let period = driver.samplePeriodNanoseconds
        let storage = UnsafeMutableBufferPointer<SensorReading>.allocate(capacity: 256)
        defer { storage.deallocate() }
        emulator.advance(to: 10 * period - 1)
        #expect(try driver.drain(into: storage, nowNanoseconds: 9 * period).readings == 20)
        // A brown-out: every register back to its reset value, the FIFO's 5 unread frames gone.
        emulator.advance(to: 15 * period - 1)
        emulator.powerOnReset()
        emulator.advance(to: 20 * period)
        let recovery = try driver.drain(into: storage, nowNanoseconds: 20 * period)
        #expect(recovery.recovered && recovery.readings == 0 && driver.recoveries == 1)
        emulator.advance(to: 25 * period)
        let after = try driver.drain(into: storage, nowNanoseconds: 25 * period)
        #expect(after.readings == 12)
        // The stream resumed: 6 frames since the re-initialisation at 20 periods (the chip's
        // first sample at once), stamped 20 … 25; 9 → 20 is the gap a consumer counts as lost.
        let frames = Self.values(storage, count: after.readings)
        #expect(frames.first!.0 == 20 * period && abs(frames.last!.1 - Double(25 * period) / 1e9) < 0.0013)
    }

    @Test func sampleRateChangesInPlaceAndFlushes() throws {
        let emulator = LSM6DSXEmulator(whoAmI: 0x70, motion: Self.ramp)
        let driver = try LSM6DSXFIFODriver(bus: emulator, rateHertz: 120)
        emulator.advance(to: 50_000_000)
        #expect(emulator.fifoWords > 0)
        let period = try driver.setSampleRate(hertz: 480, dataReadyInterrupt: false)
        #expect(period == 2_083_333 && driver.rateField == 8 && driver.recoveries == 0)
        #expect(emulator.fifoWords == 0)
        #expect(try emulator.readRegister(address: 0x6A, register: LSM6DSXRegister.fifoControl3) == 0x88)
        #expect(try emulator.readRegister(address: 0x6A, register: LSM6DSXRegister.int1Control) == 0)
        #expect(emulator.nextDataReadyNanoseconds == nil)
        emulator.advance(to: 50_000_000 + 10 * period - 1)
        let storage = UnsafeMutableBufferPointer<SensorReading>.allocate(capacity: 64)
        defer { storage.deallocate() }
        #expect(try driver.drain(into: storage, nowNanoseconds: 0).readings == 20)
    }

    @Test func theLSM6DS3HasNoTaggedFIFO() {
        for whoAmI: UInt8 in [0x69, 0x6A] {
            let error = #expect(throws: ChipError.self) { _ = try LSM6DSXFIFODriver(bus: LSM6DSXEmulator(whoAmI: whoAmI)) }
            #expect(error?.description.contains("tagged FIFO") == true)
        }
    }

    @Test func decimatedBatchRateKeepsEveryOtherSample() throws {
        // BDR_XL one code below the ODR: the accelerometer batched every other sample, the
        // gyroscope every sample; the driver pairs what shares a slot and drops the rest.
        let emulator = LSM6DSXEmulator(motion: Self.ramp)
        let driver = try LSM6DSXFIFODriver(bus: emulator, rateHertz: 104)
        try emulator.writeRegister(address: 0x6A, register: LSM6DSXRegister.fifoControl3, value: 0x43)
        try emulator.writeRegister(address: 0x6A, register: LSM6DSXRegister.fifoControl4, value: 0)
        try emulator.writeRegister(address: 0x6A, register: LSM6DSXRegister.fifoControl4, value: 6)
        try emulator.writeRegister(address: 0x6A, register: LSM6DSXRegister.control1Accelerometer, value: 0x48)
        emulator.advance(to: 8 * driver.samplePeriodNanoseconds - 1)
        #expect(emulator.fifoWords == 12)  // 8 gyroscope + 4 accelerometer words
        let storage = UnsafeMutableBufferPointer<SensorReading>.allocate(capacity: 64)
        defer { storage.deallocate() }
        // Samples 0, 2, 4, 6 pair; the lone gyroscope words of 1, 3, 5 are dropped, 7's waits.
        #expect(try driver.drain(into: storage, nowNanoseconds: 0).readings == 8 && driver.unpairedWords == 3)
    }
}
