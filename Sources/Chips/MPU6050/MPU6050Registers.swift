/// MPU-6050 / MPU-6500 / MPU-9250 register map (InvenSense RM-MPU-6000A-00 rev. 4.2; the
/// MPU-9250's RM-MPU-9250A-00 keeps these addresses). Data registers are big endian.
public enum MPU6050Register {
    /// SMPLRT_DIV (§4.2): sample rate = gyroscope output rate / (1 + SMPLRT_DIV).
    public static let sampleRateDivider: UInt8 = 0x19
    /// CONFIG (§4.3): DLPF_CFG[2:0]. 0 or 7 leave the gyroscope output at 8 kHz, 1…6 at 1 kHz.
    public static let config: UInt8 = 0x1A
    /// GYRO_CONFIG (§4.4): FS_SEL[4:3].
    public static let gyroscopeConfig: UInt8 = 0x1B
    /// ACCEL_CONFIG (§4.5): AFS_SEL[4:3].
    public static let accelerometerConfig: UInt8 = 0x1C
    /// FIFO_EN (§4.7): TEMP 0x80, XG 0x40, YG 0x20, ZG 0x10, ACCEL 0x08.
    public static let fifoEnable: UInt8 = 0x23
    /// INT_PIN_CFG (§4.15): I2C_BYPASS_EN bit 1 puts the MPU-9250's AK8963 on the main bus (0x0C).
    public static let interruptPinConfig: UInt8 = 0x37
    public static let bypassEnable: UInt8 = 0x02
    /// INT_ENABLE (§4.16): DATA_RDY_EN bit 0, FIFO_OFLOW_EN bit 4.
    public static let interruptEnable: UInt8 = 0x38
    /// INT_STATUS (§4.17): DATA_RDY_INT bit 0, FIFO_OFLOW_INT bit 4; cleared by reading.
    public static let interruptStatus: UInt8 = 0x3A
    /// ACCEL_XOUT_H (§4.17): accel x, y, z, TEMP_OUT, gyro x, y, z: 14 bytes to 0x48.
    public static let accelerometerXHigh: UInt8 = 0x3B
    /// USER_CTRL (§4.27): FIFO_EN bit 6, FIFO_RESET bit 2 (self-clearing).
    public static let userControl: UInt8 = 0x6A
    /// PWR_MGMT_1 (§4.28): DEVICE_RESET bit 7 (self-clearing), SLEEP bit 6 (set at reset), CLKSEL[2:0].
    public static let powerManagement1: UInt8 = 0x6B
    /// FIFO_COUNT_H, FIFO_COUNT_L (§4.30): bytes in the FIFO.
    public static let fifoCountHigh: UInt8 = 0x72
    /// FIFO_R_W (§4.31): reading pops FIFO bytes; a burst read stays on this register.
    public static let fifoReadWrite: UInt8 = 0x74
    /// WHO_AM_I (§4.32).
    public static let whoAmI: UInt8 = 0x75

    public static let deviceReset: UInt8 = 0x80
    public static let sleep: UInt8 = 0x40
    /// CLKSEL = 1: PLL with the X gyroscope as reference, recommended over the 8 MHz oscillator (§4.28).
    public static let clockPLL: UInt8 = 0x01
    public static let userControlFIFOEnable: UInt8 = 0x40
    public static let userControlFIFOReset: UInt8 = 0x04
    /// FIFO_EN value for accelerometer + gyroscope: 12-byte frames.
    public static let fifoAccelerometerAndGyroscope: UInt8 = 0x78
    public static let interruptFIFOOverflow: UInt8 = 0x10
    public static let interruptDataReady: UInt8 = 0x01
    /// The FIFO holds 1024 bytes (§7.17 of the product specification PS-MPU-6000A-00).
    public static let fifoCapacity = 1024
}
