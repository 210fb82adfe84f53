/// BMI160 register map and settings (Bosch BST-BMI160-DS000 rev. 0.8, §2.11 register map;
/// the Linux bmi160 driver's tables agree). Data registers are little endian.
public enum BMI160Register {
    /// CHIP_ID (§2.11.1), reads 0xD1.
    public static let chipID: UInt8 = 0x00
    public static let identity: UInt8 = 0xD1
    /// PMU_STATUS (§2.11.4): acc_pmu_status[5:4], gyr_pmu_status[3:2]; 01 = normal mode.
    public static let powerStatus: UInt8 = 0x03
    /// DATA_8 (§2.11.5): gyroscope x, y, z then accelerometer x, y, z (0x0C…0x17).
    public static let gyroscopeXLow: UInt8 = 0x0C
    /// FIFO_LENGTH_0/1 (§2.11.21): fifo_byte_counter[10:0].
    public static let fifoLength: UInt8 = 0x22
    /// FIFO_DATA (§2.11.22): burst reads stay on this register and pop the FIFO.
    public static let fifoData: UInt8 = 0x24
    /// ACC_CONF (§2.11.23): acc_bwp[6:4], acc_odr[3:0] (ODR = 100 / 2^(8 − acc_odr) Hz).
    public static let accelerometerConfig: UInt8 = 0x40
    /// ACC_RANGE (§2.11.24): 0x03 ±2 g, 0x05 ±4 g, 0x08 ±8 g, 0x0C ±16 g.
    public static let accelerometerRange: UInt8 = 0x41
    /// GYR_CONF (§2.11.25): gyr_bwp[5:4], gyr_odr[3:0].
    public static let gyroscopeConfig: UInt8 = 0x42
    /// GYR_RANGE (§2.11.26): 0 ±2000 °/s … 4 ±125 °/s.
    public static let gyroscopeRange: UInt8 = 0x43
    /// FIFO_CONFIG_1 (§2.11.28): fifo_gyr_en bit 7, fifo_acc_en bit 6, fifo_header_en bit 4.
    public static let fifoConfig1: UInt8 = 0x47
    /// INT_EN_1 (§2.11.29): int_drdy_en bit 4 (data ready), int_fwm_en bit 6.
    public static let interruptEnable1: UInt8 = 0x51
    public static let dataReadyEnable: UInt8 = 0x10
    /// INT_OUT_CTRL (§2.11.30): int1_output_en bit 3, int1_lvl bit 1 (1: active high),
    /// int1_od bit 2 (0: push-pull), int1_edge_ctrl bit 0 (0: level).
    public static let interruptOutputControl: UInt8 = 0x53
    public static let int1OutputEnable: UInt8 = 0x08
    /// INT1 enabled, push-pull, active high: what a GPIO watching for rising edges needs.
    public static let int1PushPullActiveHigh: UInt8 = 0x0A
    /// INT_MAP_1 (§2.11.32): int1_drdy bit 7 routes data ready to the INT1 pin.
    public static let interruptMap1: UInt8 = 0x56
    public static let int1DataReady: UInt8 = 0x80
    /// CMD (§2.11.38): 0x11 accelerometer normal mode, 0x15 gyroscope normal mode, 0xB0 FIFO
    /// flush, 0xB6 soft reset.
    public static let command: UInt8 = 0x7E

    public static let accelerometerNormalMode: UInt8 = 0x11
    public static let gyroscopeNormalMode: UInt8 = 0x15
    public static let fifoFlush: UInt8 = 0xB0
    public static let softReset: UInt8 = 0xB6
    /// Headerless FIFO with gyroscope + accelerometer: 12-byte frames, gyroscope first (§2.5.1).
    public static let fifoGyroscopeAndAccelerometer: UInt8 = 0xC0
    public static let fifoCapacity = 1024
    /// PMU_STATUS with both sensors in normal mode.
    public static let bothNormal: UInt8 = 0b0001_0100
}

public enum BMI160Table {
    /// I2C addresses: SDO low 0x68, high 0x69 (§3.2.1).
    public static let addresses: [UInt8] = [0x68, 0x69]
    /// ACC_RANGE value → (±g, nano-m/s² per LSB: g / 16384, 8192, 4096, 2048).
    public static let accelerometerScales: [(field: UInt8, rangeG: Int, nanoUnitsPerLSB: Int64)] = [
        (0x03, 2, 598_550), (0x05, 4, 1_197_101), (0x08, 8, 2_394_202), (0x0C, 16, 4_788_403),
    ]
    /// GYR_RANGE value → (±°/s, nano-rad/s per LSB: (π/180) / 16.4, 32.8, 65.6, 131.2, 262.4).
    public static let gyroscopeScales: [(field: UInt8, rangeDegreesPerSecond: Int, nanoUnitsPerLSB: Int64)] = [
        (0x00, 2000, 1_064_225), (0x01, 1000, 532_113), (0x02, 500, 266_056), (0x03, 250, 133_028), (0x04, 125, 66_514),
    ]
    /// The ODR field for a rate in Hz: 100 / 2^(8 − field), fields 6 (25 Hz) … 12 (1600 Hz).
    public static func outputDataRateField(hertz: Int) -> (field: UInt8, millihertz: Int64) {
        var best: (UInt8, Int64) = (8, 100_000)
        for field in UInt8(6)...12 {
            let millihertz = field >= 8 ? Int64(100_000) << (field - 8) : Int64(100_000) >> (8 - field)
            if abs(millihertz - Int64(hertz) * 1000) < abs(best.1 - Int64(hertz) * 1000) { best = (field, millihertz) }
        }
        return best
    }
}
