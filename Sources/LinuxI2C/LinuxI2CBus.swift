import CLibI2C
import Glibc
public import SensorBus

/// A user-space I2C bus, `/dev/i2c-N` (the i2c-dev driver).
///
/// Reads are one combined `I2C_RDWR` transaction (write the register, repeated start, read the
/// burst), so a whole sample comes from one instant. On adapters that cannot do plain I2C
/// transfers (SMBus-only controllers, the kernel's i2c-stub), it falls back to SMBus
/// "I2C block" reads of up to 32 bytes, which the chips see as the same transaction.
///
/// The first transfer to an address asks the kernel (`I2C_SLAVE`, not the forcing variant)
/// whether a kernel driver owns it: EBUSY is then reported with the advice to use the IIO path,
/// instead of silently talking to a chip a driver is also configuring.
public final class LinuxI2CBus: I2CBus {
    public let name: String
    private let system: SystemCalls
    private var descriptor: Int32
    /// Whether the adapter does plain I2C transfers (I2C_FUNC_I2C); else SMBus block transfers.
    public let supportsCombinedTransfers: Bool
    /// Addresses already checked for a kernel driver (bit per 7-bit address).
    private var checkedAddresses: (UInt64, UInt64) = (0, 0)
    /// The address I2C_SLAVE currently selects (SMBus path only).
    private var selectedAddress: UInt8?

    /// Opens `/dev/i2c-<bus>`.
    public convenience init(bus: Int, system: SystemCalls = .live) throws(BusError) {
        try self.init(path: "/dev/i2c-\(bus)", system: system)
    }

    public init(path: String, system: SystemCalls = .live) throws(BusError) {
        name = path
        self.system = system
        let opened: Int32
        switch valueOrErrno({ system.open(path, O_RDWR | O_CLOEXEC) }) {
        case .success(let descriptor): opened = descriptor
        case .failure(let error): throw BusError(error.busErrorKind(), bus: path, operation: "opening the bus")
        }
        descriptor = opened
        var functions: UInt = 0
        let functionsResult = withUnsafeMutableBytes(of: &functions) { buffer in
            valueOrErrno { system.ioctlPointer(opened, UInt(I2C_FUNCS), buffer.baseAddress!) }
        }
        if case .failure(let error) = functionsResult {
            _ = system.close(opened)
            descriptor = -1
            throw BusError(error.busErrorKind(), bus: path, operation: "asking the adapter what it supports (I2C_FUNCS)")
        }
        supportsCombinedTransfers = functions & UInt(I2C_FUNC_I2C) != 0
    }

    deinit {
        if descriptor >= 0 { _ = system.close(descriptor) }
    }

