public import FixedPoint

/// The BMP388/BMP390 compensation (BST-BMP388-DS001 §9.2 temperature, §9.3 pressure) in
/// integers. The datasheet gives it in floating point with PAR_x = NVM_PAR_x × 2^k; here each
/// power of two is folded into one fixed-point scale per sum, so every term is an exact integer
/// and only the final shift rounds (checked against the float formulas in BMP388Tests).
///
/// Q formats (value = integer / 2^fraction):
/// - t_lin, the linearised temperature, °C in Q16.16 (the Linux bmp280 driver's t_fine has the
///   same scale).
/// - pressure offset (the datasheet's partial_out1), Pa × 2⁶³; sensitivity (partial_out2 /
///   uncomp_press), Pa per count × 2⁸⁵; the quadratic and cubic terms (partial_data4), Pa × 2⁶⁵;
///   their sum, Pa × 2⁸⁵, in Int128; the result Pa in Q24.8.
/// Bounds: a 24-bit ADC value and any trimming keep |t_lin| below 2²⁷ (its Int64 steps below
/// 2⁵⁹) and every Int128 term below 2¹¹⁴ (the largest, P4 × t_lin³ × uncomp_press, 2⁷ × 2⁸¹ ×
/// 2²⁴), so nothing overflows even for junk read from a broken bus: no traps, and the Q24.8
/// result is clamped.
public enum BMP388Conversion {
    /// t_lin in °C, Q16.16 (as a raw Int64) from the 24-bit uncomp_temp:
    /// pd1 = uncomp_temp − PAR_T1 (counts, exact: PAR_T1 = T1 × 2⁸);
    /// t_lin = pd1 × T2 / 2³⁰ + pd1² × T3 / 2⁴⁸ °C, i.e. (pd1 × T2 × 2¹⁸ + pd1² × T3) / 2³² in Q16.
    public static func linearTemperature(adcTemperature: UInt32, _ calibration: BMP388Calibration) -> Int64 {
        let pd1 = Int64(adcTemperature & 0xFF_FFFF) - Int64(calibration.t1) << 8
        let scaled = (pd1 * Int64(calibration.t2)) << 18 + pd1 * pd1 * Int64(calibration.t3)  // °C × 2⁴⁸, < 2⁵⁹
        return (scaled + 1 << 31) >> 32  // rounded to Q16
    }

    /// Pressure in Pa, Q24.8, from the 24-bit uncomp_press and t_lin (Q16.16 raw).
    public static func pressure(adcPressure: UInt32, linearTemperature t: Int64, _ calibration: BMP388Calibration) -> Q24_8 {
        let c = calibration
        let t1 = Int128(t), t2 = t1 * t1, t3 = t2 * t1  // t_lin × 2¹⁶, × 2³², × 2⁴⁸
        let a = Int128(adcPressure & 0xFF_FFFF)
        // partial_out1 = P5 × 2³ + P6 / 2⁶ × t + P7 / 2⁸ × t² + P8 / 2¹⁵ × t³, scaled by 2⁶³.
        let offset = Int128(c.p5) << 66 + (Int128(c.p6) * t1) << 41 + (Int128(c.p7) * t2) << 23 + Int128(c.p8) * t3
        // partial_out2 / uncomp_press = (P1 − 2¹⁴) / 2²⁰ + (P2 − 2¹⁴) / 2²⁹ × t + P3 / 2³² × t² + P4 / 2³⁷ × t³, × 2⁸⁵.
        let sensitivity = (Int128(c.p1) - 16384) << 65 + ((Int128(c.p2) - 16384) * t1) << 40 + (Int128(c.p3) * t2) << 21 + Int128(c.p4) * t3
        // partial_data4 = uncomp_press² × (P9 / 2⁴⁸ + P10 / 2⁴⁸ × t) + uncomp_press³ × P11 / 2⁶⁵, × 2⁶⁵.
        let squareTerm = a * a * (Int128(c.p9) << 17 + Int128(c.p10) * t1 * 2) + a * a * a * Int128(c.p11)
        let sum = offset << 22 + sensitivity * a + squareTerm << 20  // Pa × 2⁸⁵
        let q8 = (sum + Int128(1) << 76) >> 77  // Pa × 2⁸, rounded
        return Q24_8(rawValue: Int32(clamping: q8))
    }

    /// Temperature in °C, Q16.16, from t_lin (already that scale; clamped for junk).
    public static func temperature(linearTemperature: Int64) -> Q16_16 { Q16_16(rawValue: Int32(clamping: linearTemperature)) }

    /// The 24-bit value of three DATA registers, XLSB first (§4.3.4–4.3.5).
    @inlinable
    public static func twentyFourBit(_ xlsb: UInt8, _ lsb: UInt8, _ msb: UInt8) -> UInt32 {
        UInt32(msb) << 16 | UInt32(lsb) << 8 | UInt32(xlsb)
    }
}
