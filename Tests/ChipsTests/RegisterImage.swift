import SensorBus

/// A register file that only stores what is written, as the kernel's i2c-stub does: what a
/// driver makes of the register image tools/kernel-level/init.sh preloads for the kernel's own
/// driver (one chip at `address`; any other address is not acknowledged).
final class RegisterImage: I2CBus {
    let name = "i2c-stub image"
    let address: UInt8
    var registers = [UInt8](repeating: 0, count: 256)

    init(address: UInt8, _ preload: [UInt8: [UInt8]]) {
        self.address = address
        for (start, bytes) in preload {
            for (offset, byte) in bytes.enumerated() { registers[Int(start) + offset] = byte }
        }
    }

    func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        guard address == self.address else { throw BusError(.noAcknowledge, bus: name, address: address, register: register) }
        for offset in 0..<buffer.count { buffer[offset] = registers[(Int(register) + offset) & 0xFF] }
    }

    func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        guard address == self.address else { throw BusError(.noAcknowledge, bus: name, address: address, register: register) }
        for (offset, value) in values.enumerated() { registers[(Int(register) + offset) & 0xFF] = value }
    }
}
