public import SensorBus

/// An LSM6DSx at register level, in the register map of the variant its WHO_AM_I names (the
/// LSM6DSO's, or the LSM6DSV16X's: `LSM6DSXRegister`): power-down at reset with IF_INC set,
/// self-clearing SW_RESET, outputs at the accelerometer's ODR with XLDA/GDA (cleared by reading
/// the outputs), auto-increment per IF_INC, the tagged FIFO (`LSM6DSXEmulatedFIFO`: each
/// sensor batched at its BDR, words of one instant sharing TAG_CNT, unread word count,
/// watermark, overrun in continuous mode), the LSM6DS3 / LSM6DS3TR-C's pattern FIFO instead
/// (`LSM6DS3EmulatedFIFO`: FIFO_CTRL5's rate, FIFO_CTRL3's decimations, FIFO_STATUS1…4), and
/// injected faults.
public final class LSM6DSXEmulator: I2CBus, EmulatedChip {
    public typealias MotionSource = (Int64) -> (acceleration: (Double, Double, Double), angularVelocity: (Double, Double, Double))

    public let name = "emulated I2C bus"
    public let address: UInt8
    public var motion: MotionSource
    public private(set) var faults = EmulatedBusFaults()
    /// Fault injection: when true the output registers freeze at their last values (a hung
    /// sensing element) while data-ready signalling and FIFO writes go on, repeating them.
    public var stuckOutput = false
    /// Within a time slot, write the accelerometer's word before the gyroscope's (the
    /// datasheets fix no order; a driver must pair words by TAG_CNT, not by position).
    public var accelerometerWordFirst = false
    /// Fault injection (pattern FIFO): a power-on reset (a brown-out) after this many more FIFO
    /// words have been read, in the middle of a burst; the rest of the burst reads an empty FIFO.
    public var resetAfterFIFOWords: Int?
    private let whoAmI: UInt8
    private let map: LSM6DSXTable.RegisterMap
    private var registers = [UInt8](repeating: 0, count: 128)
    private var fifo: LSM6DSXEmulatedFIFO
    private var patternFIFO: LSM6DS3EmulatedFIFO
    private var nanoseconds: Int64 = 0
    private var nextSampleNanoseconds: Int64 = 0
    /// When the latest sample was taken since the sensors started (nil: none yet).
    private var lastSampleNanoseconds: Int64?
    /// Samples since the sensors started: the batch decimation's phase and TAG_CNT's source.
    private var sampleIndex = 0
    private var tagCount: UInt8 = 0

    public init(address: UInt8 = 0x6A, whoAmI: UInt8 = 0x6C, motion: @escaping MotionSource = { _ in ((0, 0, 9.80665), (0, 0, 0)) }) {
        self.address = address
        self.whoAmI = whoAmI
        map = LSM6DSXTable.variants.first { $0.whoAmI == whoAmI }?.map ?? .lsm6dso
        fifo = LSM6DSXEmulatedFIFO(capacityWords: LSM6DSXTable.fifoCapacityWords(map))
        patternFIFO = LSM6DS3EmulatedFIFO(capacityWords: LSM6DS3FIFORegister.capacityWords(whoAmI: whoAmI))
        self.motion = motion
        powerOnReset()
    }

    public func inject(_ fault: BusFault, count: Int? = nil) { faults.inject(fault, count: count) }

    public func powerOnReset() {
        for index in registers.indices { registers[index] = 0 }
        registers[Int(LSM6DSXRegister.whoAmI)] = whoAmI
        registers[Int(LSM6DSXRegister.control3)] = LSM6DSXRegister.addressIncrement
        fifo.clear()
        patternFIFO.clear()
        lastSampleNanoseconds = nil
    }

    /// Unread FIFO words and words overwritten since power-on (the variant's FIFO).
    public var fifoWords: Int { map.hasTaggedFIFO ? fifo.count : patternFIFO.count }
    public var droppedFIFOWords: Int { map.hasTaggedFIFO ? fifo.droppedWords : patternFIFO.droppedWords }

