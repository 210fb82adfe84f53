import LinuxI2C
import SensorBus

/// A chip's bus on a running board: the real `/dev/i2c-N`, or the chip's register-level
/// emulator on a simulated board. One concrete type, so each driver family has one
/// instantiation and the chip registry one line per family; the switch costs nothing next to
/// an I2C transfer (tens of microseconds).
final class BoardBus: I2CBus {
    enum Backend {
        case linux(LinuxI2CBus)
        case emulated(any I2CBus)
    }

    let backend: Backend

    init(_ backend: Backend) { self.backend = backend }

    var name: String {
        switch backend {
        case .linux(let bus): bus.name
        case .emulated(let bus): bus.name
        }
    }

    func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        switch backend {
        case .linux(let bus): try bus.readRegisters(address: address, register: register, into: buffer)
        case .emulated(let bus): try bus.readRegisters(address: address, register: register, into: buffer)
        }
    }

    func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        switch backend {
        case .linux(let bus): try bus.writeRegisters(address: address, register: register, values: values)
        case .emulated(let bus): try bus.writeRegisters(address: address, register: register, values: values)
        }
    }

    func read(address: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        switch backend {
        case .linux(let bus): try bus.read(address: address, into: buffer)
        case .emulated(let bus): try bus.read(address: address, into: buffer)
        }
    }

    func write(address: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        switch backend {
        case .linux(let bus): try bus.write(address: address, values: values)
        case .emulated(let bus): try bus.write(address: address, values: values)
        }
    }
}
