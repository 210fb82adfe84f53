public import SensorBus

/// An MPU-6050 at register level (RM-MPU-6000A-00): reset values (asleep, WHO_AM_I 0x68),
/// self-clearing DEVICE_RESET and FIFO_RESET, samples at 1 kHz / (1 + SMPLRT_DIV) (a divider
/// written while sampling takes effect in place, on the internal sample clock) written to
/// the data registers and, when enabled, as 12-byte frames into a 1024-byte FIFO that overwrites
/// its oldest bytes when full (setting FIFO_OFLOW_INT), burst reads that auto-increment except
/// on FIFO_R_W (which pops the FIFO), INT_STATUS cleared by reading, and injected faults.
///
/// The motion is a caller-given source: acceleration (m/s², specific force, device axes) and
/// angular velocity (rad/s) at a time, converted to counts with the configured full scale.
public final class MPU6050Emulator: I2CBus, EmulatedChip {
    /// What the chip feels at a time in nanoseconds.
    public typealias MotionSource = (Int64) -> (acceleration: (Double, Double, Double), angularVelocity: (Double, Double, Double))

    public let name = "emulated I2C bus"
    public let address: UInt8
    public var motion: MotionSource
    /// Injected bus faults (see `inject`).
    public private(set) var faults = EmulatedBusFaults()
    /// Fault injection: when true the output registers freeze at their last values (a hung
    /// sensing element) while data-ready signalling and FIFO writes go on, repeating them.
    public var stuckOutput = false

    private var registers = [UInt8](repeating: 0, count: 128)
    private var fifo = [UInt8]()
    private var nanoseconds: Int64 = 0
    private var nextSampleNanoseconds: Int64 = 0
    /// When the latest sample was taken since the chip woke (nil: none yet).
    private var lastSampleNanoseconds: Int64?
    private var resetReadsPending = 0

    /// At rest, lying face up: +1 g on z (the chip measures specific force), no rotation.
    public init(address: UInt8 = 0x68, whoAmI: UInt8 = 0x68, motion: @escaping MotionSource = { _ in ((0, 0, 9.80665), (0, 0, 0)) }) {
        self.address = address
        self.motion = motion
        registers[Int(MPU6050Register.whoAmI)] = whoAmI
        fifo.reserveCapacity(MPU6050Register.fifoCapacity)
        powerOnReset()
    }

    /// Injects `fault` for the next `count` transactions it touches (nil: until cleared).
    public func inject(_ fault: BusFault, count: Int? = nil) { faults.inject(fault, count: count) }

    /// Every register to its reset value (RM §3: all 0 but PWR_MGMT_1 = 0x40, WHO_AM_I), FIFO empty.
    public func powerOnReset() {
        let whoAmI = registers[Int(MPU6050Register.whoAmI)]
        for index in registers.indices { registers[index] = 0 }
        registers[Int(MPU6050Register.whoAmI)] = whoAmI
        registers[Int(MPU6050Register.powerManagement1)] = MPU6050Register.sleep
        fifo.removeAll(keepingCapacity: true)
        lastSampleNanoseconds = nil
    }

    /// The gyroscope output rate's period, ns: 8 kHz with the low-pass filter off (DLPF_CFG 0
    /// or 7), 1 kHz with it on (RM §4.3).
    private var internalPeriodNanoseconds: Int64 {
        let lowPass = registers[Int(MPU6050Register.config)] & 0x07
        return lowPass == 0 || lowPass == 7 ? 125_000 : 1_000_000
    }

    /// The sample period, ns: the internal period × (1 + SMPLRT_DIV) (RM §4.2).
    private var samplePeriodNanoseconds: Int64 {
        internalPeriodNanoseconds * Int64(registers[Int(MPU6050Register.sampleRateDivider)] &+ 1)
    }

    /// The next sample after SMPLRT_DIV changes while the chip samples. The register map does
    /// not say where the divider's count restarts; modelled as a counter of internal samples
    /// compared with SMPLRT_DIV: the next output comes (1 + SMPLRT_DIV) internal samples after
    /// the last one, or at the next internal sample if that moment has already passed. The
    /// internal samples keep their phase: the chip's clock does not stop.
    private func nextSampleAfterDividerChange() -> Int64 {
        guard let last = lastSampleNanoseconds else { return nanoseconds }
        let internalPeriod = internalPeriodNanoseconds
        let nextInternal = last + ((nanoseconds - last) / internalPeriod + 1) * internalPeriod
        return max(last + samplePeriodNanoseconds, nextInternal)
    }

    /// Bytes waiting in the FIFO.
    public var fifoCount: Int { fifo.count }

    /// Runs the chip's clock to `timeNanoseconds`, producing every sample due by then.
    public func advance(to timeNanoseconds: Int64) {
        defer { nanoseconds = timeNanoseconds }
        guard registers[Int(MPU6050Register.powerManagement1)] & MPU6050Register.sleep == 0 else {
            nextSampleNanoseconds = timeNanoseconds
            return
        }
        let period = samplePeriodNanoseconds
        while nextSampleNanoseconds <= timeNanoseconds {
            sample(at: nextSampleNanoseconds)
            nextSampleNanoseconds += period
        }
    }

