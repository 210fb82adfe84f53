public import SensorBus

/// An ICM-20948 at register level (DS-000189): four register banks chosen by REG_BANK_SEL
/// (0x7F in every bank), reset values (asleep, PWR_MGMT_1 = 0x41, bank 0, WHO_AM_I 0xEA),
/// self-clearing DEVICE_RESET (the reset values appear once it has read back set twice),
/// samples at the gyroscope's 1.1 kHz / (1 + GYRO_SMPLRT_DIV) while awake, big-endian data
/// registers, INT_STATUS_1 and I2C_MST_STATUS cleared by reading, and the auxiliary I2C master
/// with an AK09916 behind it: slave 0 reads its configured bytes into EXT_SLV_SENS_DATA on
/// every sample (the master follows the gyroscope's rate), slave 4 does one-byte transfers
/// (I2C_SLV4_DONE after one status read, I2C_SLV4_EN cleared when done: assumed, the datasheet
/// gives no transfer time).
///
/// Simplification: the accelerometer's own divider (1.125 kHz / (1 + ACCEL_SMPLRT_DIV)) is not
/// modelled: its registers update at the gyroscope's samples, as the driver programs the two
/// dividers for the same rate.
///
/// Faults: bus faults (`inject`), `stuckOutput` (accelerometer, gyroscope and magnetometer
/// outputs freeze while data ready goes on), `magnetometerNotAnswering` (the AK09916 does not
/// acknowledge the master: I2C_MST_STATUS.I2C_SLV0_NACK / I2C_SLV4_NACK), `powerOnReset()` (the
/// whole package) and `magnetometerPowerOnReset()` (the AK09916 alone, back to power-down).
public final class ICM20948Emulator: I2CBus, EmulatedChip {
    /// What the chip feels at a time in nanoseconds: specific force (m/s²) and angular velocity
    /// (rad/s), chip axes.
    public typealias MotionSource = (Int64) -> (acceleration: (Double, Double, Double), angularVelocity: (Double, Double, Double))

    public let name = "emulated I2C bus"
    public let address: UInt8
    public var motion: MotionSource
    /// The field, µT, in the accelerometer's (the package's) axes; the AK09916 model measures
    /// it in its own (x, −y, −z: AK09916Register.packageAxes).
    public var field: (Int64) -> (Double, Double, Double)
    /// The die temperature, °C.
    public var temperatureCelsius = 25.0
    public private(set) var faults = EmulatedBusFaults()
    public var stuckOutput = false
    /// Fault injection: the AK09916 does not acknowledge the I2C master.
    public var magnetometerNotAnswering = false
    /// REG_BANK_SEL writes so far (tests check the driver switches banks only when needed).
    public private(set) var bankSelectWrites = 0
    /// REG_BANK_SEL writes that selected the bank already selected.
    public private(set) var redundantBankSelects = 0
    /// The selected bank (REG_BANK_SEL bits 5:4).
    public private(set) var bank: UInt8 = 0

    private var banks = [[UInt8]](repeating: [UInt8](repeating: 0, count: 128), count: 4)
    private var nanoseconds: Int64 = 0
    private var nextSampleNanoseconds: Int64 = 0
    private var resetReadsPending = 0
    private var slave4StatusReadsPending = 0
    private var pendingMasterStatus: UInt8 = 0
    private let magnetometer = AK09916Model()

    /// At rest, lying face up, in a mid-latitude field (19 µT north, 46 µT down).
    public init(address: UInt8 = 0x68, motion: @escaping MotionSource = { _ in ((0, 0, 9.80665), (0, 0, 0)) },
                field: @escaping (Int64) -> (Double, Double, Double) = { _ in (19, 0, -46) }) {
        self.address = address
        self.motion = motion
        self.field = field
        powerOnReset()
    }

    public func inject(_ fault: BusFault, count: Int? = nil) { faults.inject(fault, count: count) }

