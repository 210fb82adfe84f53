public import FixedPoint
public import MotionAlgorithms
public import SensorBus

/// The MEMSIC MMC5983MA magnetometer on I2C: 18-bit single measurements (BW 4 ms), each output
/// sample from a pair, one after a SET pulse and one after a RESET pulse, which removes the
/// sensor's offset: after SET the bridge reads +B + offset, after RESET −B + offset
/// (MMC5983MA datasheet, "SET and RESET"; MEMSIC AN-205), so B = (set − reset) / 2 and
/// offset = (set + reset) / 2 − 131 072 counts. One pair per 10 ms.
///
/// Its control registers are write-only, so a reset cannot be read back: a measurement that
/// does not finish within `measurementTimeoutNanoseconds` means the chip lost its command (a
/// reset, a brown-out): the driver re-initialises it and starts again (`recoveries`); three
/// such in a row without a sample are reported as a chip that does not measure.
public final class MMC5983MADriver<Bus: I2CBus> {
    public let bus: Bus
    public let address: UInt8
    public private(set) var recoveries = 0
    public let samplePeriodNanoseconds: Int64 = 10_000_000
    /// Five times the 4 ms measurement (and more than a 5 ms poll's lateness).
    public let measurementTimeoutNanoseconds: Int64 = 20_000_000
    /// The sensor's offset found by the last SET/RESET pair, µT (Q16.16), chip axes.
    public private(set) var offset = Vector3(x: Q16_16(0), y: Q16_16(0), z: Q16_16(0))

    private enum Phase { case afterSet, afterReset }
    private var phase = Phase.afterSet
    /// The counts measured after the SET pulse of the pair under way.
    private var setCounts: (Int32, Int32, Int32) = (0, 0, 0)
    /// When the measurement under way started (nil: at the next read).
    private var startedNanoseconds: Int64?
    private var timeoutsInARow = 0

    private var access: RegisterAccess<Bus> { RegisterAccess(bus: bus, address: address, chip: "MMC5983MA") }

    public init(bus: Bus, address: UInt8 = MMC5983MARegister.address) throws(ChipError) {
        self.bus = bus
        self.address = address
        try initialise()
    }

    private func initialise() throws(ChipError) {
        try access.identify(register: MMC5983MARegister.productID, expected: [MMC5983MARegister.identity])
        // OTP_Rd_Done: the chip has loaded its trimming (after power-up, within ms).
        try access.waitUntilSet(register: MMC5983MARegister.status, mask: MMC5983MARegister.statusOTPReadDone, what: "reading its OTP trimming")
        try access.write(MMC5983MARegister.control1, MMC5983MARegister.driverBandwidth, "setting the MMC5983MA bandwidth (Internal Control 1)")
        try access.write(MMC5983MARegister.control2, 0, "stopping MMC5983MA continuous mode (Internal Control 2)")
        try start(.afterSet)
    }

    /// A SET or RESET pulse, then a field measurement (two writes: the pulse must end first).
    private func start(_ next: Phase) throws(ChipError) {
        let pulse = next == .afterSet ? MMC5983MARegister.setPulse : MMC5983MARegister.resetPulse
        try access.write(MMC5983MARegister.control0, pulse, next == .afterSet ? "sending the MMC5983MA a SET pulse" : "sending the MMC5983MA a RESET pulse")
        try access.write(MMC5983MARegister.control0, MMC5983MARegister.measureField, "starting an MMC5983MA measurement")
        phase = next
        startedNanoseconds = nil
    }

    /// A new field reading (µT, Q16.16, chip axes, offset removed) stamped `nowNanoseconds`, or nil.
    public func read(nowNanoseconds: Int64) throws(ChipError) -> SensorReading? {
        var storage = (UInt64(0), UInt8(0))  // Xout0, Xout1, Yout0, Yout1, Zout0, Zout1, XYZout2, Tout, Status
        let (status, counts) = try withUnsafeMutableBytes(of: &storage) { (buffer) throws(ChipError) -> (UInt8, (Int32, Int32, Int32)) in
            let bytes = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<9])
            try access.attempt("reading the MMC5983MA (0x00…0x08)") { () throws(BusError) in
                try bus.readRegisters(address: address, register: MMC5983MARegister.outX0, into: bytes)
            }
            return (bytes[8], MMC5983MARegister.counts(UnsafeRawBufferPointer(bytes)))
        }
        guard status & MMC5983MARegister.statusFieldDone != 0 else {
            let started = startedNanoseconds ?? nowNanoseconds
            startedNanoseconds = started
            if nowNanoseconds - started > measurementTimeoutNanoseconds {
                timeoutsInARow += 1
                if timeoutsInARow > 3 {
                    timeoutsInARow = 0
                    throw .notReady(chip: "MMC5983MA", bus: bus.name, address: address, what: "a field measurement (Meas_M_Done stayed 0 through 3 re-initialisations)")
                }
                try initialise()
                recoveries += 1
            }
            return nil
        }
        timeoutsInARow = 0
        switch phase {
        case .afterSet:
            setCounts = counts
            try start(.afterReset)
            return nil
        case .afterReset:
            let set = setCounts
            try start(.afterSet)
            // B = (set − reset) / 2 counts; 1 count = 100 / 16384 µT, so B in Q16.16 is
            // (set − reset) × 100 × 65536 / (2 × 16384) = (set − reset) × 200, exact.
            func field(_ s: Int32, _ r: Int32) -> Q16_16 { Q16_16(rawValue: (s - r) * 200) }
            // offset = (set + reset) / 2 − 131072 counts, in Q16.16 µT the same way.
            func bias(_ s: Int32, _ r: Int32) -> Q16_16 { Q16_16(rawValue: (s + r - 2 * MMC5983MARegister.nullFieldCounts) * 200) }
            offset = Vector3(x: bias(set.0, counts.0), y: bias(set.1, counts.1), z: bias(set.2, counts.2))
            return SensorReading(timestampNanoseconds: nowNanoseconds,
                                 value: .magneticField(Vector3(x: field(set.0, counts.0), y: field(set.1, counts.1), z: field(set.2, counts.2))))
        }
    }
}
