/// LSM6DSx family register map and settings. Two maps share the addresses below:
/// - the LSM6DSO map (ST LSM6DSOX datasheet DS12814 §9; the same map in the LSM6DSO and
///   ISM330DHCX datasheets and, with a pattern FIFO instead of the tagged one (see
///   `LSM6DS3FIFORegister`), LSM6DS3/DS3TR-C): CTRL1_XL/CTRL2_G
///   hold ODR[7:4] and FS[3:2];
/// - the LSM6DSV16X map (ST's LSM6DSV16X datasheet, "Register description"): CTRL1/CTRL2 hold
///   OP_MODE[6:4] and ODR[3:0], the full scales move to CTRL6 (gyroscope) and CTRL8
///   (accelerometer), FIFO_STATUS1/2 to 0x1B/0x1C.
/// Cross-checked field by field against the Linux st_lsm6dsx driver's settings tables
/// (st_lsm6dsx_core.c: the LSM6DSO/ISM330DHCX rows, and the LSM6DSV row added for 6.2, which
/// the LSM6DSV16X shares) and ST's register headers (lsm6dsox_reg.h, lsm6dsv16x_reg.h).
/// Register names below are the datasheets'; DS12814 section numbers where given.
/// Outputs are little endian; IF_INC (CTRL3 bit 2, set at reset) makes bursts auto-increment.
public enum LSM6DSXRegister {
    public static let whoAmI: UInt8 = 0x0F
    /// FIFO_CTRL1: WTM[7:0], the FIFO watermark in words; the
    /// LSM6DSO map's FIFO_CTRL2 bit 0 is WTM8 (the LSM6DSV16X's watermark is 8 bits).
    public static let fifoControl1: UInt8 = 0x07
    /// FIFO_CTRL2: STOP_ON_WTM bit 7, WTM8 bit 0 (LSM6DSO map only).
    public static let fifoControl2: UInt8 = 0x08
    /// FIFO_CTRL3: BDR_GY[7:4], BDR_XL[3:0], the batch data rates. Their codes
    /// are the ODR codes of the same map (1 = 12.5 Hz … on the LSM6DSO map, 2 = 7.5 Hz … on
    /// the LSM6DSV16X's), 0 = not batched.
    public static let fifoControl3: UInt8 = 0x09
    /// FIFO_CTRL4: FIFO_MODE[2:0]: 000 bypass (FIFO off and emptied), 001 FIFO
    /// (stops when full), 110 continuous (the oldest word is overwritten when full).
    public static let fifoControl4: UInt8 = 0x0A
    public static let fifoModeMask: UInt8 = 0x07
    public static let fifoModeBypass: UInt8 = 0
    public static let fifoModeStopWhenFull: UInt8 = 1
    public static let fifoModeContinuous: UInt8 = 6
    /// INT1_CTRL: INT1_DRDY_G bit 1, INT1_DRDY_XL bit 0 route data ready to
    /// the INT1 pin (push-pull, active high after reset), INT1_FIFO_TH bit 3 the watermark.
    public static let int1Control: UInt8 = 0x0D
    public static let int1DataReadyAccelerometer: UInt8 = 0x01
    public static let int1DataReadyGyroscope: UInt8 = 0x02
    /// CTRL1_XL (DS12814 §9.15): ODR_XL[7:4], FS_XL[3:2]. CTRL1 (LSM6DSV16X): OP_MODE_XL[6:4]
    /// (000 high-performance), ODR_XL[3:0].
    public static let control1Accelerometer: UInt8 = 0x10
    /// CTRL2_G (DS12814 §9.16): ODR_G[7:4], FS_G[3:2]. CTRL2 (LSM6DSV16X): OP_MODE_G[6:4],
    /// ODR_G[3:0].
    public static let control2Gyroscope: UInt8 = 0x11
    /// CTRL3_C / CTRL3: BOOT bit 7, BDU bit 6, IF_INC bit 2,
    /// SW_RESET bit 0 (self-clearing), at the same place in both maps.
    public static let control3: UInt8 = 0x12
    /// CTRL6: FS_G[3:0] on the LSM6DSV16X (1 = ±250 … 4 = ±2000 °/s).
    public static let control6: UInt8 = 0x15
    /// CTRL8: FS_XL[1:0] on the LSM6DSV16X (0 = ±2 g … 3 = ±16 g).
    public static let control8: UInt8 = 0x17
    /// STATUS_REG: TDA bit 2, GDA bit 1, XLDA bit 0.
    public static let status: UInt8 = 0x1E
    /// OUTX_L_G (§9.28): gyroscope x, y, z, then OUTX_L_A (0x28): accelerometer x, y, z.
    public static let gyroscopeOutXL: UInt8 = 0x22
    public static let accelerometerOutXL: UInt8 = 0x28
    /// FIFO_STATUS1/2 on the LSM6DSO map : DIFF_FIFO[9:0], the unread words.
    public static let fifoStatus1LSM6DSO: UInt8 = 0x3A
    /// FIFO_STATUS1/2 on the LSM6DSV16X map: DIFF_FIFO[8:0].
    public static let fifoStatus1LSM6DSV16X: UInt8 = 0x1B
    /// FIFO_STATUS2 flags (both maps): FIFO_WTM_IA bit 7 (unread words ≥ watermark), FIFO_OVR_IA
    /// bit 6 (full, and a word was overwritten), FIFO_FULL_IA bit 5 (full at the next batch),
    /// FIFO_OVR_LATCHED bit 3 (an overrun since FIFO_STATUS2 was last read; cleared by reading it).
    public static let fifoWatermarkFlag: UInt8 = 0x80
    public static let fifoOverrunFlag: UInt8 = 0x40
    public static let fifoFullFlag: UInt8 = 0x20
    public static let fifoOverrunLatchedFlag: UInt8 = 0x08
    /// FIFO_DATA_OUT_TAG: TAG_SENSOR[7:3], TAG_CNT[2:1],
    /// TAG_PARITY bit 0; FIFO_DATA_OUT_X_L … Z_H (0x79…0x7E) follow. A burst from 0x78 with
    /// IF_INC wraps from 0x7E back to 0x78, one word after the other (the kernel's
    /// st_lsm6dsx_read_tagged_fifo reads several words per transfer this way).
    public static let fifoDataOutTag: UInt8 = 0x78
    /// Bytes per FIFO word: the tag and one sensor's x, y, z.
    public static let fifoWordBytes = 7
    /// TAG_SENSOR values (both datasheets' FIFO_DATA_OUT_TAG table; the kernel's ST_LSM6DSX_GYRO_TAG/ACC_TAG): gyroscope 0x01, accelerometer
    /// 0x02 (non-compressed); temperature 0x03, timestamp 0x04, configuration change 0x05
    /// and others are not batched by these drivers and are skipped if met.
    public static let tagGyroscope: UInt8 = 0x01
    public static let tagAccelerometer: UInt8 = 0x02

    public static let softwareReset: UInt8 = 0x01
    public static let addressIncrement: UInt8 = 0x04
    public static let blockDataUpdate: UInt8 = 0x40
}
