import FixedPoint
public import MotionAlgorithms
public import SensorBus

/// An LSM6DS3 / LSM6DS3TR-C read through its pattern FIFO (`LSM6DS3FIFORegister`): both sensors
/// undecimated at the FIFO rate = the ODR, continuous mode, so the FIFO holds six-word frames
/// Gx Gy Gz Ax Ay Az with no tags; each drain reads FIFO_STATUS1…4 (unread words, overrun,
/// FIFO_PATTERN) in one burst and whole frames in bursts of up to 20.
///
/// Nothing in a word says which it is, so the driver keeps the frame boundary from the chip's
/// own count: a drain that finds FIFO_PATTERN ≠ 0 (a read that stopped mid-frame, an overrun
/// that overwrote part of the oldest frame) reads and drops the words up to the next frame and
/// counts them in `realignedWords`. An overrun is counted in `overflows` and reported; the
/// frames left are read (the lost ones show as the gap before them, in the engine's counts).
///
/// A reset chip (FIFO back in bypass, every register cleared) is found after the data: each
/// drain ends by reading FIFO_CTRL3…5 in one burst, and a FIFO no longer configured as this
/// driver left it (a reset, or another program's write to the decimations or the mode) means
/// the words read may be the empty FIFO's zeros after a reset mid-burst, or not six-word
/// frames: that drain's frames are discarded (`discardedFrames`), the chip re-initialised and
/// the recovery counted. So is a FIFO_PATTERN past the six-word pattern.
public final class LSM6DS3FIFODriver<Bus: I2CBus>: LSM6DSXFIFOBase<Bus>, FIFOInertialDriver {
    /// The LSM6DS3TR-C's 2046 words (341 frames), also for a chip answering 0x69: the LSM6DS3H
    /// shares that WHO_AM_I with half the LSM6DS3's FIFO.
    public var fifoCapacityFrames: Int { LSM6DS3FIFORegister.capacityWords(whoAmI: 0x6A) / LSM6DS3FIFORegister.patternWords }
    /// FIFO_CTRL1/2 FTH, words: WaterM rises at a quarter of the LSM6DS3TR-C's FIFO; the engine
    /// polls sooner, so the flag is informative only.
    public let watermarkWords = 512
    /// Words dropped to bring a drain back to a frame's first word (FIFO_PATTERN ≠ 0).
    public private(set) var realignedWords = 0
    /// Frames read in a drain after which the FIFO was found reset or reconfigured: not given out.
    public private(set) var discardedFrames = 0

    /// Variants with the pattern FIFO.
    public static var variants: [LSM6DSXTable.Variant] { LSM6DSXTable.variants.filter { $0.map == .lsm6ds3 } }

    public init(bus: Bus, address: UInt8 = 0x6A, rateHertz: Int = 104, dataReadyInterrupt: Bool = true) throws(ChipError) {
        super.init(bus: bus, address: address, rateHertz: rateHertz, dataReadyInterrupt: dataReadyInterrupt, variant: LSM6DSXTable.variants[1])
        try initialise()
    }

    private func initialise() throws(ChipError) {
        try identifyAndReset(among: Self.variants, family: "LSM6DSx with the pattern FIFO (LSM6DS3, LSM6DS3TR-C)")
        let what = "configuring the \(variant.name) FIFO"
        try access.write(LSM6DS3FIFORegister.control1, UInt8(watermarkWords & 0xFF), what)
        try access.write(LSM6DS3FIFORegister.control2, UInt8(watermarkWords >> 8), what)  // FTH[10:8]; no temperature, no step counter
        try access.write(LSM6DS3FIFORegister.control3, LSM6DS3FIFORegister.bothUndecimated, what)
        try access.write(LSM6DS3FIFORegister.control4, 0, what)
        try access.write(LSM6DS3FIFORegister.control5, control5(LSM6DSXRegister.fifoModeContinuous), what)
        try settings.write(access, chip: variant.name)
    }

    /// FIFO_CTRL5: ODR_FIFO = the sensors' ODR code, and `mode`.
    private func control5(_ mode: UInt8) -> UInt8 { settings.rateField << LSM6DS3FIFORegister.fifoRateShift | mode }

    /// FIFO_STATUS1…4: unread words (DIFF_FIFO), OVER_RUN and FIFO_PATTERN.
    private func readFIFOStatus(_ what: @autoclosure () -> String) throws(ChipError) -> (words: Int, overran: Bool, pattern: Int) {
        var status = UInt32(0)
        try withUnsafeMutableBytes(of: &status) { (buffer) throws(ChipError) in
            try access.attempt(what()) { () throws(BusError) in
                try bus.readRegisters(address: address, register: LSM6DS3FIFORegister.status1, into: buffer)
            }
        }
        let value = UInt32(littleEndian: status)
        let words = Int(value & 0xFFFF) & LSM6DS3FIFORegister.countMask(whoAmI: variant.whoAmI)
        return (words, UInt8(value >> 8 & 0xFF) & LSM6DS3FIFORegister.overrunFlag != 0, Int(value >> 16) & LSM6DS3FIFORegister.patternMask)
    }