    /// The INT pin pulses at each sample when INT_ENABLE.DATA_RDY_EN is set and the chip is awake.
    public var nextDataReadyNanoseconds: Int64? {
        let awake = registers[Int(MPU6050Register.powerManagement1)] & MPU6050Register.sleep == 0 && resetReadsPending == 0
        let routed = registers[Int(MPU6050Register.interruptEnable)] & MPU6050Register.interruptDataReady != 0
        return awake && routed ? max(nextSampleNanoseconds, nanoseconds) : nil
    }

    private func sample(at time: Int64) {
        lastSampleNanoseconds = time
        let (acceleration, angularVelocity) = motion(time)
        let accelerometer = MPU6050Table.accelerometerScales[Int(registers[Int(MPU6050Register.accelerometerConfig)] >> 3 & 3)]
        let gyroscope = MPU6050Table.gyroscopeScales[Int(registers[Int(MPU6050Register.gyroscopeConfig)] >> 3 & 3)]
        let base = Int(MPU6050Register.accelerometerXHigh)
        // ACCEL_XOUT_H … GYRO_ZOUT_L, big endian; TEMP_OUT (base + 6, 7) stays 0 (36.53 °C by
        // the datasheet's formula; not modelled).
        if !stuckOutput {
            store(acceleration.0, accelerometer, at: base)
            store(acceleration.1, accelerometer, at: base + 2)
            store(acceleration.2, accelerometer, at: base + 4)
            store(angularVelocity.0, gyroscope, at: base + 8)
            store(angularVelocity.1, gyroscope, at: base + 10)
            store(angularVelocity.2, gyroscope, at: base + 12)
        }
        registers[Int(MPU6050Register.interruptStatus)] |= MPU6050Register.interruptDataReady
        let fifoOn = registers[Int(MPU6050Register.userControl)] & MPU6050Register.userControlFIFOEnable != 0
        guard fifoOn, registers[Int(MPU6050Register.fifoEnable)] == MPU6050Register.fifoAccelerometerAndGyroscope else { return }
        // A frame is the accelerometer then the gyroscope registers, in register order.
        for index in base..<(base + 6) { fifo.append(registers[index]) }
        for index in (base + 8)..<(base + 14) { fifo.append(registers[index]) }
        if fifo.count > MPU6050Register.fifoCapacity {
            fifo.removeFirst(fifo.count - MPU6050Register.fifoCapacity)  // oldest bytes overwritten
            registers[Int(MPU6050Register.interruptStatus)] |= MPU6050Register.interruptFIFOOverflow
        }
    }

    /// One value as big-endian counts of `scale`, clamped to Int16 like the ADC.
    private func store(_ value: Double, _ scale: MPU6050Table.FullScale, at index: Int) {
        let raw = Int16(clamping: Int64((value * 1e9 / Double(scale.nanoUnitsPerLSB)).rounded()))
        registers[index] = UInt8(truncatingIfNeeded: raw >> 8)
        registers[index + 1] = UInt8(truncatingIfNeeded: raw)
    }

    // MARK: I2CBus

    public func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        try transaction(address: address, register: register, length: buffer.count)
        if register == MPU6050Register.fifoReadWrite {
            // Burst reads stay on FIFO_R_W; an empty FIFO reads its last byte again (0 here).
            let count = min(buffer.count, fifo.count)
            for index in 0..<count { buffer[index] = fifo[index] }
            for index in count..<buffer.count { buffer[index] = 0 }
            fifo.removeSubrange(0..<count)  // in place, keeps the reserved capacity
            return
        }
        for offset in 0..<buffer.count {
            let index = Int(register) + offset
            guard index < registers.count else { buffer[offset] = 0; continue }
            switch UInt8(index) {
            case MPU6050Register.fifoCountHigh: buffer[offset] = UInt8(fifo.count >> 8)
            case MPU6050Register.fifoCountHigh + 1: buffer[offset] = UInt8(fifo.count & 0xFF)
            case MPU6050Register.powerManagement1 where resetReadsPending > 0:
                // DEVICE_RESET reads 1 until the reset completes, then the reset values appear.
                resetReadsPending -= 1
                buffer[offset] = MPU6050Register.deviceReset | MPU6050Register.sleep
                if resetReadsPending == 0 { powerOnReset() }
            default: buffer[offset] = registers[index]
            }
            if UInt8(index) == MPU6050Register.interruptStatus { registers[index] = 0 }  // cleared by reading
        }
    }

    public func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        try transaction(address: address, register: register, length: values.count)
        for (offset, value) in values.enumerated() {
            let index = Int(register) + offset
            guard index < registers.count, UInt8(index) != MPU6050Register.whoAmI else { continue }
            switch UInt8(index) {
            case MPU6050Register.powerManagement1 where value & MPU6050Register.deviceReset != 0:
                resetReadsPending = 2
            case MPU6050Register.userControl:
                if value & MPU6050Register.userControlFIFOReset != 0 { fifo.removeAll(keepingCapacity: true) }
                registers[index] = value & ~MPU6050Register.userControlFIFOReset  // self-clearing
            case MPU6050Register.powerManagement1:
                registers[index] = value
                nextSampleNanoseconds = nanoseconds
                lastSampleNanoseconds = nil
            case MPU6050Register.sampleRateDivider:
                registers[index] = value
                nextSampleNanoseconds = nextSampleAfterDividerChange()
            default:
                registers[index] = value
            }
        }
    }

    private func transaction(address: UInt8, register: UInt8, length: Int) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: register, length: length)
    }
}
