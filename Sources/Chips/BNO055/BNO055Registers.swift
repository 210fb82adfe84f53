/// Bosch BNO055 register map (BST-BNO055-DS000-14, revision 1.4, June 2016, §4.2 register map,
/// tables 4-2 (page 0) and 4-3 (page 1), and §4.3 register descriptions). Every output is a
/// 16-bit two's complement value, little endian (LSB at the lower address), in the units
/// UNIT_SEL chose (§3.6.1, table 3-11). The map has two pages chosen by PAGE_ID (0x07 on both);
/// everything this driver uses is on page 0. Addresses 0x28 (COM3 low, the Adafruit and most
/// breakouts' default) and 0x29 (COM3 high) (§4.6, table 4-7).
public enum BNO055Register {
    public static let addresses: [UInt8] = [0x28, 0x29]
    public static let address: UInt8 = 0x28

    /// CHIP_ID 0xA0, then ACC_ID 0xFB (the BMA280 inside), MAG_ID 0x32 (BMM150), GYR_ID 0x0F
    /// (BMG160) at 0x01…0x03 (§4.3.1–4.3.4): all four read-only, fixed.
    public static let chipID: UInt8 = 0x00
    public static let identity: UInt8 = 0xA0
    public static let componentIdentities: [UInt8] = [0xFB, 0x32, 0x0F]
    /// PAGE_ID: 0 or 1 (§4.3.7), present on both pages; 0 after power-on.
    public static let pageID: UInt8 = 0x07

    /// ACC_DATA_X_LSB: accelerometer X, Y, Z (0x08…0x0D), then MAG_DATA (0x0E…0x13), GYR_DATA
    /// (0x14…0x19), EUL_DATA heading, roll, pitch (0x1A…0x1F), QUA_DATA w, x, y, z (0x20…0x27),
    /// LIA_DATA (0x28…0x2D), GRV_DATA (0x2E…0x33), TEMP (0x34, one signed byte), CALIB_STAT (0x35).
    public static let accelerometerData: UInt8 = 0x08
    public static let magnetometerData: UInt8 = 0x0E
    public static let gyroscopeData: UInt8 = 0x14
    public static let eulerData: UInt8 = 0x1A
    public static let quaternionData: UInt8 = 0x20
    public static let linearAccelerationData: UInt8 = 0x28
    public static let gravityData: UInt8 = 0x2E
    public static let temperature: UInt8 = 0x34
    /// CALIB_STAT (§4.3.54): SYS bits 7:6, GYR 5:4, ACC 3:2, MAG 1:0; each 3 = fully
    /// calibrated, 0 = not calibrated.
    public static let calibrationStatus: UInt8 = 0x35
    /// ST_RESULT (§4.3.55): bit 3 MCU, bit 2 GYR, bit 1 MAG, bit 0 ACC self-test passed.
    public static let selfTestResult: UInt8 = 0x36
    /// SYS_STATUS (§4.3.58): 0 idle, 1 system error, 2 initialising peripherals, 3 system
    /// initialisation, 4 self test, 5 fusion running, 6 running without fusion.
    public static let systemStatus: UInt8 = 0x39
    /// SYS_ERR (§4.3.59), meaningful when SYS_STATUS = 1: 1 peripheral initialisation error,
    /// 2 system initialisation error, 3 self test failed, 4 register map value out of range,
    /// 5 register map address out of range, 6 register map write error, 7 low power mode not
    /// available for the mode, 8 accelerometer power mode not available, 9 fusion algorithm
    /// configuration error, 0x0A sensor configuration error.
    public static let systemError: UInt8 = 0x3A
    /// UNIT_SEL (§4.3.60, table 3-11): bit 0 acceleration (0 m/s², 1 mg), bit 1 angular rate
    /// (0 °/s, 1 rad/s), bit 2 Euler angles (0 degrees, 1 radians), bit 4 temperature (0 °C,
    /// 1 °F), bit 7 orientation convention (0 Windows, 1 Android, table 3-12). Reset 0x80.
    public static let unitSelection: UInt8 = 0x3B
    /// OPR_MODE (§4.3.61, table 3-5): bits 3:0; 0x00 after power-on (CONFIGMODE).
    public static let operationMode: UInt8 = 0x3D
    /// PWR_MODE (§4.3.62): 0 normal.
    public static let powerMode: UInt8 = 0x3E
    /// SYS_TRIGGER (§4.3.63): bit 7 CLK_SEL (external crystal), bit 6 RST_INT, bit 5 RST_SYS,
    /// bit 0 Self_Test.
    public static let systemTrigger: UInt8 = 0x3F
    public static let resetSystem: UInt8 = 0x20
    /// ACC_OFFSET_X_LSB: the calibration profile, 22 bytes (§3.6.4, §4.3.80–4.3.101): offsets
    /// of the accelerometer (0x55…0x5A), magnetometer (0x5B…0x60) and gyroscope (0x61…0x66),
    /// then ACC_RADIUS (0x67, 0x68) and MAG_RADIUS (0x69, 0x6A). Read and written in CONFIGMODE
    /// only (§3.11.4); a write takes effect when its last byte is written (§3.6.4.1).
    public static let calibrationProfile: UInt8 = 0x55
    public static let calibrationProfileLength = 22

    /// OPR_MODE values (table 3-5) this project uses.
    public enum OperationMode: UInt8, Sendable {
        /// Configuration: sensors off, every writable register writable; output registers hold.
        case configuration = 0x00
        /// Accelerometer, magnetometer and gyroscope, uncalibrated, no fusion.
        case accelerometerMagnetometerGyroscope = 0x07
        /// Nine degrees of freedom fusion with fast magnetometer calibration: the chip's own
        /// absolute orientation, and its offsets learned in the background.
        case nineDegreesOfFreedom = 0x0C
    }

    /// Switching times (§3.3, table 3-6): any mode to CONFIGMODE 19 ms, CONFIGMODE to any
    /// operation mode 7 ms. Registers written before the time is up may be lost.
    public static let toConfigurationNanoseconds: Int64 = 19_000_000
    public static let fromConfigurationNanoseconds: Int64 = 7_000_000

    /// UNIT_SEL the driver writes: m/s², rad/s, radians, °C, Android orientation (bit 7 left at
    /// its reset value; it only changes the Euler angles' conventions, which are not used):
    /// 0b1000_0110. Every unit then converts exactly: 100 LSB per m/s², 900 LSB per rad/s.
    public static let driverUnitSelection: UInt8 = 0x86
    /// Acceleration (also linear acceleration and gravity): 1 m/s² = 100 LSB (tables 3-17,
    /// 3-33, 3-35): 10⁷ nm/s² per LSB.
    public static let nanometresPerSecondSquaredPerCount: Int64 = 10_000_000
    /// Angular rate in rad/s mode: 1 rad/s = 900 LSB (table 3-22).
    public static let countsPerRadianPerSecond: Int64 = 900
    /// Magnetic field: 1 µT = 16 LSB (§3.6.4.2, table 3-19), in every mode.
    public static let countsPerMicrotesla: Int64 = 16
    /// Quaternion: 1 = 2¹⁴ LSB (table 3-31): the registers are Q2.14.
    public static let quaternionFractionBits = 14

    /// Output data rates in NDOF (§3.6.3, table 3-14): accelerometer and gyroscope 100 Hz,
    /// magnetometer 20 Hz, fusion 100 Hz.
    public static let fusionPeriodNanoseconds: Int64 = 10_000_000
    public static let ndofMagnetometerPeriodNanoseconds: Int64 = 50_000_000
}
