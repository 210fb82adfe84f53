/// QMC5883L magnetometer (QST; the chip on most GY-271 boards, often sold as "HMC5883L")
/// register map: QST QMC5883L datasheet rev 1.0, §9 (register map, table 13). Outputs are
/// little endian, x, y, z. Its address, 0x0D, and its register layout differ from the
/// Honeywell HMC5883L's (0x1E): the two are told apart by their registers, not the label.
public enum QMC5883LRegister {
    /// XOUT LSB, MSB, then YOUT, ZOUT (0x00…0x05, 16-bit two's complement).
    public static let outXLow: UInt8 = 0x00
    /// Status: DRDY bit 0 (new data), OVL bit 1 (an axis out of range), DOR bit 2 (a sample
    /// was skipped). DRDY and DOR clear when any data register (0x00…0x05) is read.
    public static let status: UInt8 = 0x06
    /// TOUT LSB, MSB (0x07…0x08): relative temperature, not calibrated in absolute terms.
    public static let temperatureLow: UInt8 = 0x07
    /// Control 1: OSR bits 7:6, RNG bits 5:4 (00 ±2 G, 01 ±8 G), ODR bits 3:2 (00 10 Hz,
    /// 01 50 Hz, 10 100 Hz, 11 200 Hz), MODE bits 1:0 (00 standby, 01 continuous).
    public static let control1: UInt8 = 0x09
    /// Control 2: SOFT_RST bit 7 (restores every register's default), ROL_PNT bit 6 (pointer
    /// roll-over 0x06 → 0x00), INT_ENB bit 0.
    public static let control2: UInt8 = 0x0A
    /// SET/RESET period (FBR); the datasheet recommends 0x01.
    public static let setResetPeriod: UInt8 = 0x0B
    /// Chip ID register: reads 0xFF.
    public static let chipID: UInt8 = 0x0D
    public static let identity: UInt8 = 0xFF

    public static let address: UInt8 = 0x0D
    public static let softReset: UInt8 = 0x80
    public static let recommendedSetResetPeriod: UInt8 = 0x01
    /// OSR 512 (00), ±8 G (01), 100 Hz (10), continuous (01): 0b00_01_10_01.
    public static let continuous100HzEightGauss: UInt8 = 0x19
    /// Sensitivity (datasheet table 2): 12000 LSB/G at ±2 G, 3000 LSB/G at ±8 G; 1 G = 100 µT,
    /// so one count is 1/120 µT or 1/30 µT (exact as the ratio 1 / `countsPerMicrotesla`).
    public static func countsPerMicrotesla(rangeBits: UInt8) -> Int64 { rangeBits & 0x01 == 0 ? 120 : 30 }
    /// Output data rates by the ODR field, in Hz.
    public static let ratesHertz: [Int64] = [10, 50, 100, 200]
}
