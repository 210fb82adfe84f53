/// LSM6DSx family register map and settings (ST LSM6DSOX datasheet DS12814 §9; the same map
/// in LSM6DS3/DS3TR-C/ISM330DHCX; the Linux st_lsm6dsx driver's tables agree). Outputs are little
/// endian; IF_INC (CTRL3_C bit 2, set at reset) makes bursts auto-increment.
public enum LSM6DSXRegister {
    public static let whoAmI: UInt8 = 0x0F
    /// INT1_CTRL (§9.13): INT1_DRDY_G bit 1, INT1_DRDY_XL bit 0 route data ready to the INT1
    /// pin (push-pull, active high after reset: CTRL3_C H_LACTIVE = PP_OD = 0).
    public static let int1Control: UInt8 = 0x0D
    public static let int1DataReadyAccelerometer: UInt8 = 0x01
    public static let int1DataReadyGyroscope: UInt8 = 0x02
    /// CTRL1_XL (§9.15): ODR_XL[7:4], FS_XL[3:2].
    public static let control1Accelerometer: UInt8 = 0x10
    /// CTRL2_G (§9.16): ODR_G[7:4], FS_G[3:2].
    public static let control2Gyroscope: UInt8 = 0x11
    /// CTRL3_C (§9.17): BOOT bit 7, BDU bit 6, IF_INC bit 2, SW_RESET bit 0 (self-clearing).
    public static let control3: UInt8 = 0x12
    /// STATUS_REG (§9.26): TDA bit 2, GDA bit 1, XLDA bit 0.
    public static let status: UInt8 = 0x1E
    /// OUTX_L_G (§9.28): gyroscope x, y, z, then OUTX_L_A (0x28): accelerometer x, y, z.
    public static let gyroscopeOutXL: UInt8 = 0x22
    public static let accelerometerOutXL: UInt8 = 0x28

    public static let softwareReset: UInt8 = 0x01
    public static let addressIncrement: UInt8 = 0x04
    public static let blockDataUpdate: UInt8 = 0x40
}

public enum LSM6DSXTable {
    public struct Variant: Sendable, Equatable {
        public var name: String
        public var whoAmI: UInt8
    }

    public static let variants: [Variant] = [
        Variant(name: "LSM6DS3", whoAmI: 0x69),
        Variant(name: "LSM6DS3TR-C", whoAmI: 0x6A),
        Variant(name: "ISM330DHCX", whoAmI: 0x6B),
        Variant(name: "LSM6DSO/LSM6DSOX", whoAmI: 0x6C),
    ]
    public static let addresses: [UInt8] = [0x6A, 0x6B]
    /// ODR field → millihertz: 1 = 12.5 Hz, 2 = 26, 3 = 52, 4 = 104, 5 = 208, 6 = 416, 7 = 833, 8 = 1666.
    public static let ratesMilliHertz: [Int64] = [0, 12_500, 26_000, 52_000, 104_000, 208_000, 416_000, 833_000, 1_666_000]
    /// FS_XL → (±g, nano-m/s² per LSB from 0.061, 0.122, 0.244, 0.488 mg/LSB): 01 is ±16 g.
    public static let accelerometerScales: [(field: UInt8, rangeG: Int, nanoUnitsPerLSB: Int64)] = [
        (0, 2, 598_206), (2, 4, 1_196_411), (3, 8, 2_392_823), (1, 16, 4_785_645),
    ]
    /// FS_G → (±°/s, nano-rad/s per LSB from 8.75, 17.5, 35, 70 mdps/LSB).
    public static let gyroscopeScales: [(field: UInt8, rangeDegreesPerSecond: Int, nanoUnitsPerLSB: Int64)] = [
        (0, 250, 152_716), (1, 500, 305_433), (2, 1000, 610_865), (3, 2000, 1_221_730),
    ]
}
