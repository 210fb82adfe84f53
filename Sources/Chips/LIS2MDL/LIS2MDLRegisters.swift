/// ST LIS2MDL magnetometer register map (DocID DS12144, §7 register mapping, table 20, and §8
/// register descriptions); the LSM303AGR's magnetometer is the same die with the same map and
/// WHO_AM_I. Outputs are 16-bit two's complement, little endian, X, Y, Z; the I2C interface
/// auto-increments the register address in a burst (§6.1.1). Its address, 0x1E, is the
/// HMC5883L's and the LIS3MDL's alternate one: the three are told apart by their identity
/// registers (LIS2MDL 0x4F = 0x40; LIS3MDL 0x0F = 0x3D; HMC5883L 0x0A…0x0C = 'H43').
public enum LIS2MDLRegister {
    /// WHO_AM_I: 0x40.
    public static let whoAmI: UInt8 = 0x4F
    public static let identity: UInt8 = 0x40
    /// CFG_REG_A: COMP_TEMP_EN bit 7, REBOOT bit 6, SOFT_RST bit 5, LP bit 4, ODR bits 3:2
    /// (10, 20, 50, 100 Hz), MD bits 1:0 (00 continuous, 01 single, 10/11 idle). Reset value
    /// 0x03 (idle).
    public static let configurationA: UInt8 = 0x60
    /// CFG_REG_B: OFF_CANC_ONE_SHOT bit 4, INT_on_DataOFF bit 3, Set_FREQ bit 2, OFF_CANC bit 1, LPF bit 0.
    public static let configurationB: UInt8 = 0x61
    /// CFG_REG_C: INT_on_PIN bit 6, I2C_DIS bit 5, BDU bit 4, BLE bit 3, 4WSPI bit 2,
    /// Self_test bit 1, DRDY_on_PIN bit 0.
    public static let configurationC: UInt8 = 0x62
    /// STATUS_REG: Zyxor bit 7 (a sample overwrote one never read), Zyxda bit 3 (new X, Y, Z).
    public static let status: UInt8 = 0x67
    /// OUTX_L_REG … OUTZ_H_REG (0x68…0x6D), then TEMP_OUT_L/H (0x6E, 0x6F).
    public static let outXLow: UInt8 = 0x68

    public static let address: UInt8 = 0x1E
    public static let defaultConfigurationA: UInt8 = 0x03
    public static let softReset: UInt8 = 0x20
    /// COMP_TEMP_EN (the datasheet: "must be set to 1 for correct operation"), 100 Hz, continuous:
    /// 0b1000_1100. Differs from the reset value 0x03, so a reset shows.
    public static let driverConfigurationA: UInt8 = 0x8C
    /// OFF_CANC: offset cancellation, which continuous mode needs (CFG_REG_B description; ST
    /// AN5069 "offset cancellation"): the chip's own SET/RESET pulses remove the bridge offset.
    public static let driverConfigurationB: UInt8 = 0x02
    /// BDU: the output registers hold one sample until both its bytes are read, so a burst
    /// never mixes the high byte of one sample with the low byte of the next.
    public static let driverConfigurationC: UInt8 = 0x10
    /// 1.5 mG per count (DS12144 table 2, "M_So"), 1 G = 100 µT: 0.15 µT = 150 nT per count.
    public static let nanoteslaPerCount: Int64 = 150
    /// Output data rates of the ODR field, Hz.
    public static let ratesHertz: [Int64] = [10, 20, 50, 100]
}