    private func register(_ address: UInt8) -> UInt8 { registers[Int(address)] }

    /// The accelerometer's ODR field, when it is sampling (nil: power-down). LSM6DSV16X:
    /// OP_MODE_XL is not modelled (every mode samples at the ODR field's rate).
    private var rateField: Int? {
        let control1 = register(LSM6DSXRegister.control1Accelerometer)
        let field = Int(map == .lsm6dsv16x ? control1 & 0x0F : control1 >> 4)
        let table = LSM6DSXTable.rates(map)
        return field < table.count && table[field] > 0 ? field : nil
    }

    /// The LSB sizes the full-scale fields select (LSM6DSO map: CTRL1_XL/CTRL2_G [3:2];
    /// LSM6DSV16X: CTRL8 [1:0], CTRL6 [3:0]); an unknown field reads as the smallest scale.
    private var lsbSizes: (accelerometer: Int64, gyroscope: Int64) {
        let accelerometerField = map == .lsm6dsv16x ? register(LSM6DSXRegister.control8) & 0x03 : register(LSM6DSXRegister.control1Accelerometer) >> 2 & 3
        let gyroscopeField = map == .lsm6dsv16x ? register(LSM6DSXRegister.control6) & 0x0F : register(LSM6DSXRegister.control2Gyroscope) >> 2 & 3
        let accelerometer = LSM6DSXTable.accelerometerScales(map)
        let gyroscope = LSM6DSXTable.gyroscopeScales(map)
        return ((accelerometer.first { $0.field == accelerometerField } ?? accelerometer[0]).nanoUnitsPerLSB,
                (gyroscope.first { $0.field == gyroscopeField } ?? gyroscope[0]).nanoUnitsPerLSB)
    }

    /// FIFO_MODE, when the FIFO batches (FIFO or continuous mode): FIFO_CTRL4 on the tagged
    /// maps, FIFO_CTRL5 on the LSM6DS3's, the same address, bits and codes.
    private var fifoMode: UInt8? {
        let mode = register(LSM6DSXRegister.fifoControl4) & LSM6DSXRegister.fifoModeMask
        let batching = mode == LSM6DSXRegister.fifoModeContinuous || mode == LSM6DSXRegister.fifoModeStopWhenFull
        return batching ? mode : nil
    }

    /// The INT1 pin signals data ready when INT1_CTRL routes INT1_DRDY_XL or INT1_DRDY_G to it.
    public var nextDataReadyNanoseconds: Int64? {
        let routed = register(LSM6DSXRegister.int1Control) & (LSM6DSXRegister.int1DataReadyAccelerometer | LSM6DSXRegister.int1DataReadyGyroscope) != 0
        return routed && rateField != nil ? max(nextSampleNanoseconds, nanoseconds) : nil
    }

    public func advance(to timeNanoseconds: Int64) {
        nanoseconds = timeNanoseconds
        guard let field = rateField, nanoseconds >= nextSampleNanoseconds else { return }
        let period = 1_000_000_000_000 / LSM6DSXTable.rates(map)[field]
        // The output registers hold one sample, the newest due by now; the FIFO batches each.
        while nextSampleNanoseconds <= nanoseconds {
            let time = nextSampleNanoseconds
            nextSampleNanoseconds += period
            lastSampleNanoseconds = time
            if fifoMode != nil || nextSampleNanoseconds > nanoseconds { sample(at: time, rateField: field) }
            sampleIndex += 1
        }
        registers[Int(LSM6DSXRegister.status)] |= 0x03
    }

