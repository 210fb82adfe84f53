public import SensorBus

/// A LIS2MDL at register level (DS12144): WHO_AM_I 0x40, CFG_REG_A 0x03 (idle) at power-on,
/// SOFT_RST, continuous and single measurements at CFG_REG_A's rate, STATUS Zyxda (cleared when
/// the data is read) and Zyxor (a sample that overwrote an unread one), block data update (with
/// BDU the outputs hold their sample while a low byte was read and its high byte was not),
/// 1.5 mG counts saturating at 16 bits, and injected faults.
public final class LIS2MDLEmulator: I2CBus {
    public let name = "emulated I2C bus"
    public let address: UInt8
    /// The field at a time, µT, chip axes.
    public var field: (Int64) -> (Double, Double, Double)
    public private(set) var faults = EmulatedBusFaults()
    /// Fault injection: the outputs freeze while Zyxda goes on (a hung sensing element).
    public var stuckOutput = false
    /// Fault injection: no more samples; Zyxda stays low (a stuck data ready).
    public var dataReadyStuckLow = false
    /// Reads of CFG_REG_A left with SOFT_RST still set after a reset was asked for.
    private var softResetReads = 0
    private var registers = [UInt8](repeating: 0, count: 0x80)
    private var nanoseconds: Int64 = 0
    private var nextSampleNanoseconds: Int64 = 0
    /// Per axis: its low byte was read and its high byte not yet (what BDU waits on).
    private var lowByteRead = [false, false, false]

    public init(address: UInt8 = LIS2MDLRegister.address,
                field: @escaping (Int64) -> (Double, Double, Double) = { _ in (19, 0, -46) }) {
        self.address = address
        self.field = field
        powerOnReset()
    }

    public func inject(_ fault: BusFault, count: Int? = nil) { faults.inject(fault, count: count) }

    /// Every register at its reset value: CFG_REG_A 0x03 (idle), the rest 0.
    public func powerOnReset() {
        for index in registers.indices { registers[index] = 0 }
        registers[Int(LIS2MDLRegister.whoAmI)] = LIS2MDLRegister.identity
        registers[Int(LIS2MDLRegister.configurationA)] = LIS2MDLRegister.defaultConfigurationA
        lowByteRead = [false, false, false]
    }

    public func advance(to timeNanoseconds: Int64) {
        nanoseconds = timeNanoseconds
        let configuration = registers[Int(LIS2MDLRegister.configurationA)]
        let mode = configuration & 0x03
        guard mode < 0x02, !dataReadyStuckLow, nanoseconds >= nextSampleNanoseconds else { return }
        if mode == 0x00 {
            let period = 1_000_000_000 / LIS2MDLRegister.ratesHertz[Int(configuration >> 2 & 0x03)]
            while nextSampleNanoseconds <= nanoseconds { nextSampleNanoseconds += period }
        } else {
            registers[Int(LIS2MDLRegister.configurationA)] |= 0x03  // a single measurement ends in idle mode
        }
        let held = registers[Int(LIS2MDLRegister.configurationC)] & LIS2MDLRegister.driverConfigurationC != 0 && lowByteRead.contains(true)
        if !stuckOutput && !held {
            let value = field(nanoseconds)
            for (axis, component) in [value.0, value.1, value.2].enumerated() {
                let counts = Int16(clamping: Int((component * 1000 / Double(LIS2MDLRegister.nanoteslaPerCount)).rounded()))
                registers[Int(LIS2MDLRegister.outXLow) + 2 * axis] = UInt8(truncatingIfNeeded: counts)
                registers[Int(LIS2MDLRegister.outXLow) + 2 * axis + 1] = UInt8(truncatingIfNeeded: counts >> 8)
            }
        }
        let status = registers[Int(LIS2MDLRegister.status)]
        registers[Int(LIS2MDLRegister.status)] = status & 0x08 != 0 ? 0xFF : 0x0F  // ZYXOR (and each axis's) if unread
    }

    public func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: register, length: buffer.count)
        var highRead = false
        for offset in 0..<buffer.count {
            let index = Int(register) + offset
            guard index < registers.count else { buffer[offset] = 0; continue }
            buffer[offset] = registers[index]
            if index == Int(LIS2MDLRegister.configurationA), softResetReads > 0 {
                softResetReads -= 1
                if softResetReads == 0 { registers[index] &= ~LIS2MDLRegister.softReset }
            }
            let data = index - Int(LIS2MDLRegister.outXLow)
            if (0..<6).contains(data) {
                if data % 2 == 0 { lowByteRead[data / 2] = true } else { lowByteRead[data / 2] = false; highRead = true }
            }
        }
        if highRead { registers[Int(LIS2MDLRegister.status)] = 0 }  // the data was read: Zyxda and Zyxor clear
    }

    public func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: register, length: values.count)
        for (offset, value) in values.enumerated() {
            let index = Int(register) + offset
            switch index {
            case Int(LIS2MDLRegister.configurationA) where value & LIS2MDLRegister.softReset != 0:
                powerOnReset()
                registers[index] |= LIS2MDLRegister.softReset  // set until the reset is done (two reads here)
                softResetReads = 2
            case Int(LIS2MDLRegister.configurationA):
                registers[index] = value & ~0x40  // REBOOT self-clears at once here
                nextSampleNanoseconds = nanoseconds + (value & 0x03 == 0x01 ? 10_000_000 : 0)
            case Int(LIS2MDLRegister.configurationB), Int(LIS2MDLRegister.configurationC):
                registers[index] = value
            default:
                break  // read-only or reserved: ignored
            }
        }
    }
}
