/// A failed bus transaction, with what a person should do about it. Carries the bus, the
/// device address, the register and the errno where there is one.
public struct BusError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No device acknowledged the address (ENXIO, EREMOTEIO: a NACK).
        case noAcknowledge
        /// A kernel driver owns the address (EBUSY).
        case busy
        /// The process may not open the bus (EACCES, EPERM).
        case permissionDenied
        /// The bus device does not exist (ENOENT).
        case noSuchBus
        /// The adapter cannot do this kind of transfer (EOPNOTSUPP).
        case notSupported
        /// The transfer timed out (ETIMEDOUT): a stuck bus or a chip holding SDA low.
        case timeout
        /// Any other input/output failure, with its errno.
        case inputOutput(errno: Int32)
        /// Fewer bytes moved than asked (a short read or write).
        case shortTransfer(expected: Int, actual: Int)
    }

    public var kind: Kind
    /// The bus, e.g. "/dev/i2c-1".
    public var bus: String
    public var address: UInt8?
    public var register: UInt8?
    /// What was being done: "reading WHO_AM_I (0x0F)".
    public var operation: String?

    public init(_ kind: Kind, bus: String, address: UInt8? = nil, register: UInt8? = nil, operation: String? = nil) {
        self.kind = kind
        self.bus = bus
        self.address = address
        self.register = register
        self.operation = operation
    }

    /// The same error, said of a driver-level operation ("reading the calibration").
    public func during(_ operation: String) -> BusError {
        var copy = self
        copy.operation = operation
        return copy
    }

    public var description: String {
        var what = "I2C transfer failed"
        if let operation { what = "Could not complete \(operation)" }
        var place = " on \(bus)"
        if let address { place += " at address \(hex(address))" }
        if let register { place += ", register \(hex(register))" }
        return what + place + ": " + reason
    }

    private var reason: String {
        let busNumber = bus.hasPrefix("/dev/i2c-") ? String(bus.dropFirst("/dev/i2c-".count)) : "N"
        switch kind {
        case .noAcknowledge:
            return "no device answered (NACK). Check the wiring, power and the address pins, then run `i2cdetect -y \(busNumber)`."
        case .busy:
            return "a kernel driver owns this address (EBUSY). Read the chip through its IIO driver instead (set `iio` for it in the board file), or unbind the kernel driver."
        case .permissionDenied:
            return "permission denied. Install udev/60-opencoremotion.rules and add yourself to group `motion` (see udev/README.md), or run as root."
        case .noSuchBus:
            return "the bus does not exist. Enable I2C (on a Raspberry Pi: `dtparam=i2c_arm=on` in config.txt, or raspi-config), load `i2c-dev`, and check the bus number with `i2cdetect -l`."
        case .notSupported:
            return "the I2C adapter does not support this transfer (EOPNOTSUPP)."
        case .timeout:
            return "the transfer timed out. A device may be holding the bus; power-cycle the sensors."
        case .inputOutput(let errno):
            return "input/output error (errno \(errno)). Check the wiring and pull-ups; a long cable or a noisy supply causes this."
        case .shortTransfer(let expected, let actual):
            return "moved \(actual) of \(expected) bytes."
        }
    }
}

/// "0x6A".
@inlinable
public func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
}
