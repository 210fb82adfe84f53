/// The pattern FIFO of an emulated LSM6DS3 / LSM6DS3TR-C at register level (see
/// `LSM6DS3FIFORegister`): at each FIFO tick the gyroscope's data set, then the
/// accelerometer's, each on the ticks its decimation keeps; 16-bit words with no tags, each
/// remembering its place in the recursive pattern (what FIFO_PATTERN reports); continuous mode
/// overwrites the oldest word when full (OVER_RUN), FIFO mode stops; bypass empties it.
///
/// The datasheets do not say whether an overrun overwrites a word or a whole data set at a
/// time: word by word is the harsher case (the oldest frame left may start mid-pattern), and
/// FIFO_PATTERN tells a driver where it stands either way.
struct LSM6DS3EmulatedFIFO {
    /// Unread words, oldest first, with their place in the pattern.
    private var words: [(value: UInt16, position: Int)] = []
    /// OVER_RUN: a word was overwritten; cleared once a word has been read.
    private(set) var overrun = false
    /// Words overwritten since power-on (what a driver should count as lost).
    private(set) var droppedWords = 0
    /// FIFO ticks since the FIFO was last emptied: the decimations' phase.
    private var tick = 0
    /// The place in the pattern of the next word written.
    private var nextPosition = 0

    let capacityWords: Int

    init(capacityWords: Int) {
        self.capacityWords = capacityWords
        words.reserveCapacity(capacityWords)
    }

    var count: Int { words.count }

    mutating func clear() {
        words.removeAll(keepingCapacity: true)
        overrun = false
        tick = 0
        nextPosition = 0
    }

    /// One FIFO tick: the data sets FIFO_CTRL3 (`decimation`) keeps, gyroscope first, from the
    /// output registers' little-endian bytes, in FIFO_MODE `mode`.
    mutating func tick(gyroscope: ArraySlice<UInt8>, accelerometer: ArraySlice<UInt8>, decimation: UInt8, mode: UInt8) {
        let factors = [Int(decimation >> 3 & 0x07), Int(decimation & 0x07)].map { LSM6DS3FIFORegister.decimationFactors[$0] }
        // The pattern spans the least common multiple of the factors in use.
        let period = factors.filter { $0 > 0 }.reduce(1) { lcm($0, $1) }
        for (factor, bytes) in zip(factors, [gyroscope, accelerometer]) where factor > 0 && tick % factor == 0 {
            for axis in 0..<LSM6DS3FIFORegister.dataSetWords {
                let low = bytes[bytes.startIndex + 2 * axis], high = bytes[bytes.startIndex + 2 * axis + 1]
                push(UInt16(high) << 8 | UInt16(low), mode: mode)
            }
        }
        tick += 1
        if tick % period == 0 { nextPosition = 0 }
    }

    private mutating func push(_ value: UInt16, mode: UInt8) {
        defer { nextPosition += 1 }
        if words.count >= capacityWords {
            guard mode == LSM6DSXRegister.fifoModeContinuous else { return }  // FIFO mode: stops when full
            words.removeFirst()
            droppedWords += 1
            overrun = true
        }
        words.append((value, nextPosition))
    }

    /// FIFO_DATA_OUT_L (0) or _H (1) of the oldest word; an empty FIFO reads 0.
    func byte(_ offset: Int) -> UInt8 {
        guard let word = words.first else { return 0 }
        return UInt8(truncatingIfNeeded: offset == 0 ? word.value : word.value >> 8)
    }

    /// Removes the oldest word (its high byte was read).
    mutating func pop() {
        guard !words.isEmpty else { return }
        words.removeFirst()
        overrun = false
    }

    /// FIFO_STATUS1…4 for a watermark in words (0: none) and DIFF_FIFO's mask.
    func status(watermark: Int, countMask: Int) -> [UInt8] {
        let unread = min(words.count, countMask)
        var flags: UInt8 = 0
        if watermark > 0 && words.count >= watermark { flags |= LSM6DS3FIFORegister.watermarkFlag }
        if overrun { flags |= LSM6DS3FIFORegister.overrunFlag }
        if words.count + LSM6DS3FIFORegister.patternWords > capacityWords { flags |= LSM6DS3FIFORegister.fullFlag }
        if words.isEmpty { flags |= LSM6DS3FIFORegister.emptyFlag }
        let pattern = (words.first?.position ?? nextPosition) & LSM6DS3FIFORegister.patternMask
        return [UInt8(unread & 0xFF), flags | UInt8(unread >> 8), UInt8(pattern & 0xFF), UInt8(pattern >> 8)]
    }

    private func lcm(_ a: Int, _ b: Int) -> Int {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return a / x * b
    }
}
