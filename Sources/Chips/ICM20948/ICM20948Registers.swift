/// TDK InvenSense ICM-20948 register map (datasheet DS-000189 rev. 1.3, §7 "Register Map" and
/// §8 "Register Descriptions"). The map is split into four user banks chosen by REG_BANK_SEL,
/// which answers at 0x7F in every bank (§8 "REG_BANK_SEL", USER_BANK[5:4]); a reset returns the
/// chip to bank 0. Each register is named here with its bank: an address alone means nothing.
/// Data registers are big endian (high byte first), as on the MPU-6050 family.
public enum ICM20948Register {
    /// A register: its bank (0…3) and its address within the bank.
    public struct Location: Sendable, Equatable {
        public var bank: UInt8
        public var address: UInt8
    }

    /// REG_BANK_SEL (0x7F, every bank): USER_BANK in bits 5:4 (§7.1–7.4).
    public static let bankSelect: UInt8 = 0x7F

    // MARK: Bank 0 (§7.1)

    /// WHO_AM_I (bank 0, 0x00): 0xEA (§8, WHO_AM_I). On an MPU-6050/9250 0x00 is a self-test
    /// trim (SELF_TEST_X_GYRO, any value): the probe asks the MPU's own WHO_AM_I (0x75) first.
    public static let whoAmI = Location(bank: 0, address: 0x00)
    public static let identity: UInt8 = 0xEA
    /// USER_CTRL (bank 0, 0x03): I2C_MST_EN bit 5 (the auxiliary I2C master drives AUX_DA/CL),
    /// I2C_MST_RST bit 1 (self-clearing). 0x00 at reset.
    public static let userControl = Location(bank: 0, address: 0x03)
    public static let i2cMasterEnable: UInt8 = 0x20
    public static let i2cMasterReset: UInt8 = 0x02
    /// LP_CONFIG (bank 0, 0x05): I2C_MST_CYCLE bit 6, ACCEL_CYCLE bit 5, GYRO_CYCLE bit 4 (1 =
    /// duty-cycled, low-power operation). 0x40 at reset: the I2C master duty-cycled; the driver
    /// writes 0 so all three run continuously at the gyroscope's rate.
    public static let lowPowerConfig = Location(bank: 0, address: 0x05)
    /// PWR_MGMT_1 (bank 0, 0x06): DEVICE_RESET bit 7 (self-clearing), SLEEP bit 6, CLKSEL[2:0]
    /// (1 = auto: the PLL when ready, else the 20 MHz oscillator). 0x41 at reset: asleep.
    public static let powerManagement1 = Location(bank: 0, address: 0x06)
    public static let deviceReset: UInt8 = 0x80
    public static let sleep: UInt8 = 0x40
    public static let clockAuto: UInt8 = 0x01
    /// PWR_MGMT_2 (bank 0, 0x07): DISABLE_ACCEL[5:3], DISABLE_GYRO[2:0]; 0 = all on.
    public static let powerManagement2 = Location(bank: 0, address: 0x07)
    /// INT_PIN_CFG (bank 0, 0x0F): INT1_ACTL bit 7 (0 = active high), BYPASS_EN bit 1 (must stay
    /// 0 while the I2C master runs).
    public static let interruptPinConfig = Location(bank: 0, address: 0x0F)
    /// INT_ENABLE_1 (bank 0, 0x11): RAW_DATA_0_RDY_EN bit 0 routes raw data ready to INT1.
    public static let interruptEnable1 = Location(bank: 0, address: 0x11)
    public static let rawDataReady: UInt8 = 0x01
    /// I2C_MST_STATUS (bank 0, 0x17): I2C_SLV4_DONE bit 6, I2C_SLV4_NACK bit 4, I2C_SLV0_NACK
    /// bit 0. Modelled as cleared by reading, as the MPU-9250's (an assumption: DS-000189 does
    /// not say it in so many words).
    public static let i2cMasterStatus = Location(bank: 0, address: 0x17)
    public static let slave4Done: UInt8 = 0x40
    public static let slave4NoAcknowledge: UInt8 = 0x10
    public static let slave0NoAcknowledge: UInt8 = 0x01
    /// INT_STATUS_1 (bank 0, 0x1A): RAW_DATA_0_RDY_INT bit 0, cleared by reading.
    public static let interruptStatus1 = Location(bank: 0, address: 0x1A)
    /// ACCEL_XOUT_H (bank 0, 0x2D): accelerometer x, y, z (0x2D…0x32), gyroscope x, y, z
    /// (GYRO_XOUT_H 0x33…0x38), TEMP_OUT_H/L (0x39, 0x3A), then EXT_SLV_SENS_DATA_00…23
    /// (0x3B…0x52): what the I2C master's slaves read, in slave order.
    public static let accelerometerXHigh = Location(bank: 0, address: 0x2D)
    public static let gyroscopeXHigh = Location(bank: 0, address: 0x33)
    public static let temperatureHigh = Location(bank: 0, address: 0x39)
    public static let externalSensorData = Location(bank: 0, address: 0x3B)

