public import SensorBus

/// A QMC5883L at register level: chip ID 0xFF at 0x0D, standby at power-on, continuous
/// measurements at the ODR of control 1 with DRDY (cleared by reading any data register), DOR
/// when a sample overwrote one never read, OVL and clipped counts beyond the range, SOFT_RST
/// restoring every register, and injected faults.
public final class QMC5883LEmulator: I2CBus {
    public let name = "emulated I2C bus"
    public let address: UInt8
    /// The field at a time, µT, chip axes.
    public var field: (Int64) -> (Double, Double, Double)
    public private(set) var faults = EmulatedBusFaults()
    /// Fault injection: when true the output registers freeze at their last values (a hung
    /// sensing element) while data-ready signalling goes on, repeating them.
    public var stuckOutput = false
    private var registers = [UInt8](repeating: 0, count: 0x0E)
    private var nanoseconds: Int64 = 0
    private var nextSampleNanoseconds: Int64 = 0

    public init(address: UInt8 = QMC5883LRegister.address,
                field: @escaping (Int64) -> (Double, Double, Double) = { _ in (19, 0, -46) }) {
        self.address = address
        self.field = field
        powerOnReset()
    }

    public func inject(_ fault: BusFault, count: Int? = nil) { faults.inject(fault, count: count) }

    /// Every register at its default (control 1 = 0: standby), as at power-on or SOFT_RST.
    public func powerOnReset() {
        for index in registers.indices { registers[index] = 0 }
        registers[Int(QMC5883LRegister.chipID)] = QMC5883LRegister.identity
    }

    public func advance(to timeNanoseconds: Int64) {
        nanoseconds = timeNanoseconds
        let control = registers[Int(QMC5883LRegister.control1)]
        guard control & 0x03 == 0x01, nanoseconds >= nextSampleNanoseconds else { return }
        let period = 1_000_000_000 / QMC5883LRegister.ratesHertz[Int(control >> 2 & 0x03)]
        while nextSampleNanoseconds <= nanoseconds { nextSampleNanoseconds += period }
        let perMicrotesla = Double(QMC5883LRegister.countsPerMicrotesla(rangeBits: control >> 4))
        let value = field(nanoseconds)
        var overflow = false
        for (axis, component) in [value.0, value.1, value.2].enumerated() where !stuckOutput {
            let counts = (component * perMicrotesla).rounded()
            if abs(counts) > 32767 { overflow = true }
            let clamped = Int16(clamping: Int(counts))
            registers[2 * axis] = UInt8(truncatingIfNeeded: clamped)
            registers[2 * axis + 1] = UInt8(truncatingIfNeeded: clamped >> 8)
        }
        registers[Int(QMC5883LRegister.temperatureLow)] = 0x64  // a constant relative temperature
        var status = registers[Int(QMC5883LRegister.status)]
        if status & 0x01 != 0 { status |= 0x04 }  // DOR: the previous sample was never read
        status = status & ~0x02 | 0x01 | (overflow ? 0x02 : 0)
        registers[Int(QMC5883LRegister.status)] = status
    }

    public func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: register, length: buffer.count)
        var readData = false
        for offset in 0..<buffer.count {
            let index = Int(register) + offset
            buffer[offset] = index < registers.count ? registers[index] : 0
            if index <= 0x05 { readData = true }
        }
        if readData { registers[Int(QMC5883LRegister.status)] &= ~0x05 }  // DRDY and DOR clear
    }

    public func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: register, length: values.count)
        for (offset, value) in values.enumerated() {
            switch Int(register) + offset {
            case Int(QMC5883LRegister.control1):
                registers[Int(QMC5883LRegister.control1)] = value
                nextSampleNanoseconds = nanoseconds
            case Int(QMC5883LRegister.control2) where value & QMC5883LRegister.softReset != 0:
                powerOnReset()
            case Int(QMC5883LRegister.control2), Int(QMC5883LRegister.setResetPeriod):
                registers[Int(register) + offset] = value
            default:
                break
            }
        }
    }
}
