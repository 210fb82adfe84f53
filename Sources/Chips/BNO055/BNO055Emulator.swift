public import SensorBus

/// A BNO055 at register level (BST-BNO055-DS000-14): two register pages chosen by PAGE_ID,
/// the power-on values (CHIP_ID 0xA0, ACC_ID 0xFB, MAG_ID 0x32, GYR_ID 0x0F, UNIT_SEL 0x80,
/// OPR_MODE CONFIGMODE, AXIS_MAP_CONFIG 0x24, ST_RESULT 0x0F; page 1's ACC_Config 0x0D,
/// MAG_Config 0x6D, GYR_Config_0 0x38), and the operation modes' rules: in CONFIGMODE the
/// sensors stop and every writable register takes writes; in an operation mode only OPR_MODE,
/// PAGE_ID and SYS_TRIGGER do (§3.3: "all other registers are read-only"), and writes elsewhere
/// are ignored and counted (`ignoredWrites`). The calibration profile (0x55…0x6A) reads as 0
/// outside CONFIGMODE (the datasheet gives it only in CONFIGMODE, §3.11.4: a driver that
/// forgets the switch fails here). Outputs start 7 ms after a switch out of CONFIGMODE
/// (table 3-6), then the accelerometer and gyroscope every 10 ms and the field every 50 ms
/// (NDOF's rates, table 3-14, also used in AMG), in the units UNIT_SEL selects; in NDOF also
/// the quaternion (Q2.14) and CALIB_STAT (`calibrationStatus`, set by the test: the
/// background calibration itself is not modelled).
///
/// Simplifications: fusion outputs are what `attitude` says, not computed; Euler angles, linear
/// acceleration and gravity stay 0; the outputs in NDOF are the ideal sensors (offsets already
/// removed, as the chip's compensation would); SYS_TRIGGER's RST_SYS resets at once (the chip
/// runs its power-on reset, §3.2, and answers again later); TEMP is in °C whatever UNIT_SEL's
/// bit 4 says (the driver selects °C).
///
/// Faults: bus faults (`inject`), `stuckOutput`, `powerOnReset()`, `systemError` (SYS_STATUS 1
/// with that SYS_ERR).
public final class BNO055Emulator: I2CBus, EmulatedChip {
    /// Specific force (m/s²) and angular velocity (rad/s) at a time in nanoseconds, chip axes.
    public typealias MotionSource = (Int64) -> (acceleration: (Double, Double, Double), angularVelocity: (Double, Double, Double))

    public let name = "emulated I2C bus"
    public let address: UInt8
    public var motion: MotionSource
    /// The field, µT, chip axes.
    public var field: (Int64) -> (Double, Double, Double)
    /// The fusion's attitude (w, x, y, z), a unit quaternion.
    public var attitude: (Int64) -> (Double, Double, Double, Double)
    public var temperatureCelsius = 25.0
    /// CALIB_STAT as the chip would report it in NDOF (0 in other modes).
    public var calibrationStatus: UInt8 = 0
    public var stuckOutput = false
    /// Fault injection: SYS_STATUS 1 (system error) with this SYS_ERR; nil: none.
    public var systemError: UInt8?
    /// Writes ignored because the chip was not in CONFIGMODE.
    public private(set) var ignoredWrites = 0
    public private(set) var page = 0
    public private(set) var faults = EmulatedBusFaults()

    private var pages = [[UInt8]](repeating: [UInt8](repeating: 0, count: 128), count: 2)
    private var nanoseconds: Int64 = 0
    private var nextSampleNanoseconds: Int64 = 0
    private var nextFieldNanoseconds: Int64 = 0

    /// At rest, lying face up, in a mid-latitude field (19 µT north, 46 µT down), level.
    public init(address: UInt8 = BNO055Register.address,
                motion: @escaping MotionSource = { _ in ((0, 0, 9.80665), (0, 0, 0)) },
                field: @escaping (Int64) -> (Double, Double, Double) = { _ in (19, 0, -46) },
                attitude: @escaping (Int64) -> (Double, Double, Double, Double) = { _ in (1, 0, 0, 0) }) {
        self.address = address
        self.motion = motion
        self.field = field
        self.attitude = attitude
        powerOnReset()
    }

    public func inject(_ fault: BusFault, count: Int? = nil) { faults.inject(fault, count: count) }

    /// Table 4-2 and 4-3's reset values; everything else 0; page 0, CONFIGMODE.
    public func powerOnReset() {
        pages = [[UInt8]](repeating: [UInt8](repeating: 0, count: 128), count: 2)
        page = 0
        pages[0][0x00] = BNO055Register.identity
        for (index, identity) in BNO055Register.componentIdentities.enumerated() { pages[0][1 + index] = identity }
        pages[0][0x04] = 0x11  // SW_REV_ID 0x0311 (firmware 3.11)
        pages[0][0x05] = 0x03
        pages[0][0x06] = 0x15  // BL_REV_ID
        pages[0][Int(BNO055Register.selfTestResult)] = 0x0F
        pages[0][Int(BNO055Register.unitSelection)] = 0x80
        pages[0][0x41] = 0x24  // AXIS_MAP_CONFIG
        pages[1][0x08] = 0x0D  // ACC_Config: 4 g, 62.5 Hz, normal
        pages[1][0x09] = 0x6D  // MAG_Config: 20 Hz, regular, normal
        pages[1][0x0A] = 0x38  // GYR_Config_0: 2000 °/s, 32 Hz
        pages[1][Int(BNO055Register.pageID)] = 1
    }

