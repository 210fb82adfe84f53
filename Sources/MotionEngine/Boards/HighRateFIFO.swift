/// A board's FIFO IMU run at its FIFO's highest rate, for batched clients
/// (`CMBatchedSensorManager`): which chip, at which rate, and at which rate the board file runs
/// it. The engine switches the chip between the two in place (`BoardRuntime.setFIFORate`):
/// the rate register and a FIFO flush, no chip reset, the other chips untouched.
///
/// Only chips whose driver drains a hardware FIFO qualify: the FIFO holds the samples between
/// reads, so the engine reads in bursts (every quarter of the FIFO's span, at most 10 ms) and
/// each sample keeps its FIFO-derived timestamp (the burst's newest frame at the read time, the
/// older ones back-dated at the FIFO period). At the highest rate the chip's data-ready edges
/// are turned off: at 1 kHz an edge per sample would wake the engine a thousand times a second
/// for what one FIFO burst per 10 ms brings. Polled chips (LSM9DS1, and the LSM6DSx under
/// `driver = lsm6dsx`) would need a read per sample at 1 kHz or more.
public struct HighRateFIFO: Sendable, Equatable {
    /// The IMU chip's label (`[chip imu]` → "imu").
    public var label: String
    /// The FIFO's highest rate, Hz.
    public var rateHertz: Int
    /// The rate the board file runs the chip at, Hz (its `rate`, else the driver's 100 Hz).
    public var boardRateHertz: Int

    /// The highest rate each FIFO driver family runs its FIFO at, Hz:
    /// - MPU-6050 family: 1 kHz. Sample rate = 1 kHz / (1 + SMPLRT_DIV) with the low-pass filter
    ///   on, and "the accelerometer output rate is 1 kHz" even when the gyroscope runs at 8 kHz
    ///   (RM-MPU-6000A-00 rev. 4.2 §4.2, SMPLRT_DIV): faster would repeat accelerometer samples.
    /// - BMI160: 1600 Hz, the accelerometer's highest ODR (acc_odr = 0x0C; BST-BMI160-DS000
    ///   §2.11.23 ACC_CONF); the gyroscope goes to 3200 Hz (§2.11.25) but the driver runs both
    ///   at one ODR so that every FIFO frame holds both.
    /// - LSM6DSO/LSM6DSOX/ISM330DHCX (`lsm6dsx-fifo`): 1666 Hz and LSM6DSV16X: 1920 Hz, the
    ///   highest ODRs in `LSM6DSXTable` (both sensors batched at the ODR, so every time slot
    ///   holds both; 512 or 511 words are 150 or 133 ms of frames, many 10 ms drains).
    /// - LSM6DS3/LSM6DS3TR-C (`lsm6ds3-fifo`): 1666 Hz, the same table's top (ODR_FIFO takes the
    ///   ODR codes; 341 frames are 205 ms).
    public static let highestRateHertz: [String: Int] = ["mpu6050": 1000, "mpu9250": 1000, "bmi160": 1600,
                                                         "lsm6dsx-fifo": 1666, "lsm6dsv16x": 1920, "lsm6ds3-fifo": 1666]

    /// The board's first chip with a FIFO driver, run at its highest rate; nil when the board has
    /// none (no batched sensors on it).
    public init?(board: BoardDescription) {
        guard let index = board.chips.firstIndex(where: Self.qualifies),
              let rate = Self.highestRateHertz[board.chips[index].driver] else { return nil }
        label = board.chips[index].label
        rateHertz = rate
        boardRateHertz = board.chips[index].rateHertz ?? Self.driverDefaultRateHertz
    }

    /// The rate both FIFO drivers run at when the board file gives none, Hz (`ChipFamily`).
    static let driverDefaultRateHertz = 100

    /// Chips read by our own FIFO drivers (emulated or on `/dev/i2c-N`); an IIO chip belongs to
    /// its kernel driver.
    private static func qualifies(_ chip: BoardDescription.Chip) -> Bool {
        if case .iio = chip.bus { return false }
        return highestRateHertz[chip.driver] != nil
    }
}
