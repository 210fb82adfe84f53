import FixedPoint
public import MotionAlgorithms
public import SensorBus

/// An LSM6DSO / LSM6DSOX / ISM330DHCX / LSM6DSV16X read through its tagged FIFO: the chip
/// batches each sensor's samples as 7-byte words (a tag naming the sensor and a 2-bit time
/// slot counter, then x, y, z) in continuous mode, and each drain reads the unread word count
/// and the words in bursts, pairing the accelerometer and gyroscope words of one time slot
/// into a frame.
///
/// Each drain first reads FIFO_CTRL4: a chip that was reset has its FIFO in bypass (000), so
/// it is re-initialised and the recovery counted. An overrun (FIFO_OVR_IA or FIFO_OVR_LATCHED)
/// is counted and reported; unlike an untagged FIFO, the words left are still whole and
/// self-describing, so they are read, not flushed: the frames lost show as a gap before them.
public final class LSM6DSXFIFODriver<Bus: I2CBus>: LSM6DSXFIFOBase<Bus>, FIFOInertialDriver {
    /// Two words per frame.
    public var fifoCapacityFrames: Int { LSM6DSXTable.fifoCapacityWords(variant.map) / 2 }
    /// FIFO_CTRL1 watermark, words: FIFO_WTM_IA (and INT1_FIFO_TH, not routed here) rises at
    /// a quarter of the FIFO (128 of 512 words); the engine polls sooner, so the flag is informative only.
    public let watermarkWords = 128
    /// Words that were neither an accelerometer nor a gyroscope word, or whose partner in
    /// the time slot never came (the start of a stream, an overrun cutting a slot in two).
    public private(set) var unpairedWords = 0
    /// Half a frame carried to the next drain: the slot's first word came, its partner not yet.
    private var pending = PendingSlot()

    /// Variants with a tagged FIFO.
    public static var variants: [LSM6DSXTable.Variant] { LSM6DSXTable.variants.filter { $0.map.hasTaggedFIFO } }

    public init(bus: Bus, address: UInt8 = 0x6A, rateHertz: Int = 104, dataReadyInterrupt: Bool = true) throws(ChipError) {
        super.init(bus: bus, address: address, rateHertz: rateHertz, dataReadyInterrupt: dataReadyInterrupt, variant: LSM6DSXTable.variants[3])
        try initialise()
    }

    private func initialise() throws(ChipError) {
        try identifyAndReset(among: Self.variants, family: "LSM6DSx with a tagged FIFO (LSM6DSO/LSM6DSOX, ISM330DHCX, LSM6DSV16X)")
        pending = PendingSlot()
        let what = "configuring the \(variant.name) FIFO"
        try access.write(LSM6DSXRegister.fifoControl1, UInt8(watermarkWords & 0xFF), what)
        // WTM8 (LSM6DSO map) is 0 for a watermark under 256; the LSM6DSV16X's bit 0 is another
        // field, left 0 too.
        try access.write(LSM6DSXRegister.fifoControl2, 0, what)
        try access.write(LSM6DSXRegister.fifoControl3, batchRates, what)
        try access.write(LSM6DSXRegister.fifoControl4, LSM6DSXRegister.fifoModeContinuous, what)
        try settings.write(access, chip: variant.name)
    }

    /// FIFO_CTRL3: both sensors batched at their ODR (BDR codes are the map's ODR codes).
    private var batchRates: UInt8 { settings.rateField << 4 | settings.rateField }

    /// FIFO_STATUS1 of the variant's map and the width of DIFF_FIFO there.
    private var fifoStatus: (register: UInt8, countMask: Int) {
        variant.map == .lsm6dsv16x ? (LSM6DSXRegister.fifoStatus1LSM6DSV16X, 0x1FF) : (LSM6DSXRegister.fifoStatus1LSM6DSO, 0x3FF)
    }

    /// FIFO_STATUS1/2: unread words and whether the FIFO overran (reading FIFO_STATUS2 clears
    /// FIFO_OVR_LATCHED).
    private func readFIFOStatus(_ what: @autoclosure () -> String) throws(ChipError) -> (words: Int, overran: Bool) {
        var status = UInt16(0)
        let (register, mask) = fifoStatus
        try withUnsafeMutableBytes(of: &status) { (buffer) throws(ChipError) in
            try access.attempt(what()) { () throws(BusError) in
                try bus.readRegisters(address: address, register: register, into: buffer)
            }
        }
        let value = UInt16(littleEndian: status)
        let flags = UInt8(value >> 8)
        return (Int(value) & mask, flags & (LSM6DSXRegister.fifoOverrunFlag | LSM6DSXRegister.fifoOverrunLatchedFlag) != 0)
    }