    public func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        try checkOwnership(address)
        guard buffer.count > 0 else { return }
        if supportsCombinedTransfers {
            try combinedRead(address: address, register: register, into: buffer)
        } else {
            try blockRead(address: address, register: register, into: buffer)
        }
    }

    public func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        try checkOwnership(address)
        // Register + values in one message: a small stack buffer (I2C block writes are ≤ 32 bytes).
        guard values.count <= 32 else {
            throw BusError(.notSupported, bus: name, address: address, register: register, operation: "a write of \(values.count) bytes (at most 32)")
        }
        var message: (UInt64, UInt64, UInt64, UInt64, UInt8) = (0, 0, 0, 0, 0)  // 33 bytes
        let result: Result<Int32, Errno> = withUnsafeMutableBytes(of: &message) { bytes in
            bytes[0] = register
            for index in 0..<values.count { bytes[1 + index] = values[index] }
            if supportsCombinedTransfers {
                var messages = i2c_msg(addr: UInt16(address), flags: 0, len: UInt16(values.count + 1),
                                       buf: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self))
                return withUnsafeMutablePointer(to: &messages) { pointer in
                    var request = i2c_rdwr_ioctl_data(msgs: pointer, nmsgs: 1)
                    return withUnsafeMutableBytes(of: &request) { argument in
                        valueOrErrno { system.ioctlPointer(descriptor, UInt(I2C_RDWR), argument.baseAddress!) }
                    }
                }
            }
            if case .failure(let error) = select(address) { return .failure(error) }
            return valueOrErrno {
                negatedErrno(system.smbusWriteBlock(descriptor, register, UInt8(values.count),
                                                    bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + 1))
            }
        }
        if case .failure(let error) = result {
            throw BusError(error.busErrorKind(), bus: name, address: address, register: register)
        }
    }

    /// One plain read message (no register written first), for packet chips (the BNO08x's SHTP).
    /// SMBus-only adapters have no such transfer: said as such.
    public func read(address: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        try checkOwnership(address)
        guard buffer.count > 0 else { return }
        guard supportsCombinedTransfers else {
            throw BusError(.notSupported, bus: name, address: address,
                           operation: "a plain read of \(buffer.count) bytes (the adapter does SMBus transfers only; a packet chip needs plain I2C)")
        }
        try singleMessage(address: address, flags: UInt16(I2C_M_RD), bytes: buffer.baseAddress!, count: buffer.count)
    }

    /// One plain write message of any length; on an SMBus-only adapter, the first byte as the
    /// register of a block write (the same bytes on the wire, at most 33).
    public func write(address: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        try checkOwnership(address)
        guard let first = values.first else { return }
        guard supportsCombinedTransfers else {
            return try writeRegisters(address: address, register: first, values: UnsafeRawBufferPointer(rebasing: values[1...]))
        }
        // The kernel only reads a write message's buffer.
        try singleMessage(address: address, flags: 0, bytes: UnsafeMutableRawPointer(mutating: values.baseAddress!), count: values.count)
    }

    private func singleMessage(address: UInt8, flags: UInt16, bytes: UnsafeMutableRawPointer, count: Int) throws(BusError) {
        guard count <= Int(UInt16.max) else {
            throw BusError(.notSupported, bus: name, address: address, operation: "a transfer of \(count) bytes (at most 65535)")
        }
        var message = i2c_msg(addr: UInt16(address), flags: flags, len: UInt16(count), buf: bytes.assumingMemoryBound(to: UInt8.self))
        let result: Result<Int32, Errno> = withUnsafeMutablePointer(to: &message) { pointer in
            var request = i2c_rdwr_ioctl_data(msgs: pointer, nmsgs: 1)
            return withUnsafeMutableBytes(of: &request) { argument in
                valueOrErrno { system.ioctlPointer(descriptor, UInt(I2C_RDWR), argument.baseAddress!) }
            }
        }
        switch result {
        case .failure(let error):
            throw BusError(error.busErrorKind(), bus: name, address: address)
        case .success(let transferred) where transferred != 1:
            throw BusError(.shortTransfer(expected: 1, actual: Int(transferred)), bus: name, address: address)
        case .success:
            return
        }
    }

    /// Write the register, then read the burst, in one I2C_RDWR call with two messages.
    private func combinedRead(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        var registerByte = register
        let result: Result<Int32, Errno> = withUnsafeMutablePointer(to: &registerByte) { registerPointer in
            var messages = (
                i2c_msg(addr: UInt16(address), flags: 0, len: 1, buf: registerPointer),
                i2c_msg(addr: UInt16(address), flags: UInt16(I2C_M_RD), len: UInt16(buffer.count),
                        buf: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)))
            return withUnsafeMutableBytes(of: &messages) { messageBytes in
                var request = i2c_rdwr_ioctl_data(msgs: messageBytes.baseAddress!.assumingMemoryBound(to: i2c_msg.self), nmsgs: 2)
                return withUnsafeMutableBytes(of: &request) { argument in
                    valueOrErrno { system.ioctlPointer(descriptor, UInt(I2C_RDWR), argument.baseAddress!) }
                }
            }
        }
        switch result {
        case .failure(let error):
            throw BusError(error.busErrorKind(), bus: name, address: address, register: register)
        case .success(let transferred) where transferred != 2:
            throw BusError(.shortTransfer(expected: 2, actual: Int(transferred)), bus: name, address: address, register: register)
        case .success:
            return
        }
    }

    /// SMBus I2C-block reads of up to 32 bytes each, for adapters without plain I2C transfers.
    private func blockRead(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        if case .failure(let error) = select(address) {
            throw BusError(error.busErrorKind(), bus: name, address: address, register: register)
        }
        var offset = 0
        while offset < buffer.count {
            let length = min(32, buffer.count - offset)
            let chunkRegister = register &+ UInt8(truncatingIfNeeded: offset)
            let result = valueOrErrno {
                negatedErrno(system.smbusReadBlock(descriptor, chunkRegister, UInt8(length),
                                                   buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset))
            }
            switch result {
            case .failure(let error):
                throw BusError(error.busErrorKind(), bus: name, address: address, register: chunkRegister)
            case .success(let count) where Int(count) != length:
                throw BusError(.shortTransfer(expected: length, actual: Int(count)), bus: name, address: address, register: chunkRegister)
            case .success:
                offset += length
            }
        }
    }

    /// I2C_SLAVE for the SMBus path (the kernel remembers one address per open file).
    private func select(_ address: UInt8) -> Result<Int32, Errno> {
        if selectedAddress == address { return .success(0) }
        let result = valueOrErrno { system.ioctlValue(descriptor, UInt(I2C_SLAVE), UInt(address)) }
        if case .success = result { selectedAddress = address }
        return result
    }

    /// Asks once per address whether a kernel driver owns it (I2C_SLAVE answers EBUSY).
    private func checkOwnership(_ address: UInt8) throws(BusError) {
        let bit: UInt64 = 1 << UInt64(address & 63)
        let checked = address < 64 ? checkedAddresses.0 & bit != 0 : checkedAddresses.1 & bit != 0
        if checked { return }
        if case .failure(let error) = select(address) {
            throw BusError(error.busErrorKind(), bus: name, address: address, operation: "claiming the address")
        }
        if address < 64 { checkedAddresses.0 |= bit } else { checkedAddresses.1 |= bit }
    }
}