    private func sample(at time: Int64, rateField: Int) {
        let (acceleration, angularVelocity) = motion(time)
        let lsb = lsbSizes
        if !stuckOutput {
            EmulatedCounts.storeLittleEndian(acceleration, lsb: lsb.accelerometer, denominator: 1e9, into: &registers,
                                             at: Int(LSM6DSXRegister.accelerometerOutXL))
            EmulatedCounts.storeLittleEndian(angularVelocity, lsb: lsb.gyroscope, denominator: 1e9, into: &registers,
                                             at: Int(LSM6DSXRegister.gyroscopeOutXL))
        }
        guard let mode = fifoMode else { return }
        guard map.hasTaggedFIFO else {
            // Pattern FIFO: it ticks at ODR_FIFO, a division of the ODR like a BDR.
            let fifoRate = register(LSM6DS3FIFORegister.control5) >> LSM6DS3FIFORegister.fifoRateShift & 0x0F
            guard batches(fifoRate, rateField: rateField) else { return }
            let gyroscope = Int(LSM6DSXRegister.gyroscopeOutXL), accelerometer = Int(LSM6DSXRegister.accelerometerOutXL)
            patternFIFO.tick(gyroscope: registers[gyroscope..<(gyroscope + 6)], accelerometer: registers[accelerometer..<(accelerometer + 6)],
                             decimation: register(LSM6DS3FIFORegister.control3), mode: mode)
            return
        }
        let rates = register(LSM6DSXRegister.fifoControl3)
        let accelerometer = batches(rates & 0x0F, rateField: rateField)
        let gyroscope = batches(rates >> 4, rateField: rateField)
        guard accelerometer || gyroscope else { return }
        let accelerometerWord = (LSM6DSXRegister.tagAccelerometer, Int(LSM6DSXRegister.accelerometerOutXL))
        let gyroscopeWord = (LSM6DSXRegister.tagGyroscope, Int(LSM6DSXRegister.gyroscopeOutXL))
        let order = accelerometerWordFirst ? [(accelerometerWord, accelerometer), (gyroscopeWord, gyroscope)]
                                           : [(gyroscopeWord, gyroscope), (accelerometerWord, accelerometer)]
        // TAG_PARITY (bit 0) is not modelled: drivers here and the kernel's ignore it.
        for ((sensor, start), batched) in order where batched {
            fifo.push(tag: sensor << 3 | tagCount << 1, data: registers[start..<(start + 6)], mode: mode)
        }
        tagCount = (tagCount + 1) & 0x03
    }

    /// Whether a sensor with batch rate code `code` is batched at this sample. BDR codes are
    /// the map's ODR codes; a BDR below the ODR keeps every 2^(ODR − BDR)-th sample (the rate
    /// tables double from code to code); 0 (and codes past the table: the LSM6DSO map's
    /// 1.6/6.5 Hz code 0xB) is not batched.
    private func batches(_ code: UInt8, rateField: Int) -> Bool {
        let table = LSM6DSXTable.rates(map)
        guard code > 0, Int(code) < table.count, table[Int(code)] > 0 else { return false }
        guard Int(code) < rateField else { return true }
        return sampleIndex % (1 << (rateField - Int(code))) == 0
    }

    /// The first sample after CTRL1 is written. From power-down: at once. An ODR changed while
    /// sampling: modelled as one new period after the last sample at the old rate (the rates
    /// are divisions of one internal clock, whose phase goes on), or the next such step after
    /// the write if that moment has passed; the datasheets do not say.
    private func firstSample(wasSampling: Bool) -> Int64 {
        guard wasSampling, let last = lastSampleNanoseconds, let field = rateField else {
            lastSampleNanoseconds = nil
            return nanoseconds
        }
        let period = 1_000_000_000_000 / LSM6DSXTable.rates(map)[field]
        var next = last + period
        if next < nanoseconds { next += (nanoseconds - next + period - 1) / period * period }
        return next
    }

    private var fifoStatus1: UInt8 {
        map == .lsm6dsv16x ? LSM6DSXRegister.fifoStatus1LSM6DSV16X : LSM6DSXRegister.fifoStatus1LSM6DSO
    }

    /// FIFO_CTRL1 WTM[7:0], with WTM8 (FIFO_CTRL2 bit 0) on the LSM6DSO map.
    private var watermark: Int {
        Int(register(LSM6DSXRegister.fifoControl1)) | (map == .lsm6dso ? Int(register(LSM6DSXRegister.fifoControl2) & 1) << 8 : 0)
    }

