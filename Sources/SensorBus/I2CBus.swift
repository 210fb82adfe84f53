/// An I2C bus as chip drivers see it: register reads and writes to a 7-bit address. The real
/// `/dev/i2c-N` transport (LinuxI2C) and the chip emulators both implement it, so a driver runs
/// unchanged against either (the bus protocol sits below both; they never import each other).
///
/// The buffers are the caller's: a driver reads a whole sample into storage it owns, and no
/// call allocates.
public protocol I2CBus: AnyObject {
    /// Where the bus is, for messages: "/dev/i2c-1", "emulated bus".
    var name: String { get }

    /// Writes `register` and reads `buffer.count` bytes back in one combined transaction
    /// (write, repeated start, read): a burst read of consecutive registers when the chip
    /// auto-increments.
    func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError)

    /// Writes `register` followed by `values` in one transaction.
    func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError)

    /// Reads `buffer.count` bytes in one plain read transaction (start, address with R, bytes,
    /// stop): no register byte is written first. For chips that speak packets instead of
    /// registers (the BNO08x's SHTP: a register write would be taken as the start of a packet).
    func read(address: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError)

    /// Writes `values` in one plain write transaction (start, address with W, bytes, stop).
    func write(address: UInt8, values: UnsafeRawBufferPointer) throws(BusError)
}

extension I2CBus {
    /// A register-only bus cannot do a plain read: said as such, never faked with a register
    /// write (which a packet chip would take as the start of a packet).
    public func read(address: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        throw BusError(.notSupported, bus: name, address: address, operation: "a plain read of \(buffer.count) bytes (no register)")
    }

    /// On the wire a plain write is a register write whose register is the first byte.
    public func write(address: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        guard let first = values.first else { return }
        try writeRegisters(address: address, register: first, values: UnsafeRawBufferPointer(rebasing: values[1...]))
    }

    /// Reads one register.
    @inlinable
    public func readRegister(address: UInt8, register: UInt8) throws(BusError) -> UInt8 {
        var value: UInt8 = 0
        try withUnsafeMutableBytes(of: &value) { (buffer) throws(BusError) in
            try readRegisters(address: address, register: register, into: buffer)
        }
        return value
    }

    /// Writes one register.
    @inlinable
    public func writeRegister(address: UInt8, register: UInt8, value: UInt8) throws(BusError) {
        try withUnsafeBytes(of: value) { (buffer) throws(BusError) in
            try writeRegisters(address: address, register: register, values: buffer)
        }
    }
}