    // MARK: Bank 2 (§7.3)

    /// GYRO_SMPLRT_DIV (bank 2, 0x00): gyroscope ODR = 1.1 kHz / (1 + GYRO_SMPLRT_DIV) (§8,
    /// GYRO_SMPLRT_DIV; with GYRO_FCHOICE = 1). The I2C master runs at this rate too while the
    /// gyroscope is on (§8, I2C_MST_ODR_CONFIG).
    public static let gyroscopeSampleRateDivider = Location(bank: 2, address: 0x00)
    /// GYRO_CONFIG_1 (bank 2, 0x01): GYRO_DLPFCFG[5:3], GYRO_FS_SEL[2:1], GYRO_FCHOICE bit 0
    /// (1 = low-pass filter on). 0x01 at reset.
    public static let gyroscopeConfig1 = Location(bank: 2, address: 0x01)
    /// ACCEL_SMPLRT_DIV_1 (bank 2, 0x10, bits 3:0 = divider bits 11:8) and ACCEL_SMPLRT_DIV_2
    /// (0x11, bits 7:0): accelerometer ODR = 1.125 kHz / (1 + ACCEL_SMPLRT_DIV[11:0]).
    public static let accelerometerSampleRateDivider1 = Location(bank: 2, address: 0x10)
    public static let accelerometerSampleRateDivider2 = Location(bank: 2, address: 0x11)
    /// ACCEL_CONFIG (bank 2, 0x14): ACCEL_DLPFCFG[5:3], ACCEL_FS_SEL[2:1], ACCEL_FCHOICE bit 0.
    /// 0x01 at reset.
    public static let accelerometerConfig = Location(bank: 2, address: 0x14)

    // MARK: Bank 3 (§7.4): the auxiliary I2C master

    /// I2C_MST_CTRL (bank 3, 0x01): I2C_MST_P_NSR bit 4 (a stop between slave reads),
    /// I2C_MST_CLK[3:0] (7 = 345.6 kHz, the datasheet's recommended setting for 400 kHz slaves).
    public static let i2cMasterControl = Location(bank: 3, address: 0x01)
    public static let i2cMasterClock345kHzStopBetweenReads: UInt8 = 0x17
    /// I2C_SLV0_ADDR (bank 3, 0x03): I2C_SLV0_RNW bit 7 (1 = read), I2C_ID_0[6:0];
    /// I2C_SLV0_REG (0x04): the slave's first register; I2C_SLV0_CTRL (0x05): I2C_SLV0_EN bit 7,
    /// I2C_SLV0_LENG[3:0] bytes, read into EXT_SLV_SENS_DATA_00 on every I2C master cycle.
    public static let slave0Address = Location(bank: 3, address: 0x03)
    public static let slave0Register = Location(bank: 3, address: 0x04)
    public static let slave0Control = Location(bank: 3, address: 0x05)
    /// I2C_SLV0_DO (bank 3, 0x06): the byte slave 0 writes when I2C_SLV0_RNW is 0.
    public static let slave0DataOut = Location(bank: 3, address: 0x06)
    /// I2C_SLV4_ADDR/REG/CTRL/DO/DI (bank 3, 0x13…0x17): a single-byte transfer, started by
    /// I2C_SLV4_EN (CTRL bit 7), finished when I2C_MST_STATUS.I2C_SLV4_DONE rises; a read's byte
    /// lands in I2C_SLV4_DI.
    public static let slave4Address = Location(bank: 3, address: 0x13)
    public static let slave4Register = Location(bank: 3, address: 0x14)
    public static let slave4Control = Location(bank: 3, address: 0x15)
    public static let slave4DataOut = Location(bank: 3, address: 0x16)
    public static let slave4DataIn = Location(bank: 3, address: 0x17)
    public static let slaveEnable: UInt8 = 0x80
    public static let slaveRead: UInt8 = 0x80

