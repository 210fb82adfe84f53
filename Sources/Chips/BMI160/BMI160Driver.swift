import FixedPoint
public import MotionAlgorithms
public import SensorBus

/// A BMI160 (accelerometer + gyroscope) on I2C, read through its headerless FIFO: 12-byte
/// frames, gyroscope first. Each drain checks PMU_STATUS (a reset leaves both sensors
/// suspended: re-initialised and counted) and the FIFO fill (a full FIFO has dropped frames:
/// flushed, counted and reported).
public final class BMI160Driver<Bus: I2CBus>: FIFOInertialDriver {
    public let bus: Bus
    public let address: UInt8
    public let accelerometerScale = BMI160Table.accelerometerScales[2]  // ±8 g
    public let gyroscopeScale = BMI160Table.gyroscopeScales[1]          // ±1000 °/s
    /// ACC_CONF/GYR_CONF odr field and the rate it gives; `setSampleRate` changes it.
    public private(set) var outputDataRate: (field: UInt8, millihertz: Int64)
    public private(set) var samplePeriodNanoseconds: Int64
    /// Whether INT_EN_1 enables data ready (routed to INT1); `setSampleRate` may turn it off.
    public private(set) var dataReadyInterrupt = true
    /// 1024 bytes of 12-byte frames.
    public var fifoCapacityFrames: Int { BMI160Register.fifoCapacity / 12 }
    public private(set) var recoveries = 0
    public private(set) var overflows = 0

    private var access: RegisterAccess<Bus> { RegisterAccess(bus: bus, address: address, chip: "BMI160") }

    public init(bus: Bus, address: UInt8 = 0x68, sampleRateHertz: Int = 100) throws(ChipError) {
        self.bus = bus
        self.address = address
        outputDataRate = BMI160Table.outputDataRateField(hertz: sampleRateHertz)
        samplePeriodNanoseconds = 1_000_000_000_000 / outputDataRate.millihertz
        try initialise()
    }

    private func initialise() throws(ChipError) {
        try access.identify(register: BMI160Register.chipID, expected: [BMI160Register.identity])
        try access.write(BMI160Register.command, BMI160Register.softReset, "resetting the BMI160")
        let what = "configuring the BMI160"
        try access.write(BMI160Register.accelerometerConfig, 0x20 | outputDataRate.field, what)  // bwp normal
        try access.write(BMI160Register.accelerometerRange, accelerometerScale.field, what)
        try access.write(BMI160Register.gyroscopeConfig, 0x20 | outputDataRate.field, what)
        try access.write(BMI160Register.gyroscopeRange, gyroscopeScale.field, what)
        try access.write(BMI160Register.fifoConfig1, BMI160Register.fifoGyroscopeAndAccelerometer, what)
        // Data ready on INT1 (push-pull, active high): a board that wires INT1 to a GPIO line is
        // serviced on its edges, timestamped by the kernel; one that does not just ignores the pin.
        try access.write(BMI160Register.interruptOutputControl, BMI160Register.int1PushPullActiveHigh, what)
        try access.write(BMI160Register.interruptMap1, BMI160Register.int1DataReady, what)
        try access.write(BMI160Register.interruptEnable1, dataReadyInterrupt ? BMI160Register.dataReadyEnable : 0, what)
        try access.write(BMI160Register.command, BMI160Register.accelerometerNormalMode, "starting the BMI160 accelerometer")
        try access.write(BMI160Register.command, BMI160Register.gyroscopeNormalMode, "starting the BMI160 gyroscope")
        try access.write(BMI160Register.command, BMI160Register.fifoFlush, "flushing the BMI160 FIFO")
    }