    /// The package's reset (DS-000189 §7: 0 except WHO_AM_I 0xEA, PWR_MGMT_1 0x41, LP_CONFIG
    /// 0x40, GYRO_CONFIG_1 and ACCEL_CONFIG 0x01), bank 0. The AK09916 is its own die: a
    /// DEVICE_RESET does not reach it (`magnetometerPowerOnReset` does).
    public func powerOnReset() {
        for index in banks.indices { banks[index] = [UInt8](repeating: 0, count: 128) }
        bank = 0
        banks[0][0x00] = ICM20948Register.identity
        banks[0][Int(ICM20948Register.powerManagement1.address)] = ICM20948Register.sleep | ICM20948Register.clockAuto
        banks[0][Int(ICM20948Register.lowPowerConfig.address)] = 0x40
        banks[2][Int(ICM20948Register.gyroscopeConfig1.address)] = 0x01
        banks[2][Int(ICM20948Register.accelerometerConfig.address)] = 0x01
        pendingMasterStatus = 0
        slave4StatusReadsPending = 0
    }

    public func magnetometerPowerOnReset() { magnetometer.reset() }

    private func register(_ location: ICM20948Register.Location) -> UInt8 { banks[Int(location.bank)][Int(location.address)] }

    private var awake: Bool {
        register(ICM20948Register.powerManagement1) & ICM20948Register.sleep == 0 && resetReadsPending == 0
    }

    /// (1 + GYRO_SMPLRT_DIV) / 1.1 kHz.
    private var samplePeriodNanoseconds: Int64 {
        ICM20948Table.period(divider: Int64(register(ICM20948Register.gyroscopeSampleRateDivider)),
                             internalMilliHertz: ICM20948Table.gyroscopeInternalMilliHertz)
    }

    public func advance(to timeNanoseconds: Int64) {
        defer { nanoseconds = timeNanoseconds }
        guard awake else {
            nextSampleNanoseconds = timeNanoseconds
            magnetometer.advance(to: timeNanoseconds, field: akField(timeNanoseconds), stuck: stuckOutput)
            return
        }
        while nextSampleNanoseconds <= timeNanoseconds {
            sample(at: nextSampleNanoseconds)
            nextSampleNanoseconds += samplePeriodNanoseconds
        }
        magnetometer.advance(to: timeNanoseconds, field: akField(timeNanoseconds), stuck: stuckOutput)
    }

    /// RAW_DATA_0_RDY_EN routes each sample to INT1 while the chip is awake.
    public var nextDataReadyNanoseconds: Int64? {
        let routed = register(ICM20948Register.interruptEnable1) & ICM20948Register.rawDataReady != 0
        return awake && routed ? max(nextSampleNanoseconds, nanoseconds) : nil
    }

    private func akField(_ time: Int64) -> (Double, Double, Double) {
        let package = field(time)
        return (package.0, -package.1, -package.2)  // the AK09916's axes: x, −y, −z of the package's
    }

    private func sample(at time: Int64) {
        let (acceleration, angularVelocity) = motion(time)
        let accelerometer = ICM20948Table.accelerometerScales[Int(register(ICM20948Register.accelerometerConfig) >> 1 & 3)]
        let gyroscope = ICM20948Table.gyroscopeScales[Int(register(ICM20948Register.gyroscopeConfig1) >> 1 & 3)]
        if !stuckOutput {
            let base = Int(ICM20948Register.accelerometerXHigh.address)
            for (axis, value) in [acceleration.0, acceleration.1, acceleration.2].enumerated() {
                store(value * 1e9 / Double(accelerometer.nanoUnitsPerLSB), at: base + 2 * axis)
            }
            for (axis, value) in [angularVelocity.0, angularVelocity.1, angularVelocity.2].enumerated() {
                store(value * 1e9 / Double(gyroscope.nanoUnitsPerLSB), at: base + 6 + 2 * axis)
            }
            store((temperatureCelsius - 21) * 333.87, at: Int(ICM20948Register.temperatureHigh.address))
        }
        banks[0][Int(ICM20948Register.interruptStatus1.address)] |= ICM20948Register.rawDataReady
        // The I2C master's cycle follows the sample (I2C_MST_ODR_CONFIG: the gyroscope's ODR).
        magnetometer.advance(to: time, field: akField(time), stuck: stuckOutput)
        let control = register(ICM20948Register.slave0Control)
        guard register(ICM20948Register.userControl) & ICM20948Register.i2cMasterEnable != 0,
              control & ICM20948Register.slaveEnable != 0 else { return }
        let slaveAddress = register(ICM20948Register.slave0Address)
        guard !magnetometerNotAnswering, slaveAddress & 0x7F == AK09916Register.address else {
            pendingMasterStatus |= ICM20948Register.slave0NoAcknowledge  // EXT_SLV_SENS_DATA keeps its bytes
            return
        }
        guard slaveAddress & ICM20948Register.slaveRead != 0 else {
            magnetometer.write(register(ICM20948Register.slave0Register), register(ICM20948Register.slave0DataOut))
            return
        }
        let start = register(ICM20948Register.slave0Register)
        for offset in 0..<Int(control & 0x0F) {
            banks[0][Int(ICM20948Register.externalSensorData.address) + offset] = magnetometer.read(start &+ UInt8(offset))
        }
    }

