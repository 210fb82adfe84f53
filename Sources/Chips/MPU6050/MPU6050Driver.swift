import FixedPoint
public import MotionAlgorithms
public import SensorBus

/// An MPU-6050 family IMU (accelerometer + gyroscope) on an I2C bus, read through its FIFO:
/// the chip buffers 12-byte frames at the sample rate and the driver drains them in bursts,
/// so no sample is lost between reads (up to 85 frames, 1024 bytes, of slack).
///
/// Each `drain` first reads USER_CTRL…FIFO_COUNT in one burst: if the chip was reset (FIFO
/// disabled, sleeping), it is re-initialised and the recovery counted; if the FIFO overflowed
/// (the caller read too late), the FIFO is reset, the loss is counted and reported, and the
/// stream goes on aligned to frames again.
public final class MPU6050Driver<Bus: I2CBus>: FIFOInertialDriver {
    public struct Configuration: Sendable, Equatable {
        /// Sample rate in Hz: 1000 / (1 + SMPLRT_DIV), so 4…1000 Hz in steps of the divider.
        public var sampleRateHertz: Int = 100
        /// Accelerometer range needed, m/s² (the smallest full scale holding it is chosen).
        public var accelerometerRange: Double = 4 * 9.80665
        /// Gyroscope range needed, rad/s.
        public var gyroscopeRange: Double = 500 * .pi / 180
        /// DLPF_CFG: 3 = 44 Hz accelerometer / 42 Hz gyroscope bandwidth (RM §4.3 table).
        public var lowPassFilter: UInt8 = 3

        public init() {}

        /// SMPLRT_DIV for the requested rate, and the rate it gives.
        var divider: UInt8 { UInt8(clamping: max(0, MPU6050Table.internalRateHertz / max(1, sampleRateHertz) - 1)) }
        var actualRateHertz: Int { MPU6050Table.internalRateHertz / (Int(divider) + 1) }
    }

    public typealias DrainResult = FIFODrainResult

    public let bus: Bus
    public let address: UInt8
    /// What the chip runs at; `setSampleRate` changes the rate.
    public private(set) var configuration: Configuration
    public private(set) var variant: MPU6050Table.Variant
    public let accelerometerScale: MPU6050Table.FullScale
    public let gyroscopeScale: MPU6050Table.FullScale
    /// Sample period in nanoseconds at the actual rate.
    public private(set) var samplePeriodNanoseconds: Int64
    /// Whether INT_ENABLE routes data ready to the INT pin (`setSampleRate` may turn it off).
    public private(set) var dataReadyInterrupt = true
    /// 1024 bytes of 12-byte frames.
    public var fifoCapacityFrames: Int { MPU6050Register.fifoCapacity / 12 }
    public private(set) var recoveries = 0
    public private(set) var overflows = 0

    public init(bus: Bus, address: UInt8 = 0x68, configuration: Configuration = .init()) throws(ChipError) {
        self.bus = bus
        self.address = address
        self.configuration = configuration
        accelerometerScale = MPU6050Table.scale(in: MPU6050Table.accelerometerScales, holding: configuration.accelerometerRange)
        gyroscopeScale = MPU6050Table.scale(in: MPU6050Table.gyroscopeScales, holding: configuration.gyroscopeRange)
        samplePeriodNanoseconds = 1_000_000_000 / Int64(configuration.actualRateHertz)
        variant = MPU6050Table.variants[0]
        variant = try initialise()
    }

    private var access: RegisterAccess<Bus> { RegisterAccess(bus: bus, address: address, chip: variant.name) }

    private func initialise() throws(ChipError) -> MPU6050Table.Variant {
        let whoAmI = try access.identify(register: MPU6050Register.whoAmI, expected: MPU6050Table.variants.map(\.whoAmI),
                                         family: "MPU-6050 family")
        variant = MPU6050Table.variants.first { $0.whoAmI == whoAmI }!  // identify() matched one
        let what = "configuring the \(variant.name)"
        try access.write(MPU6050Register.powerManagement1, MPU6050Register.deviceReset, "resetting the \(variant.name)")
        // DEVICE_RESET clears itself when the reset is done (100 ms on silicon).
        try access.waitUntilClear(register: MPU6050Register.powerManagement1, mask: MPU6050Register.deviceReset, what: "its reset")
        try access.write(MPU6050Register.powerManagement1, MPU6050Register.clockPLL, what)  // wake, PLL clock
        try access.write(MPU6050Register.config, configuration.lowPassFilter, what)
        try access.write(MPU6050Register.sampleRateDivider, configuration.divider, what)
        try access.write(MPU6050Register.gyroscopeConfig, gyroscopeScale.field << 3, what)
        try access.write(MPU6050Register.accelerometerConfig, accelerometerScale.field << 3, what)
        try access.write(MPU6050Register.interruptEnable, interruptEnableValue, what)
        try access.write(MPU6050Register.userControl, MPU6050Register.userControlFIFOReset, what)
        try access.write(MPU6050Register.fifoEnable, MPU6050Register.fifoAccelerometerAndGyroscope, what)
        try access.write(MPU6050Register.userControl, MPU6050Register.userControlFIFOEnable, what)
        if variant.hasMagnetometer {
            // USER_CTRL.I2C_MST_EN stays 0 (written above), so bypass connects the AK8963.
            try access.write(MPU6050Register.interruptPinConfig, MPU6050Register.bypassEnable, "enabling the \(variant.name) I2C bypass to its AK8963")
        }
        return variant
    }

