public import FixedPoint
public import MotionAlgorithms
public import SensorBus

/// A TDK InvenSense ICM-20948 (accelerometer + gyroscope, with an AK09916 magnetometer on its
/// own auxiliary I2C bus) read from its data registers, one sample per data-ready.
///
/// Banks: every register lives in one of four banks chosen by REG_BANK_SEL (0x7F in every bank,
/// DS-000189 §7). The driver keeps the bank it last selected (`bank`) and writes REG_BANK_SEL
/// only when a register in another bank is needed; it does not know the bank when it opens the
/// chip (another program may have left it anywhere) or after a failed transaction (the write may
/// or may not have reached the chip), so it selects bank 0 explicitly then. DEVICE_RESET puts
/// the chip back in bank 0 (REG_BANK_SEL's reset value). Between calls the chip is always left
/// in bank 0, where every per-sample register is.
///
/// Magnetometer: the AK09916 answers only to the ICM-20948's I2C master (USER_CTRL.I2C_MST_EN).
/// The driver talks to it through slave 4 (one byte per transfer: WIA2, soft reset, continuous
/// mode 4 at 100 Hz), then has slave 0 read its ST1…ST2 (9 bytes) into EXT_SLV_SENS_DATA_00…08
/// on every master cycle, which runs at the gyroscope's rate (DS-000189 §8, I2C_MST_ODR_CONFIG:
/// with the gyroscope on, the master follows its ODR). Each read takes accelerometer, gyroscope,
/// temperature and those 9 bytes in one 23-byte burst (ACCEL_XOUT_H 0x2D … EXT_SLV_SENS_DATA_08
/// 0x43), so the magnetometer bytes belong to the same master cycle as the inertial sample.
///
/// Axes: the field is turned into the accelerometer's axes (AK09916Register.packageAxes), so a
/// board file's one mount line for the chip serves all three sensors.
public final class ICM20948Driver<Bus: I2CBus> {
    public struct Configuration: Sendable, Equatable {
        /// Output rate in Hz: the gyroscope's 1.1 kHz / (1 + GYRO_SMPLRT_DIV) at the divider
        /// nearest in ratio among those whose samples line up with the AK09916's 100 Hz
        /// (`ICM20948Table.gyroscopeDivider`: 1.1 kHz, 100 Hz, 50 Hz, …), the accelerometer's
        /// divider chosen for the nearest rate from its 1.125 kHz.
        public var sampleRateHertz: Int = 100
        /// Accelerometer range needed, m/s² (the smallest full scale holding it is chosen).
        public var accelerometerRange: Double = 4 * 9.80665
        /// Gyroscope range needed, rad/s.
        public var gyroscopeRange: Double = 500 * .pi / 180
        /// GYRO_DLPFCFG / ACCEL_DLPFCFG: 3 = gyroscope 51.2 Hz, accelerometer 50.4 Hz 3-dB
        /// bandwidth (DS-000189 §8 GYRO_CONFIG_1 / ACCEL_CONFIG tables), for 100 Hz output.
        public var lowPassFilter: UInt8 = 3

        public init() {}
    }

    public let bus: Bus
    public let address: UInt8
    public let configuration: Configuration
    public let accelerometerScale: MPU6050Table.FullScale
    public let gyroscopeScale: MPU6050Table.FullScale
    /// The gyroscope's output period at the divider chosen, ns (1.1 kHz / (1 + div)).
    public let samplePeriodNanoseconds: Int64
    /// How often a field comes, ns: with every sample at 100 Hz and slower, every 11th at 1.1 kHz.
    public let magnetometerPeriodNanoseconds: Int64
    /// Whether INT_ENABLE_1 routes raw data ready to INT1.
    public let dataReadyInterrupt: Bool
    /// The bank REG_BANK_SEL holds, as far as the driver knows (nil: unknown, selected anew).
    public private(set) var bank: UInt8?
    /// Chip resets (or lost bank selections) noticed and recovered from.
    public private(set) var recoveries = 0
    /// Field samples dropped because the AK09916 flagged them invalid (ST2.HOFL: |B| > 4912 µT).
    public private(set) var overflows = 0
    /// Master cycles in which the AK09916 did not acknowledge slave 0 (I2C_MST_STATUS.I2C_SLV0_NACK).
    public private(set) var magnetometerNoAcknowledges = 0
    /// Times the AK09916 was set up again because its field stopped coming.
    public private(set) var magnetometerRestarts = 0
    /// The die temperature of the latest sample, °C in Q16.16 (not delivered as a reading: it
    /// is the chip's, not the surroundings').
    public private(set) var temperature = Q16_16(rawValue: 0)

