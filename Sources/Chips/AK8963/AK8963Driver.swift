import FixedPoint
public import MotionAlgorithms
public import SensorBus

/// The AK8963 magnetometer of an MPU-9250, on I2C (bypass mode), continuous 100 Hz, 16-bit.
/// Each axis is corrected by its factory adjustment (datasheet §8.3.11:
/// H_adj = H × ((ASA − 128) / 256 + 1)). One burst ST1…CNTL1 (0x02…0x0A) per read: data,
/// the ST2 read that releases the next sample, and CNTL1 for reset detection.
public final class AK8963Driver<Bus: I2CBus> {
    public let bus: Bus
    public let address: UInt8
    /// Per-axis LSB size in pT, factory adjustment included.
    public private(set) var picoteslaPerLSB: (x: Int64, y: Int64, z: Int64) = (150_000, 150_000, 150_000)
    public private(set) var recoveries = 0
    /// Samples dropped because the field exceeded the ±4912 µT range (ST2.HOFL).
    public private(set) var overflows = 0
    public let samplePeriodNanoseconds: Int64 = 10_000_000

    private var access: RegisterAccess<Bus> { RegisterAccess(bus: bus, address: address, chip: "AK8963") }

    public init(bus: Bus, address: UInt8 = AK8963Register.address) throws(ChipError) {
        self.bus = bus
        self.address = address
        try initialise()
    }

    private func initialise() throws(ChipError) {
        try access.identify(register: AK8963Register.deviceID, expected: [AK8963Register.identity])
        try access.write(AK8963Register.control2, 0x01, "resetting the AK8963")
        try access.waitUntilClear(register: AK8963Register.control2, mask: 0x01, what: "the AK8963 soft reset")
        // Mode changes go through power-down (datasheet §6.4.5).
        try access.write(AK8963Register.control1, AK8963Register.fuseROMAccess, "entering the AK8963 fuse ROM mode")
        var adjustment = (UInt8(0), UInt8(0), UInt8(0))
        try withUnsafeMutableBytes(of: &adjustment) { (buffer) throws(ChipError) in
            try access.attempt("reading the AK8963 sensitivity adjustment (0x10…0x12)") { () throws(BusError) in
                try bus.readRegisters(address: address, register: AK8963Register.sensitivityAdjustment, into: buffer)
            }
        }
        func lsb(_ value: UInt8) -> Int64 { (AK8963Register.picoteslaPerLSB * (Int64(value) + 128) + 128) / 256 }
        picoteslaPerLSB = (lsb(adjustment.0), lsb(adjustment.1), lsb(adjustment.2))
        try access.write(AK8963Register.control1, AK8963Register.powerDown, "powering the AK8963 down")
        try access.write(AK8963Register.control1, AK8963Register.continuous100HzSixteenBit, "starting the AK8963")
    }

    /// A new field reading (µT, Q16.16, chip axes) stamped `nowNanoseconds`, or nil.
    public func read(nowNanoseconds: Int64) throws(ChipError) -> SensorReading? {
        var storage = (UInt64(0), UInt8(0))  // 9 bytes: ST1, HXL…HZH, ST2, CNTL1
        let result = try withUnsafeMutableBytes(of: &storage) { (buffer) throws(ChipError) -> (UInt8, UInt8, UInt8, Vector3) in
            let bytes = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<9])
            try access.attempt("reading the AK8963") { () throws(BusError) in
                try bus.readRegisters(address: address, register: AK8963Register.status1, into: bytes)
            }
            let raw = UnsafeRawBufferPointer(bytes)
            func axis(_ offset: Int, _ lsb: Int64) -> Q16_16 {
                CountConversion.siValue(counts: CountConversion.littleEndian16(raw, at: offset), nanoUnitsPerLSB: lsb, denominator: 1_000_000)
            }
            return (bytes[0], bytes[7], bytes[8], Vector3(x: axis(1, picoteslaPerLSB.x), y: axis(3, picoteslaPerLSB.y), z: axis(5, picoteslaPerLSB.z)))
        }
        if result.2 != AK8963Register.continuous100HzSixteenBit {
            try initialise()
            recoveries += 1
            return nil
        }
        guard result.0 & 0x01 != 0 else { return nil }  // DRDY
        if result.1 & 0x08 != 0 {  // HOFL: the value is not valid
            overflows += 1
            return nil
        }
        return SensorReading(timestampNanoseconds: nowNanoseconds, value: .magneticField(result.3))
    }
}
