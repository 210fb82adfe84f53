/// LPS25H barometer register map and settings (ST DocID023722 rev. 5, §7 register
/// description; the Linux st_pressure driver's lps25h settings agree). On I2C a multi-byte read
/// auto-increments only when the sub-address has its MSB set (§5.2.1): 0x80 | register.
public enum LPS25HRegister {
    /// WHO_AM_I (§7.3), reads 0xBD.
    public static let whoAmI: UInt8 = 0x0F
    public static let identity: UInt8 = 0xBD
    /// RES_CONF (§7.4): AVGT[3:2] internal temperature averages (8, 16, 32, 64), AVGP[1:0]
    /// pressure averages (8, 32, 128, 512).
    public static let resolutionConfig: UInt8 = 0x10
    /// CTRL_REG1 (§7.5): PD bit 7 (active), ODR[6:4] (0 one-shot, 1 = 1 Hz, 2 = 7 Hz,
    /// 3 = 12.5 Hz, 4 = 25 Hz), BDU bit 2 (block data update).
    public static let control1: UInt8 = 0x20
    /// CTRL_REG2 (§7.6): BOOT bit 7, SWRESET bit 2 (both self-clearing).
    public static let control2: UInt8 = 0x21
    /// STATUS_REG (§7.12): P_DA bit 1, T_DA bit 0.
    public static let status: UInt8 = 0x27
    /// PRESS_OUT_XL (§7.13): 24-bit two's complement pressure, hPa = counts / 4096; then
    /// TEMP_OUT_L/H at 0x2B (§7.16): °C = 42.5 + counts / 480.
    public static let pressureOutXL: UInt8 = 0x28

    public static let autoIncrement: UInt8 = 0x80
    public static let powerOn: UInt8 = 0x80
    public static let blockDataUpdate: UInt8 = 0x04
    public static let softwareReset: UInt8 = 0x04

    /// Output data rates by ODR field, in millihertz (0: one-shot).
    public static let outputDataRatesMilliHertz: [UInt32] = [0, 1_000, 7_000, 12_500, 25_000]
    /// I2C addresses: SA0 low 0x5C (the Sense HAT), high 0x5D.
    public static let addresses: [UInt8] = [0x5C, 0x5D]
}

/// Counts to SI fixed point: pure functions.
public enum LPS25HConversion {
    /// Pressure in Pa, Q24.8: counts / 4096 hPa × 100 Pa/hPa × 256 = counts × 25 / 4, exact to
    /// ±⅛ LSB before rounding (|counts| < 2²³ so the product < 2²⁸ fits Int32).
    public static func pressureRaw(counts: Int32) -> Int32 {
        let scaled = Int64(counts) * 25
        return Int32((scaled + (scaled >= 0 ? 2 : -2)) / 4)
    }

    /// Temperature in °C, Q16.16: (42.5 + counts / 480) × 65536 = 2 785 280 + counts × 2048 / 15.
    public static func temperatureRaw(counts: Int16) -> Int32 {
        let scaled = Int64(counts) * 2048
        return 2_785_280 + Int32((scaled + (scaled >= 0 ? 7 : -7)) / 15)
    }

    /// A 24-bit two's complement value from XL, L, H bytes.
    @inlinable
    public static func signed24(_ extraLow: UInt8, _ low: UInt8, _ high: UInt8) -> Int32 {
        Int32(bitPattern: UInt32(high) << 24 | UInt32(low) << 16 | UInt32(extraLow) << 8) >> 8  // sign-extending shift
    }
}