    /// INT_ENABLE: FIFO overflow always (its status bit is how a drain sees the loss), data
    /// ready when the pin should pulse.
    private var interruptEnableValue: UInt8 {
        MPU6050Register.interruptFIFOOverflow | (dataReadyInterrupt ? MPU6050Register.interruptDataReady : 0)
    }

    /// Changes the sample rate without DEVICE_RESET (which would put the chip to sleep for
    /// 100 ms and clear every register): SMPLRT_DIV takes the new divider (rate = 1 kHz /
    /// (1 + SMPLRT_DIV) with the low-pass filter on, RM-MPU-6000A-00 §4.2); CONFIG (DLPF_CFG),
    /// the full scales and FIFO_EN stay as they are; INT_ENABLE (0x38) keeps FIFO_OFLOW_EN and
    /// sets DATA_RDY_EN as asked; INT_STATUS (0x3A, cleared by reading) tells whether the FIFO
    /// overflowed since the last drain; then USER_CTRL (0x6A) = FIFO_EN | FIFO_RESET empties the
    /// FIFO (§4.27; the bit clears itself) so that the frames after it are all at the new rate.
    public func setSampleRate(hertz: Int, dataReadyInterrupt: Bool) throws(ChipError) -> Int64 {
        var changed = configuration
        changed.sampleRateHertz = hertz
        let what = "changing the \(variant.name) sample rate to \(changed.actualRateHertz) Hz"
        try access.write(MPU6050Register.sampleRateDivider, changed.divider, what)
        configuration = changed
        samplePeriodNanoseconds = 1_000_000_000 / Int64(changed.actualRateHertz)
        self.dataReadyInterrupt = dataReadyInterrupt
        try access.write(MPU6050Register.interruptEnable, interruptEnableValue, what)
        let status = try access.read(MPU6050Register.interruptStatus, what)
        if status & MPU6050Register.interruptFIFOOverflow != 0 { overflows += 1 }
        try access.write(MPU6050Register.userControl, MPU6050Register.userControlFIFOEnable | MPU6050Register.userControlFIFOReset, what)
        return samplePeriodNanoseconds
    }

    /// Reads every complete frame in the FIFO into `readings` (acceleration then angular
    /// velocity per frame), stamped backwards from `nowNanoseconds` (the read time: the newest
    /// frame) at the sample period. Reads at most `readings.count / 2` frames; the rest stay in
    /// the FIFO for the next call.
    public func drain(into readings: UnsafeMutableBufferPointer<SensorReading>, nowNanoseconds: Int64) throws(ChipError) -> DrainResult {
        var header = (UInt64(0), UInt16(0))  // USER_CTRL … FIFO_COUNT_L: 10 bytes
        let state = try withUnsafeMutableBytes(of: &header) { (buffer) throws(ChipError) -> (user: UInt8, power: UInt8, count: Int) in
            let ten = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<10])
            try access.attempt("reading the \(variant.name) FIFO state") { () throws(BusError) in
                try bus.readRegisters(address: address, register: MPU6050Register.userControl, into: ten)
            }
            return (ten[0], ten[1], Int(ten[8]) << 8 | Int(ten[9]))
        }
        if state.user & MPU6050Register.userControlFIFOEnable == 0 || state.power & MPU6050Register.sleep != 0 {
            variant = try initialise()
            recoveries += 1
            return DrainResult(readings: 0, overflowed: false, recovered: true)
        }
        let status = try access.read(MPU6050Register.interruptStatus, "reading the \(variant.name) interrupt status")
        if status & MPU6050Register.interruptFIFOOverflow != 0 {
            // The oldest bytes were overwritten: frame boundaries are lost. Start clean.
            try access.write(MPU6050Register.userControl, MPU6050Register.userControlFIFOEnable | MPU6050Register.userControlFIFOReset,
                             "resetting the \(variant.name) FIFO after an overflow")
            overflows += 1
            return DrainResult(readings: 0, overflowed: true, recovered: false)
        }
        let frames = min(state.count / 12, readings.count / 2)
        guard frames > 0 else { return DrainResult(readings: 0, overflowed: false, recovered: false) }
        return try drainFrames(frames, samplePeriodNanoseconds: samplePeriodNanoseconds, nowNanoseconds: nowNanoseconds, into: readings,
                               read: { (bytes) throws(ChipError) in
                                   try access.attempt("reading the \(variant.name) FIFO") { () throws(BusError) in
                                       try bus.readRegisters(address: address, register: MPU6050Register.fifoReadWrite, into: bytes)
                                   }
                               },
                               decode: { frame in
                                   MPU6050Conversion.decodeFrame(frame, accelerometerNanoUnitsPerLSB: accelerometerScale.nanoUnitsPerLSB,
                                                                 gyroscopeNanoUnitsPerLSB: gyroscopeScale.nanoUnitsPerLSB)
                               })
    }
}
