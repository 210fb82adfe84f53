public import SensorBus

/// Several chip emulators on one emulated bus, as chips share a real one: each transaction goes
/// to the emulator answering that address, and an address nobody answers is not acknowledged.
/// For simulated boards and for `probe` tests. (Existentials are fine here: emulation is not
/// the per-sample path of a real board.)
public final class EmulatedI2CBus: I2CBus {
    public let name: String
    private var devices: [(address: UInt8, emulator: any I2CBus)] = []

    public init(name: String = "emulated I2C bus") { self.name = name }

    /// Attaches `emulator` at `address` (an emulator with two devices is attached twice).
    public func attach(_ emulator: any I2CBus, at address: UInt8) {
        devices.append((address, emulator))
    }

    private func device(_ address: UInt8, _ register: UInt8) throws(BusError) -> any I2CBus {
        guard let device = devices.first(where: { $0.address == address }) else {
            throw BusError(.noAcknowledge, bus: name, address: address, register: register)
        }
        return device.emulator
    }

    public func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        try device(address, register).readRegisters(address: address, register: register, into: buffer)
    }

    public func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        try device(address, register).writeRegisters(address: address, register: register, values: values)
    }

    public func read(address: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        try device(address, 0).read(address: address, into: buffer)
    }

    public func write(address: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        try device(address, values.first ?? 0).write(address: address, values: values)
    }
}
