/// The pattern FIFO of the LSM6DS3 (WHO_AM_I 0x69) and LSM6DS3TR-C (0x6A): no tags, 16-bit
/// words in a fixed order that the host must keep count of.
///
/// Sources: ST's LSM6DS3TR-C datasheet, §9 "Register description" (FIFO_CTRL1…5 at 0x06…0x0A,
/// FIFO_STATUS1…4 at 0x3A…0x3D, FIFO_DATA_OUT_L/H at 0x3E/0x3F), and the LSM6DS3's (its
/// application note AN4650, DocID027415, its FIFO chapter); bit positions
/// cross-checked field by field against ST's register header lsm6ds3tr-c_reg.h, the FIFO sizes
/// and DIFF_FIFO widths against the Linux st_lsm6dsx_core.c rows for 0x69 and 0x6A. The
/// reading procedure is the LSM6DSL datasheet's §5.5.6 (DocID028475), the same FIFO.
///
/// Each FIFO ODR tick writes "data sets" of three words (x, y, z): the gyroscope's first, then
/// the accelerometer's, each only on the ticks its decimation keeps. The sequence repeats: the
/// recursive pattern, and FIFO_PATTERN says which of its words the next read returns. With
/// both sensors undecimated (what `LSM6DS3FIFODriver` sets) the pattern is six words:
/// Gx Gy Gz Ax Ay Az, FIFO_PATTERN 0…5.
public enum LSM6DS3FIFORegister {
    /// FIFO_CTRL1: FTH[7:0], the watermark in 16-bit words.
    public static let control1: UInt8 = 0x06
    /// FIFO_CTRL2: FTH[10:8] in bits 2:0 (LSM6DS3TR-C; FTH[11:8] in 3:0 on the LSM6DS3),
    /// FIFO_TEMP_EN bit 3, TIMER_PEDO_FIFO_DRDY bit 6, TIMER_PEDO_FIFO_EN bit 7 (all 0 here).
    public static let control2: UInt8 = 0x07
    /// FIFO_CTRL3: DEC_FIFO_GYRO[5:3], DEC_FIFO_XL[2:0]: 0 not in the FIFO, 1 every FIFO tick,
    /// 2…7 every 2nd, 3rd, 4th, 8th, 16th, 32nd (`decimationFactors`).
    public static let control3: UInt8 = 0x08
    /// FIFO_CTRL4: STOP_ON_FTH bit 7, ONLY_HIGH_DATA bit 6, DEC_DS4_FIFO[5:3], DEC_DS3_FIFO[2:0]
    /// (the third and fourth data sets: external sensors, step counter, temperature; 0 here).
    public static let control4: UInt8 = 0x09
    /// FIFO_CTRL5: ODR_FIFO[6:3] (the FIFO's write rate; its codes are CTRL1_XL's ODR codes,
    /// 1 = 12.5 Hz … 8 = 1.66 kHz, 0 = FIFO disabled), FIFO_MODE[2:0]: 000 bypass (emptied),
    /// 001 FIFO (stops when full), 110 continuous (the oldest data overwritten when full). The
    /// mode field sits where the tagged map's FIFO_CTRL4 keeps its own, with the same codes
    /// (`LSM6DSXRegister.fifoModeBypass` …).
    public static let control5: UInt8 = 0x0A
    public static let fifoRateShift: UInt8 = 3
    /// FIFO_STATUS1: DIFF_FIFO[7:0], the unread words.
    public static let status1: UInt8 = 0x3A
    /// FIFO_STATUS2 (0x3B): WaterM bit 7 (unread ≥ FTH), OVER_RUN bit 6 (full and overwritten),
    /// FIFO_FULL_SMART bit 5 (full at the next tick), FIFO_EMPTY bit 4, DIFF_FIFO[10:8] in bits
    /// 2:0 (LSM6DS3TR-C; DIFF_FIFO[11:8] in 3:0 on the LSM6DS3).
    public static let watermarkFlag: UInt8 = 0x80
    public static let overrunFlag: UInt8 = 0x40
    public static let fullFlag: UInt8 = 0x20
    public static let emptyFlag: UInt8 = 0x10
    /// FIFO_STATUS3/4 (0x3C/0x3D): FIFO_PATTERN[9:0], the place in the recursive pattern of the
    /// word the next read returns.
    public static let patternMask = 0x3FF
    /// FIFO_DATA_OUT_L/H: the oldest word, low byte then high; it leaves the FIFO once its
    /// high byte is read. A burst from 0x3E with IF_INC wraps from 0x3F back to 0x3E, word after
    /// word (the kernel's st_lsm6dsx_read_fifo reads whole patterns in one transfer this way).
    public static let dataOutLow: UInt8 = 0x3E

    /// FIFO_CTRL3 with DEC_FIFO_GYRO = DEC_FIFO_XL = 001: both sensors at every FIFO tick.
    public static let bothUndecimated: UInt8 = 1 << 3 | 1
    /// DEC_FIFO codes 0…7 → keep every n-th FIFO tick (0: the sensor is not in the FIFO).
    public static let decimationFactors = [0, 1, 2, 3, 4, 8, 16, 32]
    /// Words per data set (x, y, z) and per undecimated pattern (gyroscope, accelerometer).
    public static let dataSetWords = 3
    public static let patternWords = 6

    /// DIFF_FIFO's width: 12 bits on the LSM6DS3 (0x69), 11 on the LSM6DS3TR-C (0x6A).
    public static func countMask(whoAmI: UInt8) -> Int { whoAmI == 0x69 ? 0xFFF : 0x7FF }
    /// What the FIFO holds, in words: the LSM6DS3's 8 kbyte make 1365 data sets (4095 words),
    /// the LSM6DS3TR-C's 4 kbyte 682 (2046 words), the kernel's max_fifo_size for each. The
    /// LSM6DS3H answers 0x69 too with a 4 kbyte FIFO: a driver plans with `capacityWords(0x6A)`.
    public static func capacityWords(whoAmI: UInt8) -> Int { whoAmI == 0x69 ? 4095 : 2046 }
}
