public import SensorBus

/// The LSM9DS1 package at register level: its accelerometer/gyroscope device (WHO_AM_I 0x68,
/// auto-increment per CTRL_REG8.IF_ADD_INC, self-clearing SW_RESET, outputs at the ODR_G rate
/// with GDA/XLDA) and its magnetometer device (WHO_AM_I 0x3D, power-down at reset, outputs at
/// the DO rate in continuous mode with ZYXDA, auto-increment only with the sub-address MSB),
/// answering at their two addresses, with injected faults. One emulator, two I2C devices, as on
/// the chip.
public final class LSM9DS1Emulator: I2CBus {
    /// What the package feels: specific force (m/s²), angular velocity (rad/s), field (µT),
    /// all in chip axes, at a time in nanoseconds.
    public typealias MotionSource = (Int64) -> (acceleration: (Double, Double, Double), angularVelocity: (Double, Double, Double),
                                                 magneticField: (Double, Double, Double))

    public let name = "emulated I2C bus"
    public let inertialAddress: UInt8
    public let magnetometerAddress: UInt8
    /// Emulate a stand-alone LIS3MDL's sensitivity on the magnetometer address instead.
    public let isLIS3MDL: Bool
    public var motion: MotionSource
    public private(set) var faults = EmulatedBusFaults()
    /// Fault injection: when true the output registers freeze at their last values (a hung
    /// sensing element) while data-ready signalling and FIFO writes go on, repeating them.
    public var stuckOutput = false

    private var inertial = [UInt8](repeating: 0, count: 128)
    private var magnetometer = [UInt8](repeating: 0, count: 64)
    private var nanoseconds: Int64 = 0
    private var nextInertialNanoseconds: Int64 = 0
    private var nextMagnetometerNanoseconds: Int64 = 0

    /// At rest face up in the Earth's field (Berlin: 19 µT north, 46 µT down).
    public init(inertialAddress: UInt8 = 0x6A, magnetometerAddress: UInt8 = 0x1C, isLIS3MDL: Bool = false,
                motion: @escaping MotionSource = { _ in ((0, 0, 9.80665), (0, 0, 0), (19, 0, -46)) }) {
        self.inertialAddress = inertialAddress
        self.magnetometerAddress = magnetometerAddress
        self.isLIS3MDL = isLIS3MDL
        self.motion = motion
        powerOnReset()
    }

    public func inject(_ fault: BusFault, count: Int? = nil) { faults.inject(fault, count: count) }

    /// Both devices to their reset values (§7, §8 register tables).
    public func powerOnReset() {
        for index in inertial.indices { inertial[index] = 0 }
        for index in magnetometer.indices { magnetometer[index] = 0 }
        inertial[Int(LSM9DS1Register.whoAmI)] = LSM9DS1Register.inertialIdentity
        inertial[Int(LSM9DS1Register.control8)] = LSM9DS1Register.addressIncrement
        magnetometer[Int(LSM9DS1Register.whoAmI)] = LSM9DS1Register.magnetometerIdentity
        magnetometer[Int(LSM9DS1Register.control1Magnetometer)] = 0x10
        magnetometer[Int(LSM9DS1Register.control3Magnetometer)] = 0x03  // power-down
    }

