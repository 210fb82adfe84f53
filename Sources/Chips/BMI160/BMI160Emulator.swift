public import SensorBus

/// A BMI160 at register level (BST-BMI160-DS000): CHIP_ID 0xD1, both sensors suspended after
/// power-on or soft reset, CMD register commands (normal modes, FIFO flush, soft reset),
/// samples at the ACC_CONF rate (changed in place in normal mode, on the ODR grid) into the
/// data registers and, with FIFO_CONFIG_1 = 0xC0, as
/// headerless 12-byte frames (gyroscope, accelerometer) into a 1024-byte FIFO that drops its
/// oldest frame when full, FIFO_DATA bursts that pop it, and injected faults.
public final class BMI160Emulator: I2CBus, EmulatedChip {
    public typealias MotionSource = (Int64) -> (acceleration: (Double, Double, Double), angularVelocity: (Double, Double, Double))

    public let name = "emulated I2C bus"
    public let address: UInt8
    public var motion: MotionSource
    public private(set) var faults = EmulatedBusFaults()
    /// Fault injection: when true the output registers freeze at their last values (a hung
    /// sensing element) while data-ready signalling and FIFO writes go on, repeating them.
    public var stuckOutput = false
    /// Frames dropped because the FIFO was full.
    public private(set) var droppedFrames = 0

    private var registers = [UInt8](repeating: 0, count: 128)
    private var fifo = [UInt8]()
    private var nanoseconds: Int64 = 0
    private var nextSampleNanoseconds: Int64 = 0
    /// When the sensors last started sampling (a power mode command): the phase of the ODR grid.
    private var samplingStartNanoseconds: Int64 = 0

    public init(address: UInt8 = 0x68, motion: @escaping MotionSource = { _ in ((0, 0, 9.80665), (0, 0, 0)) }) {
        self.address = address
        self.motion = motion
        powerOnReset()
    }

    public func inject(_ fault: BusFault, count: Int? = nil) { faults.inject(fault, count: count) }

    /// Reset values (§2.11): sensors suspended, 100 Hz, ±2 g, ±2000 °/s, FIFO off and empty.
    public func powerOnReset() {
        for index in registers.indices { registers[index] = 0 }
        registers[Int(BMI160Register.chipID)] = BMI160Register.identity
        registers[Int(BMI160Register.accelerometerConfig)] = 0x28
        registers[Int(BMI160Register.accelerometerRange)] = 0x03
        registers[Int(BMI160Register.gyroscopeConfig)] = 0x28
        registers[Int(BMI160Register.fifoConfig1)] = 0x10
        fifo.removeAll(keepingCapacity: true)
    }

    public var fifoCount: Int { fifo.count }

    public func advance(to timeNanoseconds: Int64) {
        defer { nanoseconds = timeNanoseconds }
        guard registers[Int(BMI160Register.powerStatus)] & 0b0011_1100 == BMI160Register.bothNormal else {
            nextSampleNanoseconds = timeNanoseconds
            return
        }
        let period = samplePeriodNanoseconds
        while nextSampleNanoseconds <= timeNanoseconds {
            sample(at: nextSampleNanoseconds)
            nextSampleNanoseconds += period
        }
    }

    /// The sample period at ACC_CONF's acc_odr, ns: ODR = 100 / 2^(8 − acc_odr) Hz (§2.11.23).
    private var samplePeriodNanoseconds: Int64 {
        let field = registers[Int(BMI160Register.accelerometerConfig)] & 0x0F
        let millihertz = field >= 8 ? Int64(100_000) << (field - 8) : Int64(100_000) >> (8 - min(field, 8))
        return 1_000_000_000_000 / max(millihertz, 1)
    }

    /// The first sample after acc_odr changes in normal mode. The rates are power-of-two
    /// divisions of one internal clock (the ODR table, §2.11.23), so a rate's samples fall on
    /// that clock's grid: modelled as the next multiple of the new period, counted from when
    /// the sensors started, after the write (samples up to the write were at the old rate).
    private var firstSampleAfterRateChange: Int64 {
        let period = samplePeriodNanoseconds
        return samplingStartNanoseconds + ((nanoseconds - samplingStartNanoseconds) / period + 1) * period
    }

