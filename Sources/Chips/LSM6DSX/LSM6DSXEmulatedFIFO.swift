/// The tagged FIFO of an emulated LSM6DSO / LSM6DSV16X at register level: 7-byte words
/// (FIFO_DATA_OUT_TAG + x, y, z), as many as `capacityWords` gives its map, filled in
/// continuous mode (the oldest word overwritten when full, FIFO_OVR_IA and FIFO_OVR_LATCHED
/// set) or in FIFO mode (batching stops when full), emptied by bypass mode, read a word at a
/// time through 0x78…0x7E (the word pops after its last byte, 0x7E).
struct LSM6DSXEmulatedFIFO {
    private(set) var words: [UInt8] = []
    /// FIFO_OVR_IA: full and overwritten; cleared once a word has been read.
    private(set) var overrun = false
    /// FIFO_OVR_LATCHED: an overrun since FIFO_STATUS2 was last read.
    private(set) var overrunLatched = false
    /// Words overwritten since power-on (what a driver should count as lost).
    private(set) var droppedWords = 0

    let capacityWords: Int

    init(capacityWords: Int) {
        self.capacityWords = capacityWords
        words.reserveCapacity(capacityWords * LSM6DSXRegister.fifoWordBytes)
    }

    var count: Int { words.count / LSM6DSXRegister.fifoWordBytes }

    mutating func clear() {
        words.removeAll(keepingCapacity: true)
        overrun = false
        overrunLatched = false
    }

    /// Appends one word in `mode` (FIFO_CTRL4 FIFO_MODE): tag byte then 6 data bytes.
    mutating func push(tag: UInt8, data: ArraySlice<UInt8>, mode: UInt8) {
        if count >= capacityWords {
            guard mode == LSM6DSXRegister.fifoModeContinuous else { return }  // FIFO mode: stops when full
            words.removeFirst(LSM6DSXRegister.fifoWordBytes)
            droppedWords += 1
            overrun = true
            overrunLatched = true
        }
        words.append(tag)
        words.append(contentsOf: data)
    }

    /// Byte `offset` (0 = the tag) of the oldest word; an empty FIFO reads 0 (no sensor tag).
    func byte(_ offset: Int) -> UInt8 { offset < words.count ? words[offset] : 0 }

    /// Removes the oldest word (its last byte was read).
    mutating func pop() {
        guard !words.isEmpty else { return }
        words.removeFirst(LSM6DSXRegister.fifoWordBytes)
        overrun = false
    }

    /// FIFO_STATUS1 and FIFO_STATUS2 for a watermark (0: none) and DIFF_FIFO's width.
    func status(watermark: Int, countMask: Int) -> (UInt8, UInt8) {
        let unread = min(count, countMask)
        var flags: UInt8 = 0
        if watermark > 0 && count >= watermark { flags |= LSM6DSXRegister.fifoWatermarkFlag }
        if overrun { flags |= LSM6DSXRegister.fifoOverrunFlag }
        if count >= capacityWords { flags |= LSM6DSXRegister.fifoFullFlag }
        if overrunLatched { flags |= LSM6DSXRegister.fifoOverrunLatchedFlag }
        return (UInt8(unread & 0xFF), flags | UInt8(unread >> 8))
    }

    /// Reading FIFO_STATUS2 clears FIFO_OVR_LATCHED.
    mutating func statusRead() { overrunLatched = false }
}
