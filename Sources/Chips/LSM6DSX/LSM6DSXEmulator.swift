public import SensorBus

/// An LSM6DSx at register level: WHO_AM_I per variant, power-down at reset with IF_INC set,
/// self-clearing SW_RESET, outputs at the accelerometer's ODR with XLDA/GDA (cleared by reading
/// the outputs), auto-increment per IF_INC, and injected faults.
public final class LSM6DSXEmulator: I2CBus, EmulatedChip {
    public typealias MotionSource = (Int64) -> (acceleration: (Double, Double, Double), angularVelocity: (Double, Double, Double))

    public let name = "emulated I2C bus"
    public let address: UInt8
    public var motion: MotionSource
    public private(set) var faults = EmulatedBusFaults()
    /// Fault injection: when true the output registers freeze at their last values (a hung
    /// sensing element) while data-ready signalling and FIFO writes go on, repeating them.
    public var stuckOutput = false
    private let whoAmI: UInt8
    private var registers = [UInt8](repeating: 0, count: 128)
    private var nanoseconds: Int64 = 0
    private var nextSampleNanoseconds: Int64 = 0

    public init(address: UInt8 = 0x6A, whoAmI: UInt8 = 0x6C, motion: @escaping MotionSource = { _ in ((0, 0, 9.80665), (0, 0, 0)) }) {
        self.address = address
        self.whoAmI = whoAmI
        self.motion = motion
        powerOnReset()
    }

    public func inject(_ fault: BusFault, count: Int? = nil) { faults.inject(fault, count: count) }

    public func powerOnReset() {
        for index in registers.indices { registers[index] = 0 }
        registers[Int(LSM6DSXRegister.whoAmI)] = whoAmI
        registers[Int(LSM6DSXRegister.control3)] = LSM6DSXRegister.addressIncrement
    }

    /// The accelerometer's output data rate field, when it is sampling (0: power-down).
    private var rateField: Int? {
        let field = Int(registers[Int(LSM6DSXRegister.control1Accelerometer)] >> 4)
        return field > 0 && field < LSM6DSXTable.ratesMilliHertz.count ? field : nil
    }

    /// The INT1 pin signals data ready when INT1_CTRL routes INT1_DRDY_XL or INT1_DRDY_G to it.
    public var nextDataReadyNanoseconds: Int64? {
        let routed = registers[Int(LSM6DSXRegister.int1Control)] & (LSM6DSXRegister.int1DataReadyAccelerometer | LSM6DSXRegister.int1DataReadyGyroscope) != 0
        return routed && rateField != nil ? max(nextSampleNanoseconds, nanoseconds) : nil
    }

    public func advance(to timeNanoseconds: Int64) {
        nanoseconds = timeNanoseconds
        guard let field = rateField, nanoseconds >= nextSampleNanoseconds else { return }
        let period = 1_000_000_000_000 / LSM6DSXTable.ratesMilliHertz[field]
        // The output registers hold one sample: the newest one due by now.
        var newest = nextSampleNanoseconds
        while nextSampleNanoseconds <= nanoseconds {
            newest = nextSampleNanoseconds
            nextSampleNanoseconds += period
        }
        let (acceleration, angularVelocity) = motion(newest)
        let accelerometerField = registers[Int(LSM6DSXRegister.control1Accelerometer)] >> 2 & 3
        let gyroscopeField = registers[Int(LSM6DSXRegister.control2Gyroscope)] >> 2 & 3
        let accelerometerLSB = LSM6DSXTable.accelerometerScales.first { $0.field == accelerometerField }!.nanoUnitsPerLSB
        let gyroscopeLSB = LSM6DSXTable.gyroscopeScales.first { $0.field == gyroscopeField }!.nanoUnitsPerLSB
        if !stuckOutput {
            EmulatedCounts.storeLittleEndian(acceleration, lsb: accelerometerLSB, denominator: 1e9, into: &registers,
                                             at: Int(LSM6DSXRegister.accelerometerOutXL))
            EmulatedCounts.storeLittleEndian(angularVelocity, lsb: gyroscopeLSB, denominator: 1e9, into: &registers,
                                             at: Int(LSM6DSXRegister.gyroscopeOutXL))
        }
        registers[Int(LSM6DSXRegister.status)] |= 0x03
    }

    public func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: register, length: buffer.count)
        let increments = registers[Int(LSM6DSXRegister.control3)] & LSM6DSXRegister.addressIncrement != 0
        for offset in 0..<buffer.count {
            let index = Int(register) + (increments ? offset : 0)
            buffer[offset] = index < registers.count ? registers[index] : 0
        }
        if Int(register) + buffer.count > Int(LSM6DSXRegister.gyroscopeOutXL) { registers[Int(LSM6DSXRegister.status)] = 0 }
    }

    public func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: register, length: values.count)
        for (offset, value) in values.enumerated() {
            let index = Int(register) + offset
            guard (0x01...0x1D).contains(index), index != Int(LSM6DSXRegister.whoAmI) else { continue }
            if index == Int(LSM6DSXRegister.control3), value & LSM6DSXRegister.softwareReset != 0 {
                powerOnReset()
                continue
            }
            registers[index] = value
            if index == Int(LSM6DSXRegister.control1Accelerometer) { nextSampleNanoseconds = nanoseconds }
        }
    }
}
