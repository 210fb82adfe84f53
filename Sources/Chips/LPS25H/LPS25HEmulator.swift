public import SensorBus

/// An LPS25H at register level (DocID023722): WHO_AM_I 0xBD, registers reset to 0 (powered
/// down), RES_CONF 0x0F, self-clearing SWRESET/BOOT, measurements at the CTRL_REG1 rate while
/// powered, the output registers and STATUS P_DA/T_DA, the I2C rule that only a sub-address
/// with its MSB set auto-increments (else a burst re-reads one register), and injected faults.
public final class LPS25HEmulator: I2CBus {
    public let name = "emulated I2C bus"
    public let address: UInt8
    /// The environment: pressure in Pa, temperature in °C.
    public var pressurePascals: Double = 101_325
    public var temperatureCelsius: Double = 22.5
    public private(set) var faults = EmulatedBusFaults()
    /// Fault injection: when true the output registers freeze at their last values (a hung
    /// sensing element) while data-ready signalling and FIFO writes go on, repeating them.
    public var stuckOutput = false

    private var registers = [UInt8](repeating: 0, count: 64)
    private var nanoseconds: Int64 = 0
    private var nextMeasurementNanoseconds: Int64 = 0
    private var resetReadsPending = 0

    public init(address: UInt8 = 0x5C) {
        self.address = address
        powerOnReset()
    }

    public func inject(_ fault: BusFault, count: Int? = nil) { faults.inject(fault, count: count) }

    /// Every register to its reset value: powered down, RES_CONF 0x0F, outputs 0.
    public func powerOnReset() {
        for index in registers.indices { registers[index] = 0 }
        registers[Int(LPS25HRegister.whoAmI)] = LPS25HRegister.identity
        registers[Int(LPS25HRegister.resolutionConfig)] = 0x0F
    }

    public func advance(to timeNanoseconds: Int64) {
        nanoseconds = timeNanoseconds
        let control = registers[Int(LPS25HRegister.control1)]
        let rate = Int(control >> 4 & 0x07)
        guard control & LPS25HRegister.powerOn != 0, rate > 0, rate < LPS25HRegister.outputDataRatesMilliHertz.count else { return }
        guard nanoseconds >= nextMeasurementNanoseconds else { return }
        let period = 1_000_000_000_000 / Int64(LPS25HRegister.outputDataRatesMilliHertz[rate])
        while nextMeasurementNanoseconds <= nanoseconds { nextMeasurementNanoseconds += period }  // fixed schedule
        let pressure = Int32((pressurePascals * 4096 / 100).rounded())
        let temperature = Int16(clamping: Int(((temperatureCelsius - 42.5) * 480).rounded()))
        if !stuckOutput {
            for (offset, shift) in [(0, 0), (1, 8), (2, 16)] { registers[Int(LPS25HRegister.pressureOutXL) + offset] = UInt8(truncatingIfNeeded: pressure >> shift) }
            registers[0x2B] = UInt8(truncatingIfNeeded: temperature)
            registers[0x2C] = UInt8(truncatingIfNeeded: temperature >> 8)
        }
        registers[Int(LPS25HRegister.status)] |= 0x03
    }

    public func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        let start = register & 0x7F
        try faults.check(bus: name, chipAddress: self.address, address: address, register: start, length: buffer.count)
        let increments = register & LPS25HRegister.autoIncrement != 0
        for offset in 0..<buffer.count {
            let index = Int(start) + (increments ? offset : 0)
            guard index < registers.count else { buffer[offset] = 0; continue }
            if index == Int(LPS25HRegister.control2), resetReadsPending > 0 {
                resetReadsPending -= 1
                buffer[offset] = LPS25HRegister.softwareReset
                if resetReadsPending == 0 { powerOnReset() }
                continue
            }
            buffer[offset] = registers[index]
        }
        if Int(start) + (increments ? buffer.count : 1) > 0x2C { registers[Int(LPS25HRegister.status)] = 0 }  // outputs read
    }

    public func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        let start = register & 0x7F
        try faults.check(bus: name, chipAddress: self.address, address: address, register: start, length: values.count)
        let increments = register & LPS25HRegister.autoIncrement != 0
        for (offset, value) in values.enumerated() {
            let index = Int(start) + (increments ? offset : 0)
            switch index {
            case Int(LPS25HRegister.control2) where value & (LPS25HRegister.softwareReset | 0x80) != 0:
                resetReadsPending = 2
            case Int(LPS25HRegister.resolutionConfig), Int(LPS25HRegister.control1), Int(LPS25HRegister.control2), 0x22, 0x23, 0x24, 0x2E:
                registers[index] = value
                if index == Int(LPS25HRegister.control1) { nextMeasurementNanoseconds = nanoseconds }
            default:
                break  // read-only
            }
        }
    }
}