    /// Whether FIFO_CTRL3…5 (one burst) still hold what `initialise` wrote: both sensors
    /// undecimated, no third or fourth data set, continuous mode at the ODR.
    private func fifoIsAsConfigured() throws(ChipError) -> Bool {
        var control = (UInt16(0), UInt8(0))  // FIFO_CTRL3, FIFO_CTRL4, FIFO_CTRL5
        try withUnsafeMutableBytes(of: &control) { (buffer) throws(ChipError) in
            try access.attempt("reading the \(variant.name) FIFO configuration (FIFO_CTRL3…5)") { () throws(BusError) in
                try bus.readRegisters(address: address, register: LSM6DS3FIFORegister.control3, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<3]))
            }
        }
        return withUnsafeBytes(of: control) { bytes in
            bytes[0] == LSM6DS3FIFORegister.bothUndecimated && bytes[1] == 0 && bytes[2] == control5(LSM6DSXRegister.fifoModeContinuous)
        }
    }

    /// Reads `words` FIFO words (at most a frame's) and drops them.
    private func skip(_ words: Int) throws(ChipError) {
        var discard = (UInt64(0), UInt32(0))  // 12 bytes: up to five words
        try withUnsafeMutableBytes(of: &discard) { (buffer) throws(ChipError) in
            let bytes = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<(2 * words)])
            try access.attempt("realigning the \(variant.name) FIFO to a frame") { () throws(BusError) in
                try bus.readRegisters(address: address, register: LSM6DS3FIFORegister.dataOutLow, into: bytes)
            }
        }
    }

    /// Changes both sensors' ODR and ODR_FIFO in place (no SW_RESET, which clears every
    /// register): CTRL1_XL/CTRL2_G take the new code with the same full scales, INT1_CTRL
    /// routes data ready as asked, an overrun since the last drain is counted, then FIFO_CTRL5
    /// goes to bypass (which empties the FIFO) and back to continuous at the new FIFO rate.
    public func setSampleRate(hertz: Int, dataReadyInterrupt: Bool) throws(ChipError) -> Int64 {
        let what = try changeRate(hertz: hertz, dataReadyInterrupt: dataReadyInterrupt)
        if try readFIFOStatus(what).overran { overflows += 1 }
        try access.write(LSM6DS3FIFORegister.control5, control5(LSM6DSXRegister.fifoModeBypass), what)
        try access.write(LSM6DS3FIFORegister.control5, control5(LSM6DSXRegister.fifoModeContinuous), what)
        return samplePeriodNanoseconds
    }

    /// Reads the FIFO's complete frames into `readings` (acceleration then angular velocity per
    /// frame), stamped backwards from `nowNanoseconds` (the newest frame in the FIFO) at the
    /// sample period; at most `readings.count / 2` frames, the oldest, the rest stay for the
    /// next call.
    public func drain(into readings: UnsafeMutableBufferPointer<SensorReading>, nowNanoseconds: Int64) throws(ChipError) -> FIFODrainResult {
        let status = try readFIFOStatus("reading the \(variant.name) FIFO status")
        if status.overran { overflows += 1 }
        var frames = 0
        var result = FIFODrainResult(readings: 0, overflowed: status.overran, recovered: false)
        // FIFO_PATTERN past the six-word pattern is not this driver's configuration: nothing is
        // read, and the chip is re-initialised below.
        if status.pattern < LSM6DS3FIFORegister.patternWords {
            let realign = min(status.words, (LSM6DS3FIFORegister.patternWords - status.pattern) % LSM6DS3FIFORegister.patternWords)
            if realign > 0 {
                try skip(realign)
                realignedWords += realign
            }
            let waiting = (status.words - realign) / LSM6DS3FIFORegister.patternWords
            frames = min(waiting, readings.count / 2)
            // The newest frame waiting is the one taken at `nowNanoseconds`; when the buffer takes
            // fewer (a caller's buffer shorter than the FIFO's 341 frames), these are the oldest.
            let newest = nowNanoseconds - Int64(waiting - frames) * samplePeriodNanoseconds
            let accelerometerLSB = settings.accelerometerScale.nanoUnitsPerLSB, gyroscopeLSB = settings.gyroscopeScale.nanoUnitsPerLSB
            result.readings = try drainFrames(frames, samplePeriodNanoseconds: samplePeriodNanoseconds, nowNanoseconds: newest, into: readings,
                                              read: { (bytes) throws(ChipError) in
                try access.attempt("reading the \(variant.name) FIFO") { () throws(BusError) in
                    try bus.readRegisters(address: address, register: LSM6DS3FIFORegister.dataOutLow, into: bytes)
                }
            }, decode: { frame in
                (CountConversion.littleEndianVector(frame, at: 6, nanoUnitsPerLSB: accelerometerLSB),
                 CountConversion.littleEndianVector(frame, at: 0, nanoUnitsPerLSB: gyroscopeLSB))
            }).readings
        }
        guard try fifoIsAsConfigured(), status.pattern < LSM6DS3FIFORegister.patternWords else {
            try initialise()
            recoveries += 1
            discardedFrames += frames
            return FIFODrainResult(readings: 0, overflowed: status.overran, recovered: true)
        }
        return result
    }
}
