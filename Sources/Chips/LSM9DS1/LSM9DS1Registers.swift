/// LSM9DS1 register maps (ST DocID025715 rev. 3, §6–§8): the accelerometer/gyroscope part
/// (I2C 0x6A/0x6B, WHO_AM_I 0x68) and the magnetometer part (0x1C/0x1E, WHO_AM_I 0x3D). The
/// Raspberry Pi Sense HAT has them at 0x6A and 0x1C. Outputs are little endian.
public enum LSM9DS1Register {
    public static let whoAmI: UInt8 = 0x0F
    public static let inertialIdentity: UInt8 = 0x68
    public static let magnetometerIdentity: UInt8 = 0x3D

    // Accelerometer + gyroscope (§7).
    /// CTRL_REG1_G (§7.12): ODR_G[7:5], FS_G[4:3]. With the gyroscope on, the accelerometer
    /// runs at the same ODR.
    public static let control1Gyroscope: UInt8 = 0x10
    /// STATUS_REG (§7.17, mirrored at 0x27): GDA bit 1, XLDA bit 0.
    public static let status: UInt8 = 0x17
    /// OUT_X_L_G (§7.18): gyroscope x, y, z, 6 bytes.
    public static let gyroscopeOutXL: UInt8 = 0x18
    /// CTRL_REG6_XL (§7.24): ODR_XL[7:5], FS_XL[4:3].
    public static let control6Accelerometer: UInt8 = 0x20
    /// CTRL_REG8 (§7.26): BOOT bit 7, BDU bit 6, IF_ADD_INC bit 2 (reset value: set), SW_RESET bit 0.
    public static let control8: UInt8 = 0x22
    /// OUT_X_L_XL (§7.33): accelerometer x, y, z, 6 bytes.
    public static let accelerometerOutXL: UInt8 = 0x28

    public static let softwareReset: UInt8 = 0x01
    public static let addressIncrement: UInt8 = 0x04
    public static let blockDataUpdate: UInt8 = 0x40

    // Magnetometer (§8).
    /// CTRL_REG1_M (§8.5): TEMP_COMP bit 7, OM[6:5] x/y performance, DO[4:2] ODR.
    public static let control1Magnetometer: UInt8 = 0x20
    /// CTRL_REG2_M (§8.6): FS[6:5], REBOOT bit 3, SOFT_RST bit 2.
    public static let control2Magnetometer: UInt8 = 0x21
    /// CTRL_REG3_M (§8.7): MD[1:0] operating mode, 00 continuous, 11 power-down (reset value).
    public static let control3Magnetometer: UInt8 = 0x22
    /// CTRL_REG4_M (§8.8): OMZ[3:2] z performance.
    public static let control4Magnetometer: UInt8 = 0x23
    /// STATUS_REG_M (§8.10): ZYXDA bit 3.
    public static let statusMagnetometer: UInt8 = 0x27
    /// OUT_X_L_M (§8.11): x, y, z, 6 bytes. On I2C the magnetometer auto-increments only when
    /// the sub-address has its MSB set (§6.1.1), as the Linux st_magn driver does.
    public static let magnetometerOutXL: UInt8 = 0x28
    public static let magnetometerAutoIncrement: UInt8 = 0x80
    public static let magnetometerSoftReset: UInt8 = 0x04
}

/// Settings tables (DocID025715 §4.1 table 3 sensitivities; §7.12 table 46 ODR_G; §8.5 DO).
public enum LSM9DS1Table {
    /// ODR_G values 1…6 in millihertz (0: power-down).
    public static let inertialRatesMilliHertz: [UInt32] = [0, 14_900, 59_500, 119_000, 238_000, 476_000, 952_000]
    /// FS_XL field → (range in g, nano-m/s² per LSB from mg/LSB × 9.80665): note FS_XL = 01 is ±16 g.
    public static let accelerometerScales: [(field: UInt8, rangeG: Int, nanoUnitsPerLSB: Int64)] = [
        (0, 2, 598_206), (2, 4, 1_196_411), (3, 8, 2_392_823), (1, 16, 7_178_468),  // 0.061, 0.122, 0.244, 0.732 mg/LSB
    ]
    /// FS_G field → (range in °/s, nano-rad/s per LSB from mdps/LSB).
    public static let gyroscopeScales: [(field: UInt8, rangeDegreesPerSecond: Int, nanoUnitsPerLSB: Int64)] = [
        (0, 245, 152_716), (1, 500, 305_433), (3, 2000, 1_221_730),  // 8.75, 17.50, 70 mdps/LSB
    ]
    /// Magnetometer FS field → (range in gauss, pT per LSB: 0.14, 0.29, 0.43, 0.58 mgauss/LSB).
    public static let magnetometerScales: [(field: UInt8, rangeGauss: Int, picoteslaPerLSB: Int64)] = [
        (0, 4, 14_000), (1, 8, 29_000), (2, 12, 43_000), (3, 16, 58_000),
    ]
    /// The LIS3MDL (same register map and WHO_AM_I 0x3D, DocID024204 table 2): 6842, 3421, 2281,
    /// 1711 LSB/gauss → pT per LSB.
    public static let lis3mdlMagnetometerScales: [(field: UInt8, rangeGauss: Int, picoteslaPerLSB: Int64)] = [
        (0, 4, 14_616), (1, 8, 29_231), (2, 12, 43_840), (3, 16, 58_445),
    ]
    /// Magnetometer DO field → millihertz.
    public static let magnetometerRatesMilliHertz: [UInt32] = [625, 1_250, 2_500, 5_000, 10_000, 20_000, 40_000, 80_000]
}
