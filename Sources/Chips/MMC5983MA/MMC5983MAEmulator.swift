public import SensorBus

/// An MMC5983MA at register level: product ID 0x30 at 0x2F, OTP_Rd_Done after power-up,
/// write-only control registers (they read 0), SET and RESET pulses that flip the sensor's
/// magnetisation (after SET the bridge gives +B + offset, after RESET −B + offset), single field
/// measurements taking BW's time and then setting Meas_M_Done, 18-bit counts around 131 072 at
/// 16 384 per gauss, SW_RST, and injected faults. Continuous mode is not emulated.
public final class MMC5983MAEmulator: I2CBus {
    public let name = "emulated I2C bus"
    public let address: UInt8
    /// The field at a time, µT, chip axes.
    public var field: (Int64) -> (Double, Double, Double)
    /// The bridge's offset, µT: what SET/RESET removes. The default, tens of µT on each axis,
    /// is an assumption of this project, large enough that a driver that did not remove it
    /// would fail the tests.
    public var bridgeOffset: (Double, Double, Double) = (35, -20, 12)
    public private(set) var faults = EmulatedBusFaults()
    /// Fault injection: the outputs freeze while Meas_M_Done goes on being set.
    public var stuckOutput = false
    /// Fault injection: measurements never finish (Meas_M_Done stays 0).
    public var dataReadyStuckLow = false
    private var registers = [UInt8](repeating: 0, count: 0x30)
    private var nanoseconds: Int64 = 0
    /// +1 after a SET pulse (and at power-up), −1 after a RESET pulse.
    private var magnetisation = 1.0
    private var measurementEndsNanoseconds: Int64?
    private var bandwidth: UInt8 = 0

    public init(address: UInt8 = MMC5983MARegister.address,
                field: @escaping (Int64) -> (Double, Double, Double) = { _ in (19, 0, -46) }) {
        self.address = address
        self.field = field
        powerOnReset()
    }

    public func inject(_ fault: BusFault, count: Int? = nil) { faults.inject(fault, count: count) }

    /// Power-up or SW_RST: outputs 0, BW 00, no measurement under way, OTP read done.
    public func powerOnReset() {
        for index in registers.indices { registers[index] = 0 }
        registers[Int(MMC5983MARegister.productID)] = MMC5983MARegister.identity
        registers[Int(MMC5983MARegister.status)] = MMC5983MARegister.statusOTPReadDone
        measurementEndsNanoseconds = nil
        bandwidth = 0
        magnetisation = 1
    }

    public func advance(to timeNanoseconds: Int64) {
        nanoseconds = timeNanoseconds
        guard let end = measurementEndsNanoseconds, nanoseconds >= end, !dataReadyStuckLow else { return }
        measurementEndsNanoseconds = nil
        if !stuckOutput {
            let value = field(nanoseconds)
            let outputs = [(value.0, bridgeOffset.0), (value.1, bridgeOffset.1), (value.2, bridgeOffset.2)].map { field, offset in
                let counts = ((magnetisation * field + offset) * Double(MMC5983MARegister.countsPerGauss) / 100).rounded()
                return min(max(Int32(MMC5983MARegister.nullFieldCounts) + Int32(counts), 0), MMC5983MARegister.maximumCounts)
            }
            var low: UInt8 = 0
            for (axis, counts) in outputs.enumerated() {
                registers[2 * axis] = UInt8(truncatingIfNeeded: counts >> 10)
                registers[2 * axis + 1] = UInt8(truncatingIfNeeded: counts >> 2)
                low |= UInt8(truncatingIfNeeded: counts & 0x03) << (6 - 2 * UInt8(axis))
            }
            registers[Int(MMC5983MARegister.outXYZ2)] = low
        }
        registers[Int(MMC5983MARegister.status)] |= MMC5983MARegister.statusFieldDone
    }

    public func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: register, length: buffer.count)
        for offset in 0..<buffer.count {
            let index = Int(register) + offset
            buffer[offset] = index < registers.count ? registers[index] : 0  // the control registers are kept at 0: write-only
        }
    }

    public func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: register, length: values.count)
        for (offset, value) in values.enumerated() {
            switch Int(register) + offset {
            case Int(MMC5983MARegister.status):
                registers[Int(MMC5983MARegister.status)] &= ~(value & 0x03)  // write 1 to clear the done bits
            case Int(MMC5983MARegister.control0):
                if value & MMC5983MARegister.setPulse != 0 { magnetisation = 1 }
                if value & MMC5983MARegister.resetPulse != 0 { magnetisation = -1 }
                if value & MMC5983MARegister.measureField != 0 {
                    registers[Int(MMC5983MARegister.status)] &= ~MMC5983MARegister.statusFieldDone
                    measurementEndsNanoseconds = nanoseconds + MMC5983MARegister.measurementNanoseconds[Int(bandwidth)]
                }
            case Int(MMC5983MARegister.control1):
                if value & 0x80 != 0 { powerOnReset() } else { bandwidth = value & 0x03 }
            default:
                break  // Internal Control 2/3 (continuous mode, self test) and read-only registers
            }
        }
    }
}