    /// Samples in a row without a new field; past `magnetometerSilenceLimit` the AK09916 is
    /// set up again (it was reset or powered down behind the master's back).
    private var samplesWithoutField = 0
    private var magnetometerSilenceLimit: Int { max(8, Int(4 * magnetometerPeriodNanoseconds / samplePeriodNanoseconds)) }

    private var access: RegisterAccess<Bus> { RegisterAccess(bus: bus, address: address, chip: "ICM-20948") }

    public init(bus: Bus, address: UInt8 = 0x68, configuration: Configuration = .init(), dataReadyInterrupt: Bool = true) throws(ChipError) {
        self.bus = bus
        self.address = address
        self.configuration = configuration
        self.dataReadyInterrupt = dataReadyInterrupt
        accelerometerScale = MPU6050Table.scale(in: ICM20948Table.accelerometerScales, holding: configuration.accelerometerRange)
        gyroscopeScale = MPU6050Table.scale(in: ICM20948Table.gyroscopeScales, holding: configuration.gyroscopeRange)
        let divider = ICM20948Table.gyroscopeDivider(hertz: configuration.sampleRateHertz)
        samplePeriodNanoseconds = divider.periodNanoseconds
        magnetometerPeriodNanoseconds = ICM20948Table.magnetometerPeriod(divider: divider.divider)
        try initialise()
    }

    // MARK: Banked access

    /// Selects `wanted` unless the chip is known to be there already. A failed write leaves the
    /// bank unknown (the chip may or may not have taken it).
    private func select(_ wanted: UInt8) throws(ChipError) {
        guard bank != wanted else { return }
        bank = nil
        try access.write(ICM20948Register.bankSelect, wanted << 4, "selecting the ICM-20948 register bank \(wanted) (REG_BANK_SEL 0x7F)")
        bank = wanted
    }

    private func read(_ register: ICM20948Register.Location, _ what: @autoclosure () -> String) throws(ChipError) -> UInt8 {
        try select(register.bank)
        do { return try access.read(register.address, what()) } catch { bank = nil; throw error }
    }

    private func write(_ register: ICM20948Register.Location, _ value: UInt8, _ what: @autoclosure () -> String) throws(ChipError) {
        try select(register.bank)
        do { try access.write(register.address, value, what()) } catch { bank = nil; throw error }
    }

    private func burst(_ register: ICM20948Register.Location, into buffer: UnsafeMutableRawBufferPointer,
                       _ what: @autoclosure () -> String) throws(ChipError) {
        try select(register.bank)
        do {
            try access.attempt(what()) { () throws(BusError) in try bus.readRegisters(address: address, register: register.address, into: buffer) }
        } catch { bank = nil; throw error }
    }

    // MARK: Set-up

    private func initialise() throws(ChipError) {
        bank = nil  // whatever a previous program or a half-done set-up left
        try select(0)
        try access.identify(register: ICM20948Register.whoAmI.address, expected: [ICM20948Register.identity])
        let what = "configuring the ICM-20948"
        // DEVICE_RESET: every register to its reset value, REG_BANK_SEL included (bank 0), the
        // chip asleep (PWR_MGMT_1 = 0x41); the bit clears itself when the reset is done.
        try write(ICM20948Register.powerManagement1, ICM20948Register.deviceReset, "resetting the ICM-20948")
        bank = 0
        try waitUntilClear(ICM20948Register.powerManagement1, mask: ICM20948Register.deviceReset, what: "its reset (PWR_MGMT_1.DEVICE_RESET)")
        // Wake with CLKSEL = 1 (auto: the PLL once it locks), accelerometer and gyroscope on.
        // The gyroscope needs 35 ms from sleep before its first sample (table 1, start-up
        // time): its data ready simply comes later; nothing here waits on it but slave 4.
        try write(ICM20948Register.powerManagement1, ICM20948Register.clockAuto, what)
        try write(ICM20948Register.powerManagement2, 0x00, what)
        try write(ICM20948Register.lowPowerConfig, 0x00, what)  // no duty cycling (0x40 at reset: the I2C master's)
        // The master follows the gyroscope's ODR: the AK09916 is set up while GYRO_SMPLRT_DIV is
        // still 0 (1.1 kHz after reset), so each slave-4 transfer waits < 1 ms for its cycle.
        try startMagnetometer()
        let divider = ICM20948Table.gyroscopeDivider(hertz: configuration.sampleRateHertz).divider
        let accelerometerDivider = ICM20948Table.accelerometerDivider(hertz: configuration.sampleRateHertz)
        let filter = (configuration.lowPassFilter & 0x07) << 3
        try write(ICM20948Register.gyroscopeSampleRateDivider, divider, what)
        try write(ICM20948Register.gyroscopeConfig1, filter | gyroscopeScale.field << 1 | 0x01, what)  // GYRO_FCHOICE = 1
        try write(ICM20948Register.accelerometerSampleRateDivider1, UInt8(accelerometerDivider >> 8), what)
        try write(ICM20948Register.accelerometerSampleRateDivider2, UInt8(truncatingIfNeeded: accelerometerDivider), what)
        try write(ICM20948Register.accelerometerConfig, filter | accelerometerScale.field << 1 | 0x01, what)  // ACCEL_FCHOICE = 1
        try write(ICM20948Register.interruptEnable1, dataReadyInterrupt ? ICM20948Register.rawDataReady : 0, what)
        try select(0)  // left in bank 0, where every per-sample register is
        samplesWithoutField = 0
    }

