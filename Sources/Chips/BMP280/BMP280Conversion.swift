public import FixedPoint

/// The datasheet's integer compensation (BST-BMP280-DS001 §8.2, "32 bit" temperature and
/// "64 bit" pressure), as pure functions: no I/O, no hidden state (t_fine is passed, not kept;
/// the kernel's 2024 bmp280 refactor made the same split).
public enum BMP280Conversion {
    /// t_fine, the fine temperature the pressure formula needs, from the 20-bit adc_T.
    /// Datasheet example: adc_T = 519888 → t_fine = 128422.
    public static func fineTemperature(adcTemperature: Int32, _ calibration: BMP280Calibration) -> Int32 {
        // Arithmetic (sign-extending) shifts, as the datasheet's C does on BMP280_S32_t, and
        // wrapping operations: a real chip's trimming keeps every step within Int32 (the example
        // peaks at 2.0 × 10⁹), while garbage read from a broken bus must give garbage, not a trap.
        let t1 = Int32(calibration.t1), t2 = Int32(calibration.t2), t3 = Int32(calibration.t3)
        let var1 = (((adcTemperature >> 3) &- (t1 << 1)) &* t2) >> 11
        let delta = (adcTemperature >> 4) &- t1
        let var2 = (((delta &* delta) >> 12) &* t3) >> 14
        return var1 &+ var2
    }

    /// Temperature in 0.01 °C from t_fine (example: 128422 → 2508, i.e. 25.08 °C).
    public static func temperatureCentidegrees(fineTemperature: Int32) -> Int32 {
        (fineTemperature &* 5 &+ 128) >> 8
    }

    /// Pressure in Pa as Q24.8 from the 20-bit adc_P and t_fine; nil when the formula would
    /// divide by zero (a corrupt calibration). Example: adc_P = 415148, t_fine = 128422 →
    /// 25767233 = 100653.25 Pa (the Linux bmp280 driver reads the same, 100.653253906 kPa).
    public static func pressure(adcPressure: Int32, fineTemperature: Int32, _ calibration: BMP280Calibration) -> Q24_8? {
        // Int64 as in the datasheet; wrapping operations for the same reason as above (the
        // largest intermediate for a real chip, ((p << 31) − var2) × 3125, stays below 7.3 × 10¹⁸).
        var var1 = Int64(fineTemperature) - 128_000
        var var2 = var1 &* var1 &* Int64(calibration.p6)
        var2 = var2 &+ ((var1 &* Int64(calibration.p5)) << 17)
        var2 = var2 &+ (Int64(calibration.p4) << 35)
        var1 = ((var1 &* var1 &* Int64(calibration.p3)) >> 8) &+ ((var1 &* Int64(calibration.p2)) << 12)
        var1 = (((Int64(1) << 47) &+ var1) &* Int64(calibration.p1)) >> 33
        guard var1 != 0 else { return nil }
        var p = 1_048_576 - Int64(adcPressure)
        // C's truncating division, as in the datasheet (overflow only for Int64.min / −1: garbage in).
        p = (((p << 31) &- var2) &* 3125).dividedReportingOverflow(by: var1).partialValue
        var1 = (Int64(calibration.p9) &* (p >> 13) &* (p >> 13)) >> 25
        var2 = (Int64(calibration.p8) &* p) >> 19
        p = ((p &+ var1 &+ var2) >> 8) &+ (Int64(calibration.p7) << 4)
        return Q24_8(rawValue: Int32(clamping: p))
    }

    /// Temperature in °C as Q16.16 (exact: 0.01 °C steps scaled by 65536/100, rounded).
    public static func temperature(centidegrees: Int32) -> Q16_16 {
        let scaled = Int64(centidegrees) * 65536
        return Q16_16(rawValue: Int32((scaled + (scaled >= 0 ? 50 : -50)) / 100))
    }

    /// The 20-bit value of three result registers msb, lsb, xlsb[7:4] (§4.3.6).
    @inlinable
    public static func twentyBit(_ msb: UInt8, _ lsb: UInt8, _ xlsb: UInt8) -> Int32 {
        Int32(msb) << 12 | Int32(lsb) << 4 | Int32(xlsb >> 4)
    }
}