    /// A count value, big endian, clamped to Int16 like the ADC.
    private func store(_ counts: Double, at index: Int) {
        let raw = Int16(clamping: Int64(counts.rounded()))
        banks[0][index] = UInt8(truncatingIfNeeded: raw >> 8)
        banks[0][index + 1] = UInt8(truncatingIfNeeded: raw)
    }

    /// Slave 4's one-byte transfer, done at once; I2C_SLV4_DONE shows from the second status read.
    private func runSlave4() {
        banks[3][Int(ICM20948Register.slave4Control.address)] &= ~ICM20948Register.slaveEnable
        guard awake, register(ICM20948Register.userControl) & ICM20948Register.i2cMasterEnable != 0 else { return }  // the master is off: never done
        let slaveAddress = register(ICM20948Register.slave4Address)
        slave4StatusReadsPending = 1
        guard !magnetometerNotAnswering, slaveAddress & 0x7F == AK09916Register.address else {
            pendingMasterStatus |= ICM20948Register.slave4NoAcknowledge
            return
        }
        let target = register(ICM20948Register.slave4Register)
        if slaveAddress & ICM20948Register.slaveRead != 0 {
            banks[3][Int(ICM20948Register.slave4DataIn.address)] = magnetometer.read(target)
        } else {
            magnetometer.write(target, register(ICM20948Register.slave4DataOut))
            magnetometer.advance(to: nanoseconds, field: akField(nanoseconds), stuck: stuckOutput)
        }
        pendingMasterStatus |= ICM20948Register.slave4Done
    }

    // MARK: I2CBus

    public func readRegisters(address: UInt8, register first: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: first, length: buffer.count)
        for offset in 0..<buffer.count {
            let index = Int(first) + offset
            guard index < 128 else { buffer[offset] = 0; continue }
            if index == Int(ICM20948Register.bankSelect) { buffer[offset] = bank << 4; continue }
            let location = ICM20948Register.Location(bank: bank, address: UInt8(index))
            switch location {
            case ICM20948Register.powerManagement1 where resetReadsPending > 0:
                resetReadsPending -= 1
                buffer[offset] = ICM20948Register.deviceReset | ICM20948Register.sleep | ICM20948Register.clockAuto
                if resetReadsPending == 0 { powerOnReset() }
            case ICM20948Register.i2cMasterStatus:
                if slave4StatusReadsPending > 0 {
                    slave4StatusReadsPending -= 1
                    buffer[offset] = pendingMasterStatus & ~(ICM20948Register.slave4Done | ICM20948Register.slave4NoAcknowledge)
                    pendingMasterStatus &= ICM20948Register.slave4Done | ICM20948Register.slave4NoAcknowledge
                } else {
                    buffer[offset] = pendingMasterStatus
                    pendingMasterStatus = 0  // cleared by reading
                }
            case ICM20948Register.interruptStatus1:
                buffer[offset] = banks[0][index]
                banks[0][index] = 0  // cleared by reading
            default:
                buffer[offset] = banks[Int(bank)][index]
            }
        }
    }

    public func writeRegisters(address: UInt8, register first: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: first, length: values.count)
        for (offset, value) in values.enumerated() {
            let index = Int(first) + offset
            guard index < 128 else { continue }
            if index == Int(ICM20948Register.bankSelect) {
                if value >> 4 & 0x03 == bank { redundantBankSelects += 1 }
                bank = value >> 4 & 0x03
                bankSelectWrites += 1
                continue
            }
            let location = ICM20948Register.Location(bank: bank, address: UInt8(index))
            switch location {
            case ICM20948Register.whoAmI:
                break  // read-only
            case ICM20948Register.powerManagement1 where value & ICM20948Register.deviceReset != 0:
                resetReadsPending = 2
            case ICM20948Register.powerManagement1:
                banks[0][index] = value
                nextSampleNanoseconds = nanoseconds
            case ICM20948Register.userControl:
                banks[0][index] = value & ~ICM20948Register.i2cMasterReset  // self-clearing
            case ICM20948Register.slave4Control:
                banks[3][index] = value
                if value & ICM20948Register.slaveEnable != 0 { runSlave4() }
            default:
                banks[Int(bank)][index] = value
            }
        }
    }
}