    public func advance(to timeNanoseconds: Int64) {
        nanoseconds = timeNanoseconds
        let rate = Int(inertial[Int(LSM9DS1Register.control1Gyroscope)] >> 5)
        if rate > 0, rate < LSM9DS1Table.inertialRatesMilliHertz.count {
            let period = 1_000_000_000_000 / Int64(LSM9DS1Table.inertialRatesMilliHertz[rate])
            if nanoseconds >= nextInertialNanoseconds {
                // A fixed schedule from the mode change; measurements missed between two
                // advances are overwritten by the latest, as in the output registers.
                while nextInertialNanoseconds <= nanoseconds { nextInertialNanoseconds += period }
                let (acceleration, angularVelocity, _) = motion(nanoseconds)
                let accelerometerField = inertial[Int(LSM9DS1Register.control6Accelerometer)] >> 3 & 3
                let gyroscopeField = inertial[Int(LSM9DS1Register.control1Gyroscope)] >> 3 & 3
                let accelerometerLSB = LSM9DS1Table.accelerometerScales.first { $0.field == accelerometerField }?.nanoUnitsPerLSB ?? 598_206
                let gyroscopeLSB = LSM9DS1Table.gyroscopeScales.first { $0.field == gyroscopeField }?.nanoUnitsPerLSB ?? 152_716
                if !stuckOutput {
                    EmulatedCounts.storeLittleEndian(acceleration, lsb: accelerometerLSB, denominator: 1e9, into: &inertial, at: Int(LSM9DS1Register.accelerometerOutXL))
                    EmulatedCounts.storeLittleEndian(angularVelocity, lsb: gyroscopeLSB, denominator: 1e9, into: &inertial, at: Int(LSM9DS1Register.gyroscopeOutXL))
                }
                inertial[Int(LSM9DS1Register.status)] |= 0x03
            }
        }
        let magnetometerRate = Int(magnetometer[Int(LSM9DS1Register.control1Magnetometer)] >> 2 & 0x07)
        if magnetometer[Int(LSM9DS1Register.control3Magnetometer)] & 0x03 == 0, nanoseconds >= nextMagnetometerNanoseconds {
            let period = 1_000_000_000_000 / Int64(LSM9DS1Table.magnetometerRatesMilliHertz[magnetometerRate])
            while nextMagnetometerNanoseconds <= nanoseconds { nextMagnetometerNanoseconds += period }
            let field = motion(nanoseconds).magneticField
            let scales = isLIS3MDL ? LSM9DS1Table.lis3mdlMagnetometerScales : LSM9DS1Table.magnetometerScales
            let lsb = scales[Int(magnetometer[Int(LSM9DS1Register.control2Magnetometer)] >> 5 & 3)].picoteslaPerLSB
            if !stuckOutput {
                EmulatedCounts.storeLittleEndian(field, lsb: lsb, denominator: 1e6, into: &magnetometer, at: Int(LSM9DS1Register.magnetometerOutXL))
            }
            magnetometer[Int(LSM9DS1Register.statusMagnetometer)] |= 0x08
        }
    }

    // MARK: I2CBus

    public func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        let isMagnetometer = address == magnetometerAddress
        let start = isMagnetometer ? register & 0x7F : register
        try faults.check(bus: name, chipAddress: isMagnetometer ? magnetometerAddress : inertialAddress, address: address,
                         register: start, length: buffer.count)
        let increments = isMagnetometer ? register & LSM9DS1Register.magnetometerAutoIncrement != 0
                                        : inertial[Int(LSM9DS1Register.control8)] & LSM9DS1Register.addressIncrement != 0
        for offset in 0..<buffer.count {
            let index = Int(start) + (increments ? offset : 0)
            if isMagnetometer {
                buffer[offset] = index < magnetometer.count ? magnetometer[index] : 0
            } else {
                buffer[offset] = index < inertial.count ? inertial[index] : 0
            }
        }
        // Reading the outputs clears the data-ready bits.
        if isMagnetometer, Int(start) + buffer.count > Int(LSM9DS1Register.magnetometerOutXL) { magnetometer[Int(LSM9DS1Register.statusMagnetometer)] = 0 }
        if !isMagnetometer, Int(start) + buffer.count > Int(LSM9DS1Register.gyroscopeOutXL) { inertial[Int(LSM9DS1Register.status)] = 0 }
    }

    public func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        let isMagnetometer = address == magnetometerAddress
        let start = isMagnetometer ? register & 0x7F : register
        try faults.check(bus: name, chipAddress: isMagnetometer ? magnetometerAddress : inertialAddress, address: address,
                         register: start, length: values.count)
        for (offset, value) in values.enumerated() {
            let index = Int(start) + offset
            if isMagnetometer {
                guard (0x20...0x24).contains(index) else { continue }
                if index == Int(LSM9DS1Register.control2Magnetometer), value & LSM9DS1Register.magnetometerSoftReset != 0 {
                    let identity = magnetometer[Int(LSM9DS1Register.whoAmI)]
                    for register in magnetometer.indices { magnetometer[register] = 0 }
                    magnetometer[Int(LSM9DS1Register.whoAmI)] = identity
                    magnetometer[Int(LSM9DS1Register.control1Magnetometer)] = 0x10
                    magnetometer[Int(LSM9DS1Register.control3Magnetometer)] = 0x03
                    continue
                }
                magnetometer[index] = value
                nextMagnetometerNanoseconds = nanoseconds
            } else {
                guard (0x04...0x3F).contains(index), index != Int(LSM9DS1Register.whoAmI) else { continue }
                if index == Int(LSM9DS1Register.control8), value & LSM9DS1Register.softwareReset != 0 {
                    // SW_RESET: registers to defaults; the bit reads back clear once done.
                    let magnetometerState = magnetometer
                    powerOnReset()
                    magnetometer = magnetometerState
                    continue
                }
                inertial[index] = value
                if index == Int(LSM9DS1Register.control1Gyroscope) { nextInertialNanoseconds = nanoseconds }
            }
        }
    }
}
