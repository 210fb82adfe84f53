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
}

extension I2CBus {
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