/// The AK09916 behind the master (AKM AK09916C datasheet §9): WIA1 0x48, WIA2 0x09, ST1 DRDY
/// (and DOR when a sample came over an unread one), HXL…HZH little endian at 0.15 µT/LSB, ST2
/// (HOFL over ±4912 µT) whose read ends the data read, CNTL2 modes, CNTL3 soft reset.
final class AK09916Model {
    private var registers = [UInt8](repeating: 0, count: 0x33)
    private var nanoseconds: Int64 = 0
    private var nextSampleNanoseconds: Int64 = 0

    init() { reset() }

    func reset() {
        for index in registers.indices { registers[index] = 0 }
        registers[0x00] = 0x48
        registers[Int(AK09916Register.deviceID)] = AK09916Register.identity
    }

    /// The period of a continuous mode, ns (nil: not continuous).
    private var period: Int64? {
        switch registers[Int(AK09916Register.control2)] & 0x1F {
        case 0x02: 100_000_000
        case 0x04: 50_000_000
        case 0x06: 20_000_000
        case 0x08: 10_000_000
        default: nil
        }
    }

    func advance(to time: Int64, field: (Double, Double, Double), stuck: Bool) {
        nanoseconds = max(nanoseconds, time)
        guard let period, nextSampleNanoseconds <= nanoseconds else { return }
        while nextSampleNanoseconds <= nanoseconds { nextSampleNanoseconds += period }
        if registers[Int(AK09916Register.status1)] & 0x01 != 0 { registers[Int(AK09916Register.status1)] |= 0x02 }  // DOR
        var overflow = false
        for (axis, component) in [field.0, field.1, field.2].enumerated() where !stuck {
            if abs(component) > 4912 { overflow = true }
            let counts = Int16(clamping: Int((component / 0.15).rounded()))
            registers[Int(AK09916Register.outXLow) + 2 * axis] = UInt8(truncatingIfNeeded: counts)
            registers[Int(AK09916Register.outXLow) + 2 * axis + 1] = UInt8(truncatingIfNeeded: counts >> 8)
        }
        registers[Int(AK09916Register.status1)] |= 0x01
        registers[Int(AK09916Register.status2)] = overflow ? AK09916Register.overflow : 0
    }

    func read(_ register: UInt8) -> UInt8 {
        guard Int(register) < registers.count else { return 0 }
        let value = registers[Int(register)]
        if register == AK09916Register.status2 { registers[Int(AK09916Register.status1)] = 0 }  // the data read is over
        return value
    }

    func write(_ register: UInt8, _ value: UInt8) {
        switch register {
        case AK09916Register.control2:
            registers[Int(register)] = value & 0x1F
            nextSampleNanoseconds = nanoseconds
        case AK09916Register.control3 where value & 0x01 != 0:
            reset()
        default:
            break
        }
    }
}