    /// Changes both sensors' output data rate in normal mode, without the soft reset (CMD
    /// 0xB6, which suspends both sensors and clears every register): ACC_CONF (0x40) and
    /// GYR_CONF (0x42) take the new odr field with normal bandwidth (bwp 0b010, as at start;
    /// ODR = 100 / 2^(8 − odr) Hz, BST-BMI160-DS000 §2.11.23, §2.11.25); the ranges and
    /// FIFO_CONFIG_1 stay; INT_EN_1 (0x51) sets int_drdy_en as asked; a FIFO as full as a drain
    /// calls overflowed is counted; then CMD (0x7E) = fifo_flush (0xB0, §2.11.38) empties it
    /// so that the frames after it are all at the new rate.
    public func setSampleRate(hertz: Int, dataReadyInterrupt: Bool) throws(ChipError) -> Int64 {
        let rate = BMI160Table.outputDataRateField(hertz: hertz)
        let what = "changing the BMI160 output data rate to \(Double(rate.millihertz) / 1000) Hz"
        try access.write(BMI160Register.accelerometerConfig, 0x20 | rate.field, what)
        try access.write(BMI160Register.gyroscopeConfig, 0x20 | rate.field, what)
        outputDataRate = rate
        samplePeriodNanoseconds = 1_000_000_000_000 / rate.millihertz
        self.dataReadyInterrupt = dataReadyInterrupt
        try access.write(BMI160Register.interruptEnable1, dataReadyInterrupt ? BMI160Register.dataReadyEnable : 0, what)
        if try fifoByteCount(what) >= BMI160Register.fifoCapacity - 12 { overflows += 1 }
        try access.write(BMI160Register.command, BMI160Register.fifoFlush, what)
        return samplePeriodNanoseconds
    }

    /// FIFO_LENGTH_0/1: bytes in the FIFO (fifo_byte_counter[10:0]).
    private func fifoByteCount(_ what: @autoclosure () -> String) throws(ChipError) -> Int {
        var length = UInt16(0)
        try withUnsafeMutableBytes(of: &length) { (buffer) throws(ChipError) in
            try access.attempt(what()) { () throws(BusError) in
                try bus.readRegisters(address: address, register: BMI160Register.fifoLength, into: buffer)
            }
        }
        return Int(UInt16(littleEndian: length) & 0x07FF)
    }

    public func drain(into readings: UnsafeMutableBufferPointer<SensorReading>, nowNanoseconds: Int64) throws(ChipError) -> FIFODrainResult {
        let power = try access.read(BMI160Register.powerStatus, "reading the BMI160 power status")
        if power & 0b0011_1100 != BMI160Register.bothNormal {
            try initialise()
            recoveries += 1
            return FIFODrainResult(readings: 0, overflowed: false, recovered: true)
        }
        let count = try fifoByteCount("reading the BMI160 FIFO length")
        if count >= BMI160Register.fifoCapacity - 12 {
            // Full: in stream mode the oldest frames were dropped. Start clean.
            try access.write(BMI160Register.command, BMI160Register.fifoFlush, "flushing the BMI160 FIFO after an overflow")
            overflows += 1
            return FIFODrainResult(readings: 0, overflowed: true, recovered: false)
        }
        let frames = min(count / 12, readings.count / 2)
        return try drainFrames(frames, samplePeriodNanoseconds: samplePeriodNanoseconds, nowNanoseconds: nowNanoseconds, into: readings,
                               read: { (bytes) throws(ChipError) in
                                   try access.attempt("reading the BMI160 FIFO") { () throws(BusError) in
                                       try bus.readRegisters(address: address, register: BMI160Register.fifoData, into: bytes)
                                   }
                               },
                               decode: { frame in
                                   // Headerless frames put the gyroscope first (§2.5.1), each axis
                                   // little endian. Worked example at ±1000 °/s and ±8 g: the frame
                                   //   10 00  F0 FF  00 00  00 00  00 00  00 10
                                   // is gyroscope x = 0x0010 = 16 counts × 532.113 µrad/s = 0.008514
                                   // rad/s, y = 0xFFF0 = −16 counts = −0.008514 rad/s, z = 0, and
                                   // acceleration x = y = 0, z = 0x1000 = 4096 counts × 2.394202
                                   // mm/s² = 9.80665 m/s² (1 g).
                                   (CountConversion.littleEndianVector(frame, at: 6, nanoUnitsPerLSB: accelerometerScale.nanoUnitsPerLSB),
                                    CountConversion.littleEndianVector(frame, at: 0, nanoUnitsPerLSB: gyroscopeScale.nanoUnitsPerLSB))
                               })
    }
}