    /// Polls `register` (selecting its bank once) until the bits in `mask` read 0.
    private func waitUntilClear(_ register: ICM20948Register.Location, mask: UInt8, what: String) throws(ChipError) {
        try select(register.bank)
        do { try access.waitUntilClear(register: register.address, mask: mask, what: what) } catch { bank = nil; throw error }
    }

    /// Enables the I2C master and sets the AK09916 up behind it: WIA2 = 0x09, soft reset,
    /// continuous mode 4 (100 Hz), then slave 0 reading ST1…ST2 every master cycle.
    private func startMagnetometer() throws(ChipError) {
        let what = "starting the ICM-20948's I2C master for its AK09916"
        try write(ICM20948Register.interruptPinConfig, 0x00, what)  // BYPASS_EN 0: the master owns AUX_DA/CL
        try write(ICM20948Register.userControl, ICM20948Register.i2cMasterEnable, what)
        try write(ICM20948Register.i2cMasterControl, ICM20948Register.i2cMasterClock345kHzStopBetweenReads, what)
        let identity = try slave4(read: AK09916Register.deviceID)
        guard identity == AK09916Register.identity else {
            throw .unexpectedIdentity(chip: "AK09916 (behind the ICM-20948 at \(hex(address)), auxiliary I2C \(hex(AK09916Register.address)))",
                                      bus: bus.name, address: address, register: AK09916Register.deviceID,
                                      expected: [AK09916Register.identity], found: identity)
        }
        try slave4(write: 0x01, to: AK09916Register.control3)  // SRST: power-down, every register reset
        try slave4(write: AK09916Register.continuousMode4At100Hz, to: AK09916Register.control2)
        try write(ICM20948Register.slave0Address, ICM20948Register.slaveRead | AK09916Register.address, what)
        try write(ICM20948Register.slave0Register, AK09916Register.status1, what)
        try write(ICM20948Register.slave0Control, ICM20948Register.slaveEnable | UInt8(AK09916Register.burstLength), what)
        try select(0)
    }

    private func slave4(read register: UInt8) throws(ChipError) -> UInt8 {
        try slave4(address: ICM20948Register.slaveRead | AK09916Register.address, register: register, value: nil)
        return try read(ICM20948Register.slave4DataIn, "reading the AK09916's \(hex(register)) (I2C_SLV4_DI)")
    }

    private func slave4(write value: UInt8, to register: UInt8) throws(ChipError) {
        try slave4(address: AK09916Register.address, register: register, value: value)
    }

    /// One slave-4 transfer: address, register, data out, then I2C_SLV4_EN; done when
    /// I2C_MST_STATUS.I2C_SLV4_DONE rises, failed when I2C_SLV4_NACK does. At most 1000 status
    /// reads (≥ 50 ms at 400 kHz): the gyroscope's 35 ms start-up and a master cycle.
    private func slave4(address slaveAddress: UInt8, register: UInt8, value: UInt8?) throws(ChipError) {
        let what = "a transfer to the ICM-20948's AK09916 (register \(hex(register)) through I2C_SLV4)"
        try write(ICM20948Register.slave4Address, slaveAddress, what)
        try write(ICM20948Register.slave4Register, register, what)
        if let value { try write(ICM20948Register.slave4DataOut, value, what) }
        try write(ICM20948Register.slave4Control, ICM20948Register.slaveEnable, what)
        for _ in 0..<1000 {
            let status = try read(ICM20948Register.i2cMasterStatus, "waiting for \(what)")
            if status & ICM20948Register.slave4NoAcknowledge != 0 {
                throw .auxiliaryDeviceNotAnswering(chip: "ICM-20948", bus: bus.name, address: address, device: "AK09916 magnetometer",
                                                   auxiliaryAddress: AK09916Register.address)
            }
            if status & ICM20948Register.slave4Done != 0 { return }
        }
        throw .notReady(chip: "ICM-20948", bus: bus.name, address: address, what: what)
    }