    /// Changes both sensors' ODR and batch rate in place (no SW_RESET, which clears every
    /// register): CTRL1/CTRL2 (with the same full scales) and FIFO_CTRL3 take the new codes,
    /// INT1_CTRL routes data ready as asked, an overrun since the last drain is counted, then
    /// FIFO_MODE goes to bypass and back to continuous, which empties the FIFO (bypass mode
    /// discards its contents), so that every frame after it is at the new rate.
    public func setSampleRate(hertz: Int, dataReadyInterrupt: Bool) throws(ChipError) -> Int64 {
        let what = try changeRate(hertz: hertz, dataReadyInterrupt: dataReadyInterrupt)
        try access.write(LSM6DSXRegister.fifoControl3, batchRates, what)
        if try readFIFOStatus(what).overran { overflows += 1 }
        try access.write(LSM6DSXRegister.fifoControl4, LSM6DSXRegister.fifoModeBypass, what)
        try access.write(LSM6DSXRegister.fifoControl4, LSM6DSXRegister.fifoModeContinuous, what)
        pending = PendingSlot()
        return samplePeriodNanoseconds
    }

    /// Reads the FIFO's complete frames into `readings` (acceleration then angular velocity per
    /// frame), stamped backwards from `nowNanoseconds` (the newest frame) at the sample period;
    /// at most `readings.count / 2` frames, the rest stay for the next call.
    public func drain(into readings: UnsafeMutableBufferPointer<SensorReading>, nowNanoseconds: Int64) throws(ChipError) -> FIFODrainResult {
        let mode = try access.read(LSM6DSXRegister.fifoControl4, "reading the \(variant.name) FIFO mode")
        if mode & LSM6DSXRegister.fifoModeMask != LSM6DSXRegister.fifoModeContinuous {
            try initialise()
            recoveries += 1
            return FIFODrainResult(readings: 0, overflowed: false, recovered: true)
        }
        let status = try readFIFOStatus("reading the \(variant.name) FIFO status")
        if status.overran {
            overflows += 1
            pending = PendingSlot()  // its partner may have been overwritten
        }
        // A frame is two words: read no more words than the buffer has readings.
        let words = min(status.words, readings.count & ~1)
        var frames = 0
        var decoder = LSM6DSXFIFODecoder(accelerometerNanoUnitsPerLSB: settings.accelerometerScale.nanoUnitsPerLSB,
                                         gyroscopeNanoUnitsPerLSB: settings.gyroscopeScale.nanoUnitsPerLSB, pending: pending)
        var chunk: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)  // 144 bytes: 20 words on the stack
        var done = 0
        while done < words {
            let batch = min(20, words - done)
            try withUnsafeMutableBytes(of: &chunk) { (buffer) throws(ChipError) in
                let bytes = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<(batch * LSM6DSXRegister.fifoWordBytes)])
                try access.attempt("reading the \(variant.name) FIFO") { () throws(BusError) in
                    try bus.readRegisters(address: address, register: LSM6DSXRegister.fifoDataOutTag, into: bytes)
                }
                for word in 0..<batch {
                    let start = word * LSM6DSXRegister.fifoWordBytes
                    let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + LSM6DSXRegister.fifoWordBytes)])
                    guard let frame = decoder.take(raw), 2 * frames + 1 < readings.count else { continue }
                    readings[2 * frames] = SensorReading(timestampNanoseconds: 0, value: .acceleration(frame.acceleration))
                    readings[2 * frames + 1] = SensorReading(timestampNanoseconds: 0, value: .angularVelocity(frame.angularVelocity))
                    frames += 1
                }
            }
            done += batch
        }
        pending = decoder.pending
        unpairedWords += decoder.unpaired
        for frame in 0..<frames {
            let timestamp = nowNanoseconds - Int64(frames - 1 - frame) * samplePeriodNanoseconds
            readings[2 * frame].timestampNanoseconds = timestamp
            readings[2 * frame + 1].timestampNanoseconds = timestamp
        }
        return FIFODrainResult(readings: 2 * frames, overflowed: status.overran, recovered: false)
    }
}
