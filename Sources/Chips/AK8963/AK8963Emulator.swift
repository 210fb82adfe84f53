public import SensorBus

/// An AK8963 at register level: WIA 0x48, power-down at reset, self-clearing SRST, the
/// sensitivity adjustment readable only in fuse ROM mode (0 otherwise), measurements at 8 or
/// 100 Hz in continuous modes with ST1.DRDY (released by reading ST2), HOFL above ±4912 µT,
/// and injected faults.
public final class AK8963Emulator: I2CBus {
    public let name = "emulated I2C bus"
    public let address: UInt8
    /// Factory adjustment bytes (ASAX, ASAY, ASAZ).
    public let adjustment: (UInt8, UInt8, UInt8)
    /// The field at a time, µT, chip axes.
    public var field: (Int64) -> (Double, Double, Double)
    public private(set) var faults = EmulatedBusFaults()
    /// Fault injection: when true the output registers freeze at their last values (a hung
    /// sensing element) while data-ready signalling and FIFO writes go on, repeating them.
    public var stuckOutput = false
    private var registers = [UInt8](repeating: 0, count: 0x13)
    private var nanoseconds: Int64 = 0
    private var nextSampleNanoseconds: Int64 = 0

    public init(address: UInt8 = AK8963Register.address, adjustment: (UInt8, UInt8, UInt8) = (176, 177, 165),
                field: @escaping (Int64) -> (Double, Double, Double) = { _ in (19, 0, -46) }) {
        self.address = address
        self.adjustment = adjustment
        self.field = field
        powerOnReset()
    }

    public func inject(_ fault: BusFault, count: Int? = nil) { faults.inject(fault, count: count) }

    public func powerOnReset() {
        for index in registers.indices { registers[index] = 0 }
        registers[Int(AK8963Register.deviceID)] = AK8963Register.identity
        registers[1] = 0x9A  // INFO: a device-specific constant
    }

    public func advance(to timeNanoseconds: Int64) {
        nanoseconds = timeNanoseconds
        let mode = registers[Int(AK8963Register.control1)] & 0x0F
        guard mode == 0x02 || mode == 0x06, nanoseconds >= nextSampleNanoseconds else { return }
        let period: Int64 = mode == 0x06 ? 10_000_000 : 125_000_000
        while nextSampleNanoseconds <= nanoseconds { nextSampleNanoseconds += period }
        let value = field(nanoseconds)
        var overflow = false
        for (axis, (component, asa)) in [(value.0, adjustment.0), (value.1, adjustment.1), (value.2, adjustment.2)].enumerated() where !stuckOutput {
            let lsbMicrotesla = 0.15 * ((Double(asa) - 128) / 256 + 1)
            let counts = (component / lsbMicrotesla).rounded()
            if abs(component) > 4912 { overflow = true }
            let clamped = Int16(clamping: Int(counts))
            registers[Int(AK8963Register.outXLow) + 2 * axis] = UInt8(truncatingIfNeeded: clamped)
            registers[Int(AK8963Register.outXLow) + 2 * axis + 1] = UInt8(truncatingIfNeeded: clamped >> 8)
        }
        registers[Int(AK8963Register.status1)] |= 0x01
        registers[Int(AK8963Register.status2)] = (overflow ? 0x08 : 0) | 0x10
    }

    public func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: register, length: buffer.count)
        let fuseROM = registers[Int(AK8963Register.control1)] & 0x0F == 0x0F
        var readST2 = false
        for offset in 0..<buffer.count {
            let index = Int(register) + offset
            switch index {
            case Int(AK8963Register.sensitivityAdjustment): buffer[offset] = fuseROM ? adjustment.0 : 0
            case Int(AK8963Register.sensitivityAdjustment) + 1: buffer[offset] = fuseROM ? adjustment.1 : 0
            case Int(AK8963Register.sensitivityAdjustment) + 2: buffer[offset] = fuseROM ? adjustment.2 : 0
            default: buffer[offset] = index < registers.count ? registers[index] : 0
            }
            if index == Int(AK8963Register.status2) { readST2 = true }
        }
        if readST2 { registers[Int(AK8963Register.status1)] = 0 }  // the data read is over
    }

    public func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: register, length: values.count)
        for (offset, value) in values.enumerated() {
            switch Int(register) + offset {
            case Int(AK8963Register.control1):
                registers[Int(AK8963Register.control1)] = value
                nextSampleNanoseconds = nanoseconds
            case Int(AK8963Register.control2) where value & 0x01 != 0:
                powerOnReset()
            default:
                break
            }
        }
    }
}