    private var mode: UInt8 { pages[0][Int(BNO055Register.operationMode)] & 0x0F }

    public func advance(to timeNanoseconds: Int64) {
        nanoseconds = timeNanoseconds
        let fusion = mode == BNO055Register.OperationMode.nineDegreesOfFreedom.rawValue
        pages[0][Int(BNO055Register.systemStatus)] = systemError != nil ? 1 : mode == 0 ? 0 : fusion ? 5 : 6
        pages[0][Int(BNO055Register.systemError)] = systemError ?? 0
        guard mode != 0, nanoseconds >= nextSampleNanoseconds else { return }
        while nextSampleNanoseconds <= nanoseconds { nextSampleNanoseconds += BNO055Register.fusionPeriodNanoseconds }
        guard !stuckOutput else { return }
        let units = pages[0][Int(BNO055Register.unitSelection)]
        let (acceleration, rate) = motion(nanoseconds)
        // UNIT_SEL bit 0: m/s² (100 LSB) or mg (1 LSB); bit 1: °/s (16 LSB) or rad/s (900 LSB).
        let accelerationScale = units & 0x01 == 0 ? 100 : 1000 / 9.80665
        let rateScale = units & 0x02 == 0 ? 16 * 180 / Double.pi : 900
        store(at: BNO055Register.accelerometerData, [acceleration.0, acceleration.1, acceleration.2].map { $0 * accelerationScale })
        store(at: BNO055Register.gyroscopeData, [rate.0, rate.1, rate.2].map { $0 * rateScale })
        if nanoseconds >= nextFieldNanoseconds {
            while nextFieldNanoseconds <= nanoseconds { nextFieldNanoseconds += BNO055Register.ndofMagnetometerPeriodNanoseconds }
            let value = field(nanoseconds)
            store(at: BNO055Register.magnetometerData, [value.0, value.1, value.2].map { $0 * Double(BNO055Register.countsPerMicrotesla) })
        }
        pages[0][Int(BNO055Register.temperature)] = UInt8(bitPattern: Int8(clamping: Int(temperatureCelsius.rounded())))
        if fusion {
            let q = attitude(nanoseconds)
            store(at: BNO055Register.quaternionData, [q.0, q.1, q.2, q.3].map { $0 * 16384 })
            pages[0][Int(BNO055Register.calibrationStatus)] = calibrationStatus
        }
    }

    private func store(at register: UInt8, _ values: [Double]) {
        for (index, value) in values.enumerated() {
            let counts = Int16(clamping: Int(value.rounded()))
            pages[0][Int(register) + 2 * index] = UInt8(truncatingIfNeeded: counts)
            pages[0][Int(register) + 2 * index + 1] = UInt8(truncatingIfNeeded: counts >> 8)
        }
    }

    public func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: register, length: buffer.count)
        let profile = Int(BNO055Register.calibrationProfile)..<Int(BNO055Register.calibrationProfile) + BNO055Register.calibrationProfileLength
        for offset in 0..<buffer.count {
            let index = Int(register) + offset
            guard index < 128 else { buffer[offset] = 0; continue }
            buffer[offset] = page == 0 && profile.contains(index) && mode != 0 ? 0 : pages[page][index]
        }
    }

    public func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: register, length: values.count)
        for (offset, value) in values.enumerated() {
            let index = Int(register) + offset
            guard index < 128 else { continue }
            switch (page, index) {
            case (_, Int(BNO055Register.pageID)):
                page = Int(value & 0x01)
            case (0, Int(BNO055Register.operationMode)):
                let leavingConfiguration = mode == 0 && value & 0x0F != 0
                pages[0][index] = value & 0x0F
                if leavingConfiguration {
                    nextSampleNanoseconds = nanoseconds + BNO055Register.fromConfigurationNanoseconds
                    nextFieldNanoseconds = nextSampleNanoseconds
                }
                advance(to: nanoseconds)  // SYS_STATUS follows the mode at once
            case (0, Int(BNO055Register.systemTrigger)) where value & BNO055Register.resetSystem != 0:
                powerOnReset()
            case (0, 0x00...0x06), (0, 0x08...0x3A), (0, Int(BNO055Register.systemTrigger)):
                break  // read-only (identities, outputs, status) or a trigger with nothing modelled
            case _ where mode != 0:
                ignoredWrites += 1
            default:
                pages[page][index] = value
            }
        }
    }
}