    /// AD0 low 0x68, high 0x69 (§9.2): the MPU-6050/9250's and the BMI160's addresses too.
    public static let addresses: [UInt8] = [0x68, 0x69]
}

/// The AK09916 magnetometer inside the ICM-20948, on the auxiliary bus at 0x0C (DS-000189 §16;
/// AKM AK09916C datasheet §9). Outputs are little endian.
public enum AK09916Register {
    public static let address: UInt8 = 0x0C
    /// WIA2 (0x01): 0x09 (WIA1 at 0x00 reads AKM's 0x48, as the AK8963's WIA does).
    public static let deviceID: UInt8 = 0x01
    public static let identity: UInt8 = 0x09
    /// ST1 (0x10): DRDY bit 0, DOR bit 1 (a sample was skipped before this one was read).
    public static let status1: UInt8 = 0x10
    /// HXL…HZH (0x11…0x16), TMPS (0x17, a dummy), ST2 (0x18): HOFL bit 3 (|B| over the
    /// ±4912 µT range: the sample is invalid). Reading ST2 ends the data read (§9.4.3).
    public static let outXLow: UInt8 = 0x11
    public static let status2: UInt8 = 0x18
    public static let overflow: UInt8 = 0x08
    /// ST1 through ST2: what SLV0 reads into EXT_SLV_SENS_DATA_00…08 each master cycle.
    public static let burstLength = 9
    /// CNTL2 (0x31): MODE[4:0]. 0x00 power-down, 0x01 single, 0x02 continuous mode 1 (10 Hz),
    /// 0x04 mode 2 (20 Hz), 0x06 mode 3 (50 Hz), 0x08 continuous mode 4 (100 Hz), 0x10 self-test.
    /// "Mode 4" is the value 0x08: 0x04 is mode 2 (20 Hz).
    public static let control2: UInt8 = 0x31
    public static let continuousMode4At100Hz: UInt8 = 0x08
    public static let powerDown: UInt8 = 0x00
    /// CNTL3 (0x32): SRST bit 0, soft reset (self-clearing).
    public static let control3: UInt8 = 0x32
    /// 0.15 µT per LSB = 150 000 pT (DS-000189 table 3, AK09916 §8), 16-bit two's complement.
    public static let picoteslaPerLSB: Int64 = 150_000

    /// The magnetometer's axes in the accelerometer's (DS-000189 §11 "Orientation of Axes",
    /// the figure of the package with both axis sets): x along the accelerometer's x, y and z
    /// reversed. Device x, y, z = AK x, −AK y, −AK z; the driver turns its field into the
    /// accelerometer's axes so that one board-file mount line serves the whole package.
    public static func packageAxes(_ x: Int16, _ y: Int16, _ z: Int16) -> (Int16, Int16, Int16) {
        // −(−32768) does not fit: the AK09916's range (±32752, §8) never produces it.
        (x, y == .min ? .max : -y, z == .min ? .max : -z)
    }
}