    /// FIFO_STATUS1…4 of the pattern FIFO: FTH from FIFO_CTRL1/2 (as wide as DIFF_FIFO).
    private var patternStatus: [UInt8] {
        let mask = LSM6DS3FIFORegister.countMask(whoAmI: whoAmI)
        let threshold = (Int(register(LSM6DS3FIFORegister.control1)) | Int(register(LSM6DS3FIFORegister.control2)) << 8) & mask
        return patternFIFO.status(watermark: threshold, countMask: mask)
    }

    /// The high byte of the pattern FIFO's oldest word was read: it leaves, and an armed
    /// `resetAfterFIFOWords` counts down.
    private func popPatternWord() {
        patternFIFO.pop()
        guard let left = resetAfterFIFOWords else { return }
        resetAfterFIFOWords = left > 1 ? left - 1 : nil
        if left <= 1 { powerOnReset() }
    }

    public func readRegisters(address: UInt8, register start: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: start, length: buffer.count)
        let increments = register(LSM6DSXRegister.control3) & LSM6DSXRegister.addressIncrement != 0
        let status = fifo.status(watermark: watermark, countMask: map == .lsm6dsv16x ? 0x1FF : 0x3FF)
        let tagged = map.hasTaggedFIFO
        let pattern = tagged ? [] : patternStatus
        let patternStatus1 = Int(LSM6DS3FIFORegister.status1), patternData = Int(LSM6DS3FIFORegister.dataOutLow)
        var index = Int(start)
        var readStatus2 = false
        for offset in 0..<buffer.count {
            switch index {
            case Int(fifoStatus1) where tagged: buffer[offset] = status.0
            case Int(fifoStatus1) + 1 where tagged:
                buffer[offset] = status.1
                readStatus2 = true
            case Int(LSM6DSXRegister.fifoDataOutTag)...(Int(LSM6DSXRegister.fifoDataOutTag) + 6) where tagged:
                let position = index - Int(LSM6DSXRegister.fifoDataOutTag)
                buffer[offset] = fifo.byte(position)
                if position == 6 {
                    fifo.pop()
                    if increments { index = Int(LSM6DSXRegister.fifoDataOutTag) - 1 }  // wraps to 0x78 (see the register)
                }
            case patternStatus1...(patternStatus1 + 3) where !tagged: buffer[offset] = pattern[index - patternStatus1]
            case patternData...(patternData + 1) where !tagged:
                buffer[offset] = patternFIFO.byte(index - patternData)
                if index == patternData + 1 {
                    popPatternWord()
                    if increments { index = patternData - 1 }  // wraps to 0x3E (see the register)
                }
            default: buffer[offset] = index < registers.count ? registers[index] : 0
            }
            if increments { index += 1 }
        }
        if readStatus2 { fifo.statusRead() }
        if Int(start) <= Int(LSM6DSXRegister.accelerometerOutXL) + 5 && Int(start) + buffer.count > Int(LSM6DSXRegister.gyroscopeOutXL) {
            registers[Int(LSM6DSXRegister.status)] = 0
        }
    }

    public func writeRegisters(address: UInt8, register start: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: start, length: values.count)
        for (offset, value) in values.enumerated() {
            let index = Int(start) + offset
            guard (0x01...0x1D).contains(index), index != Int(LSM6DSXRegister.whoAmI) else { continue }
            if index == Int(LSM6DSXRegister.control3), value & LSM6DSXRegister.softwareReset != 0 {
                powerOnReset()
                continue
            }
            let wasSampling = rateField != nil
            registers[index] = value
            if index == Int(LSM6DSXRegister.control1Accelerometer) {
                nextSampleNanoseconds = firstSample(wasSampling: wasSampling)
                sampleIndex = 0
            }
            // Bypass mode empties the FIFO (how a driver flushes it).
            if index == Int(LSM6DSXRegister.fifoControl4), value & LSM6DSXRegister.fifoModeMask == LSM6DSXRegister.fifoModeBypass {
                fifo.clear()
                patternFIFO.clear()
            }
        }
    }
}
