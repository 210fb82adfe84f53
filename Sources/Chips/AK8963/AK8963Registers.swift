/// AK8963 magnetometer (inside the MPU-9250, reached at I2C 0x0C once the MPU-9250's
/// INT_PIN_CFG.BYPASS_EN is set) register map: AKM AK8963 datasheet §8; the MPU-9250 register
/// map RM-MPU-9250A-00 §5 repeats it. Outputs are little endian.
public enum AK8963Register {
    /// WIA (device ID), reads 0x48.
    public static let deviceID: UInt8 = 0x00
    public static let identity: UInt8 = 0x48
    /// ST1: DRDY bit 0, DOR bit 1 (data overrun: a sample was skipped).
    public static let status1: UInt8 = 0x02
    /// HXL … HZH: x, y, z.
    public static let outXLow: UInt8 = 0x03
    /// ST2: HOFL bit 3 (magnetic overflow, |B| > 4912 µT), BITM bit 4. Reading it ends the
    /// data read and lets the next sample in.
    public static let status2: UInt8 = 0x09
    /// CNTL1: BIT bit 4 (1 = 16-bit), MODE[3:0] (0 power-down, 2 continuous 8 Hz, 6 continuous
    /// 100 Hz, 0xF fuse ROM access).
    public static let control1: UInt8 = 0x0A
    /// CNTL2: SRST bit 0 (soft reset, self-clearing).
    public static let control2: UInt8 = 0x0B
    /// ASAX, ASAY, ASAZ: factory sensitivity adjustment, readable in fuse ROM mode only.
    public static let sensitivityAdjustment: UInt8 = 0x10

    public static let address: UInt8 = 0x0C
    public static let continuous100HzSixteenBit: UInt8 = 0x16
    public static let fuseROMAccess: UInt8 = 0x0F
    public static let powerDown: UInt8 = 0x00
    /// 16-bit output: 0.15 µT per LSB = 150 000 pT (datasheet §5.3).
    public static let picoteslaPerLSB: Int64 = 150_000
}
