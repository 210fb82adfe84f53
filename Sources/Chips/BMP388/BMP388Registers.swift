/// BMP388 / BMP390 barometer register map: Bosch BST-BMP388-DS001 §4.2 (memory map) and §4.3
/// (register descriptions); the BMP390 (BST-BMP390-DS002) has the same map and another chip
/// ID. Results are 24-bit unsigned, little endian (XLSB first); burst reads auto-increment.
/// Not the BMP280's map: the BMP280 keeps its id at 0xD0, the BMP3 family at 0x00, and both
/// answer at 0x76/0x77, so `ChipProbe` tells them apart by which register holds a known id.
public enum BMP388Register {
    /// CHIP_ID: 0x50 (BMP388), 0x60 (BMP390).
    public static let chipID: UInt8 = 0x00
    /// ERR_REG: fatal_err bit 0, cmd_err bit 1, conf_err bit 2 (cleared on read).
    public static let error: UInt8 = 0x02
    /// STATUS: cmd_rdy bit 4 (the command decoder takes a command), drdy_press bit 5,
    /// drdy_temp bit 6 (a new result; each clears when one of its DATA registers is read).
    public static let status: UInt8 = 0x03
    /// DATA_0…DATA_2 pressure (XLSB, LSB, MSB), DATA_3…DATA_5 temperature (0x04…0x09).
    public static let pressureXLSB: UInt8 = 0x04
    public static let temperatureXLSB: UInt8 = 0x07
    /// EVENT: por_detected bit 0, set at power-up and after a soft reset, cleared on read.
    public static let event: UInt8 = 0x10
    /// PWR_CTRL: press_en bit 0, temp_en bit 1, mode bits 5:4 (00 sleep, 01/10 forced, 11 normal).
    public static let powerControl: UInt8 = 0x1B
    /// OSR: osr_p bits 2:0, osr_t bits 5:3 (×1, ×2, ×4, ×8, ×16, ×32 for 0…5).
    public static let oversampling: UInt8 = 0x1C
    /// ODR: odr_sel bits 4:0, the sampling period 5 ms × 2^odr_sel in normal mode.
    public static let outputDataRate: UInt8 = 0x1D
    /// CONFIG: iir_filter bits 3:1 (coefficient 0, 1, 3, 7, 15, 31, 63, 127).
    public static let config: UInt8 = 0x1F
    /// NVM_PAR_T1 … NVM_PAR_P11: 21 trimming bytes (0x31…0x45), §3.11.1 table 22.
    public static let calibration: UInt8 = 0x31
    public static let calibrationLength = 21
    /// CMD: 0xB6 soft reset (§4.3.21).
    public static let command: UInt8 = 0x7E
    public static let softReset: UInt8 = 0xB6

    public static let statusCommandReady: UInt8 = 0x10
    public static let statusPressureReady: UInt8 = 0x20
    public static let statusTemperatureReady: UInt8 = 0x40
    public static let eventPowerOnReset: UInt8 = 0x01
    /// What the driver sets: pressure ×8, temperature ×1 (the oversampling pair of the
    /// datasheet's use-case table, §3.5, for "standard resolution"), 25 Hz (odr_sel 3, 40 ms),
    /// IIR coefficient 3.
    public static let driverOversampling: UInt8 = 0b000_011
    public static let driverOutputDataRate: UInt8 = 3
    public static let driverConfig: UInt8 = 2 << 1
    /// press_en, temp_en, normal mode.
    public static let driverPowerControl: UInt8 = 0b11_0011
    /// A DATA register's value when that measurement was skipped or has not run since reset.
    public static let skippedMeasurement: UInt32 = 0x80_0000

    /// SDO to GND 0x76, to VDDIO 0x77 (§5.2), as the BMP280's.
    public static let addresses: [UInt8] = [0x76, 0x77]

    public struct Variant: Sendable, Equatable {
        public var name: String
        public var chipID: UInt8
    }

    public static let variants: [Variant] = [Variant(name: "BMP388", chipID: 0x50), Variant(name: "BMP390", chipID: 0x60)]

    /// Conversion time in µs with both measurements enabled (§3.9.2, typical):
    /// 234 + (392 + 2^osr_p × 2020) + (163 + 2^osr_t × 2020). ×8 / ×1: 18 969 µs.
    public static func measurementMicroseconds(oversampling: UInt8) -> Int64 {
        234 + 392 + (Int64(1) << Int64(oversampling & 0x07)) * 2020 + 163 + (Int64(1) << Int64(oversampling >> 3 & 0x07)) * 2020
    }

    /// The normal-mode sampling period of an odr_sel, ns: 5 ms × 2^odr_sel (§4.3.19, up to 17).
    public static func periodNanoseconds(outputDataRate: UInt8) -> Int64 { 5_000_000 << Int64(min(outputDataRate & 0x1F, 17)) }
}
