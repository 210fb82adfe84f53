/// BMP280 / BME280 register map (Bosch BST-BMP280-DS001 rev. 1.26, §4.2 table 18 and §4.3;
/// BME280 BST-BME280-DS002 §5.3). All registers are 8 bits; burst reads auto-increment.
public enum BMP280Register {
    /// `id`: chip identification, 0x58 for BMP280, 0x60 for BME280 (§4.3.1).
    public static let id: UInt8 = 0xD0
    /// `reset`: writing 0xB6 performs a power-on reset (§4.3.2). Reads 0x00.
    public static let reset: UInt8 = 0xE0
    /// `status`: bit 3 `measuring`, bit 0 `im_update` (NVM being copied to image registers) (§4.3.3).
    public static let status: UInt8 = 0xF3
    /// `ctrl_meas`: osrs_t[7:5], osrs_p[4:2], mode[1:0] (§4.3.4).
    public static let controlMeasurement: UInt8 = 0xF4
    /// `config`: t_sb[7:5] standby time, filter[4:2] IIR coefficient, spi3w_en[0] (§4.3.5).
    public static let config: UInt8 = 0xF5
    /// `press_msb`: first of press_msb, press_lsb, press_xlsb[7:4], temp_msb, temp_lsb, temp_xlsb[7:4] (§4.3.6–7).
    public static let pressureMSB: UInt8 = 0xF7
    /// `calib00`: first of the 24 trimming bytes dig_T1 … dig_P9, little endian (§3.11.2 table 17).
    public static let calibration: UInt8 = 0x88

    /// The value for `reset` that resets the chip.
    public static let resetCommand: UInt8 = 0xB6
    /// `status.im_update` and `status.measuring`.
    public static let statusImageUpdate: UInt8 = 0x01
    public static let statusMeasuring: UInt8 = 0x08
    /// ctrl_meas `mode` field values (§3.6): sleep 00, forced 01/10, normal 11.
    public static let modeNormal: UInt8 = 0x03
    /// The value of each 20-bit result register while a measurement is skipped or not yet done
    /// (§3.11.1: "0x80000").
    public static let skippedMeasurement: Int32 = 0x80000
}
