public import SensorBus

/// An HMC5883L at register level: 'H43' at 0x0A…0x0C, configuration A 0x10, B 0x20 and single
/// mode at power-on, single measurements that take 6 ms and set the mode to idle, continuous
/// measurements at configuration A's rate, RDY, big-endian X, Z, Y counts at configuration B's
/// gain with −4096 on an axis beyond ±2048 counts, and injected faults.
public final class HMC5883LEmulator: I2CBus {
    public let name = "emulated I2C bus"
    public let address: UInt8
    /// The field at a time, µT, chip axes.
    public var field: (Int64) -> (Double, Double, Double)
    public private(set) var faults = EmulatedBusFaults()
    /// Fault injection: when true the output registers freeze at their last values (a hung
    /// sensing element) while RDY signalling goes on, repeating them.
    public var stuckOutput = false
    private var registers = [UInt8](repeating: 0, count: 0x0D)
    private var nanoseconds: Int64 = 0
    /// When the single measurement under way ends, or the next continuous one.
    private var nextSampleNanoseconds: Int64 = 0

    public init(address: UInt8 = HMC5883LRegister.address,
                field: @escaping (Int64) -> (Double, Double, Double) = { _ in (19, 0, -46) }) {
        self.address = address
        self.field = field
        powerOnReset()
    }

    public func inject(_ fault: BusFault, count: Int? = nil) { faults.inject(fault, count: count) }

    /// The power-on register values; a single measurement starts, as the default mode says.
    public func powerOnReset() {
        for index in registers.indices { registers[index] = 0 }
        registers[Int(HMC5883LRegister.configurationA)] = HMC5883LRegister.defaultConfigurationA
        registers[Int(HMC5883LRegister.configurationB)] = HMC5883LRegister.defaultConfigurationB
        registers[Int(HMC5883LRegister.mode)] = HMC5883LRegister.defaultMode
        let identification = Int(HMC5883LRegister.identification)
        (registers[identification], registers[identification + 1], registers[identification + 2]) = HMC5883LRegister.identity
        nextSampleNanoseconds = nanoseconds + HMC5883LRegister.singleMeasurementNanoseconds
    }

    public func advance(to timeNanoseconds: Int64) {
        nanoseconds = timeNanoseconds
        let mode = registers[Int(HMC5883LRegister.mode)] & 0x03
        guard mode < 0x02, nanoseconds >= nextSampleNanoseconds else { return }
        if mode == 0x00 {
            let period = 1_000_000_000_000 / HMC5883LRegister.ratesMilliHertz[Int(registers[Int(HMC5883LRegister.configurationA)] >> 2 & 0x07)]
            while nextSampleNanoseconds <= nanoseconds { nextSampleNanoseconds += period }
        } else {
            registers[Int(HMC5883LRegister.mode)] |= 0x03  // the measurement is done: idle
        }
        let countsPerGauss = HMC5883LRegister.countsPerGauss[Int(registers[Int(HMC5883LRegister.configurationB)] >> 5)]
        let value = field(nanoseconds)
        // Register order X, Z, Y.
        for (slot, component) in [value.0, value.2, value.1].enumerated() where !stuckOutput {
            let counts = (component * Double(countsPerGauss) / 100).rounded()
            let stored = counts < -2048 || counts > 2047 ? HMC5883LRegister.overflow : Int16(counts)
            registers[Int(HMC5883LRegister.outXHigh) + 2 * slot] = UInt8(truncatingIfNeeded: stored >> 8)
            registers[Int(HMC5883LRegister.outXHigh) + 2 * slot + 1] = UInt8(truncatingIfNeeded: stored)
        }
        registers[Int(HMC5883LRegister.status)] |= 0x01  // RDY
    }

    public func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: register, length: buffer.count)
        for offset in 0..<buffer.count {
            let index = Int(register) + offset
            buffer[offset] = index < registers.count ? registers[index] : 0  // an invalid address reads 0
        }
    }

    public func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: register, length: values.count)
        for (offset, value) in values.enumerated() {
            let index = Int(register) + offset
            switch index {
            case Int(HMC5883LRegister.configurationA), Int(HMC5883LRegister.configurationB):
                registers[index] = value
            case Int(HMC5883LRegister.mode):
                registers[index] = value & 0x03
                if value & 0x03 == 0x01 {
                    nextSampleNanoseconds = nanoseconds + HMC5883LRegister.singleMeasurementNanoseconds
                } else if value & 0x03 == 0x00 {
                    // The first continuous result comes after two periods (datasheet, mode register).
                    let period = 1_000_000_000_000 / HMC5883LRegister.ratesMilliHertz[Int(registers[0] >> 2 & 0x07)]
                    nextSampleNanoseconds = nanoseconds + 2 * period
                }
            default:
                break  // read-only or invalid: ignored (datasheet, "Register Access")
            }
        }
    }
}