/// The ICM-20948's full scales and rates as data (DS-000189 table 1 gyroscope, table 2
/// accelerometer, table 4 temperature sensor, §8 GYRO_SMPLRT_DIV / ACCEL_SMPLRT_DIV).
public enum ICM20948Table {
    /// ±2 g 16384 LSB/g, ±4 g 8192, ±8 g 4096, ±16 g 2048 (table 2): the MPU-6050's sensitivities,
    /// so its LSB sizes in nm/s² (ACCEL_FS_SEL in bits 2:1 instead of 4:3).
    public static let accelerometerScales = MPU6050Table.accelerometerScales
    /// ±250 °/s 131 LSB/(°/s), ±500 65.5, ±1000 32.8, ±2000 16.4 (table 1), in nrad/s per LSB.
    public static let gyroscopeScales = MPU6050Table.gyroscopeScales
    /// Gyroscope internal rate with GYRO_FCHOICE = 1: 1.1 kHz, in mHz (§8 GYRO_SMPLRT_DIV).
    public static let gyroscopeInternalMilliHertz: Int64 = 1_100_000
    /// Accelerometer internal rate with ACCEL_FCHOICE = 1: 1.125 kHz, in mHz (§8 ACCEL_SMPLRT_DIV_2).
    public static let accelerometerInternalMilliHertz: Int64 = 1_125_000
    /// Temperature: °C = (TEMP_OUT − RoomTemp_Offset) / 333.87 + 21, RoomTemp_Offset 0 LSB
    /// typical (§8 TEMP_OUT; table 4: sensitivity 333.87 LSB/°C).
    public static let temperatureCentiLSBPerDegree: Int64 = 33_387
    public static let temperatureOffsetCelsius: Int64 = 21

    /// The GYRO_SMPLRT_DIV for `hertz`, and the period it gives in ns. Only the dividers whose
    /// samples line up with the AK09916's 100 Hz are offered: 0 (1.1 kHz, a field every 11th
    /// sample) and 11k − 1 (100 Hz, 50 Hz, 33.3 Hz, …: a field with every sample), so the field
    /// arrives on a regular schedule; any other divider would catch it 2 or 3 samples apart in
    /// turn. The one nearest in ratio is taken (400 Hz asked: 1.1 kHz; 200 Hz: 100 Hz).
    public static func gyroscopeDivider(hertz: Int) -> (divider: UInt8, periodNanoseconds: Int64) {
        let wanted = Double(max(1, hertz))
        // |√r − 1/√r| for the ratio r of rates: symmetric in r and 1/r, like |log r|.
        func distance(_ divider: Int) -> Double {
            let ratio = 1100 / Double(1 + divider) / wanted
            return abs(ratio.squareRoot() - 1 / ratio.squareRoot())
        }
        let candidates = [0] + (1...23).map { 11 * $0 - 1 }
        let divider = candidates.min { distance($0) < distance($1) }!
        return (UInt8(divider), period(divider: Int64(divider), internalMilliHertz: gyroscopeInternalMilliHertz))
    }

    /// How often the field arrives at a divider: every sample at 100 Hz and slower, every 11th
    /// at 1.1 kHz; in ns.
    public static func magnetometerPeriod(divider: UInt8) -> Int64 {
        let samplePeriod = period(divider: Int64(divider), internalMilliHertz: gyroscopeInternalMilliHertz)
        return divider == 0 ? 11 * samplePeriod : samplePeriod
    }

    /// The ACCEL_SMPLRT_DIV nearest `hertz` (0…4095).
    public static func accelerometerDivider(hertz: Int) -> UInt16 {
        let wanted = Int64(max(1, hertz)) * 1000
        return UInt16(clamping: min(4095, max(0, (accelerometerInternalMilliHertz + wanted / 2) / wanted - 1)))
    }

    /// (1 + divider) / internal rate, in ns, rounded to nearest.
    public static func period(divider: Int64, internalMilliHertz: Int64) -> Int64 {
        ((1 + divider) * 1_000_000_000_000 + internalMilliHertz / 2) / internalMilliHertz
    }
}