    /// INT1 pulses at each sample when data ready is enabled (INT_EN_1.int_drdy_en), mapped to
    /// INT1 (INT_MAP_1.int1_drdy) and the pin's output is enabled (INT_OUT_CTRL.int1_output_en),
    /// with both sensors in normal mode.
    public var nextDataReadyNanoseconds: Int64? {
        let sampling = registers[Int(BMI160Register.powerStatus)] & 0b0011_1100 == BMI160Register.bothNormal
        let routed = registers[Int(BMI160Register.interruptEnable1)] & BMI160Register.dataReadyEnable != 0
            && registers[Int(BMI160Register.interruptMap1)] & BMI160Register.int1DataReady != 0
            && registers[Int(BMI160Register.interruptOutputControl)] & BMI160Register.int1OutputEnable != 0
        return sampling && routed ? max(nextSampleNanoseconds, nanoseconds) : nil
    }

    private func sample(at time: Int64) {
        let (acceleration, angularVelocity) = motion(time)
        let accelerometerLSB = BMI160Table.accelerometerScales.first { $0.field == registers[Int(BMI160Register.accelerometerRange)] }?.nanoUnitsPerLSB ?? 598_550
        let gyroscopeLSB = BMI160Table.gyroscopeScales.first { $0.field == registers[Int(BMI160Register.gyroscopeRange)] }?.nanoUnitsPerLSB ?? 1_064_225
        // DATA_8 … DATA_19: gyroscope then accelerometer, the headerless FIFO frame's order too.
        let start = Int(BMI160Register.gyroscopeXLow)
        if !stuckOutput {
            EmulatedCounts.storeLittleEndian(angularVelocity, lsb: gyroscopeLSB, denominator: 1e9, into: &registers, at: start)
            EmulatedCounts.storeLittleEndian(acceleration, lsb: accelerometerLSB, denominator: 1e9, into: &registers, at: start + 6)
        }
        guard registers[Int(BMI160Register.fifoConfig1)] == BMI160Register.fifoGyroscopeAndAccelerometer else { return }
        for index in start..<(start + 12) { fifo.append(registers[index]) }
        if fifo.count > BMI160Register.fifoCapacity - BMI160Register.fifoCapacity % 12 {
            fifo.removeFirst(12)  // stream mode: the oldest frame goes
            droppedFrames += 1
        }
    }

    public func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: register, length: buffer.count)
        if register == BMI160Register.fifoData {
            let count = min(buffer.count, fifo.count)
            for index in 0..<count { buffer[index] = fifo[index] }
            for index in count..<buffer.count { buffer[index] = 0x80 }  // over-read: "empty" marker bytes
            fifo.removeFirst(count)
            return
        }
        for offset in 0..<buffer.count {
            let index = Int(register) + offset
            switch index {
            case Int(BMI160Register.fifoLength): buffer[offset] = UInt8(fifo.count & 0xFF)
            case Int(BMI160Register.fifoLength) + 1: buffer[offset] = UInt8(fifo.count >> 8)
            default: buffer[offset] = index < registers.count ? registers[index] : 0
            }
        }
    }

    public func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: register, length: values.count)
        for (offset, value) in values.enumerated() {
            let index = Int(register) + offset
            if index == Int(BMI160Register.command) {
                switch value {
                case BMI160Register.softReset: powerOnReset()
                case BMI160Register.accelerometerNormalMode: registers[Int(BMI160Register.powerStatus)] |= 0b0001_0000
                case BMI160Register.gyroscopeNormalMode: registers[Int(BMI160Register.powerStatus)] |= 0b0000_0100
                case BMI160Register.fifoFlush: fifo.removeAll(keepingCapacity: true)
                default: break
                }
                if value != BMI160Register.fifoFlush {  // a mode change restarts sampling
                    nextSampleNanoseconds = nanoseconds
                    samplingStartNanoseconds = nanoseconds
                }
                continue
            }
            guard (0x40...0x7D).contains(index) else { continue }  // configuration registers only
            let oldRate = registers[Int(BMI160Register.accelerometerConfig)] & 0x0F
            registers[index] = value
            let sampling = registers[Int(BMI160Register.powerStatus)] & 0b0011_1100 == BMI160Register.bothNormal
            if index == Int(BMI160Register.accelerometerConfig), value & 0x0F != oldRate, sampling {
                nextSampleNanoseconds = firstSampleAfterRateChange
            }
        }
    }
}