    // MARK: Reading

    /// The newest sample stamped `nowNanoseconds`: acceleration (m/s², Q16.16), angular
    /// velocity (rad/s, Q16.16) and, when the AK09916 had a new valid one in the same master
    /// cycle, the field (µT, Q16.16, the accelerometer's axes); nil when no sample is ready
    /// (or the chip was found reset and set up again).
    public func read(nowNanoseconds: Int64) throws(ChipError)
        -> (acceleration: SensorReading, angularVelocity: SensorReading, magneticField: SensorReading?)? {
        // I2C_MST_STATUS (0x17), reserved 0x18, INT_STATUS (0x19), INT_STATUS_1 (0x1A): the
        // status registers clear as they are read.
        var status = UInt32(0)
        let flags = try withUnsafeMutableBytes(of: &status) { (buffer) throws(ChipError) -> (master: UInt8, ready: UInt8) in
            try burst(ICM20948Register.i2cMasterStatus, into: buffer, "reading the ICM-20948 status (0x17…0x1A)")
            return (buffer[0], buffer[3])
        }
        guard flags.ready & ICM20948Register.rawDataReady != 0 else {
            try recoverIfReset()
            return nil
        }
        var data = (UInt64(0), UInt64(0), UInt64(0))  // 23 of 24 bytes: 0x2D … 0x43
        let sample = try withUnsafeMutableBytes(of: &data) { (buffer) throws(ChipError) in
            let bytes = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<23])
            try burst(ICM20948Register.accelerometerXHigh, into: bytes, "reading the ICM-20948 data (0x2D…0x43)")
            return ICM20948Conversion.decode(UnsafeRawBufferPointer(bytes), accelerometerNanoUnitsPerLSB: accelerometerScale.nanoUnitsPerLSB,
                                             gyroscopeNanoUnitsPerLSB: gyroscopeScale.nanoUnitsPerLSB)
        }
        temperature = sample.temperature
        var field: SensorReading?
        if flags.master & ICM20948Register.slave0NoAcknowledge != 0 {
            magnetometerNoAcknowledges += 1  // EXT_SLV_SENS_DATA holds an older cycle's bytes
        } else if sample.magnetometerReady {
            samplesWithoutField = 0
            if sample.magnetometerOverflow {
                overflows += 1
            } else {
                field = SensorReading(timestampNanoseconds: nowNanoseconds, value: .magneticField(sample.magneticField))
            }
        }
        if field == nil && !sample.magnetometerReady {
            samplesWithoutField += 1
            if samplesWithoutField >= magnetometerSilenceLimit && flags.master & ICM20948Register.slave0NoAcknowledge == 0 {
                samplesWithoutField = 0
                magnetometerRestarts += 1
                try startMagnetometer()
            }
        }
        return (SensorReading(timestampNanoseconds: nowNanoseconds, value: .acceleration(sample.acceleration)),
                SensorReading(timestampNanoseconds: nowNanoseconds, value: .angularVelocity(sample.angularVelocity)), field)
    }

    /// With no sample ready: was the chip reset (asleep, I2C master off) or moved to another
    /// bank? REG_BANK_SEL is read first (it answers in every bank); then USER_CTRL…PWR_MGMT_1.
    private func recoverIfReset() throws(ChipError) {
        let selected = try access.read(ICM20948Register.bankSelect, "reading the ICM-20948 REG_BANK_SEL (0x7F)") >> 4 & 0x03
        if selected != 0 {
            bank = nil
            try initialise()
            recoveries += 1
            return
        }
        bank = 0
        var state = UInt32(0)
        let (user, power) = try withUnsafeMutableBytes(of: &state) { (buffer) throws(ChipError) -> (UInt8, UInt8) in
            try burst(ICM20948Register.userControl, into: buffer, "reading the ICM-20948 power state (0x03…0x06)")
            return (buffer[0], buffer[3])
        }
        if power & ICM20948Register.sleep != 0 || user & ICM20948Register.i2cMasterEnable == 0 {
            try initialise()
            recoveries += 1
        }
    }
}
