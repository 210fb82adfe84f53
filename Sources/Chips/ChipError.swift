public import SensorBus

/// A chip that did not behave as its datasheet says, with what to do about it.
public enum ChipError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bus transaction failed (the bus error says which and why).
    case bus(BusError)
    /// The identity register holds an unexpected value: another chip, or none, is at the address.
    case unexpectedIdentity(chip: String, bus: String, address: UInt8, register: UInt8, expected: [UInt8], found: UInt8)
    /// The chip stayed busy longer than its datasheet allows.
    case notReady(chip: String, bus: String, address: UInt8, what: String)
    /// The chip's factory calibration is unusable (all zeros or all ones: a bus returning junk).
    case invalidCalibration(chip: String, bus: String, address: UInt8)
    /// A device behind the chip's auxiliary I2C master (the ICM-20948's AK09916 magnetometer)
    /// did not acknowledge the master's transfer.
    case auxiliaryDeviceNotAnswering(chip: String, bus: String, address: UInt8, device: String, auxiliaryAddress: UInt8)
    /// The factory calibration read back fails its checksum (a corrupted transfer or PROM).
    case calibrationChecksumMismatch(chip: String, bus: String, address: UInt8, stored: UInt8, computed: UInt8)
    /// A chip with its own processor (the BNO055) reports a system error in its status
    /// registers: `code` is its error register's value, `meaning` the datasheet's text for it.
    case systemError(chip: String, bus: String, address: UInt8, code: UInt8, meaning: String)

    /// The chip answers on the bus, but what it sends is not its protocol's packets (a BNO08x
    /// speaks SHTP): another chip at the address, or a bus returning junk.
    case unexpectedPackets(chip: String, bus: String, address: UInt8, what: String)

    /// The serial line failed (the serial error says which device and why).
    case serial(SerialError)

    public var description: String {
        switch self {
        case .bus(let error):
            return error.description
        case .serial(let error):
            return error.description
        case .unexpectedIdentity(let chip, let bus, let address, let register, let expected, let found):
            let expectedText = expected.map(hex).joined(separator: " or ")
            return "The chip at \(hex(address)) on \(bus) is not a \(chip): its identity register \(hex(register)) reads \(hex(found)), expected \(expectedText). "
                + "Check the board file's chip and address (`motionctl probe` lists what answers)."
        case .notReady(let chip, let bus, let address, let what):
            return "The \(chip) at \(hex(address)) on \(bus) did not finish \(what) in time. Power-cycle the sensor; if it persists, the chip may be damaged."
        case .auxiliaryDeviceNotAnswering(let chip, let bus, let address, let device, let auxiliaryAddress):
            return "The \(chip) at \(hex(address)) on \(bus) answers, but its \(device) at \(hex(auxiliaryAddress)) on the chip's own auxiliary I2C bus "
                + "did not acknowledge (I2C_MST_STATUS NACK). Nothing on the board's wiring reaches that bus: power-cycle the sensor; "
                + "if it persists, the \(device) is damaged (a board file without the magnetometer is not possible for this chip yet)."
        case .unexpectedPackets(let chip, let bus, let address, let what):
            return "The device at \(hex(address)) on \(bus) answers, but not as a \(chip): it keeps sending transfers that are not SHTP packets (latest: \(what)). "
                + "Check the board file's chip and address (`motionctl probe` lists what answers), that the \(chip)'s PS0/PS1 pins select I2C (both low), "
                + "and the wiring and pull-ups; on a Raspberry Pi, change the I2C clock (its controller mishandles the chip's clock stretching: boards/README.md, section BNO08x)."
        case .invalidCalibration(let chip, let bus, let address):
            return "The \(chip) at \(hex(address)) on \(bus) returned an unusable factory calibration. The bus is probably returning junk: check wiring and pull-ups."
        case .calibrationChecksumMismatch(let chip, let bus, let address, let stored, let computed):
            return "The \(chip) at \(hex(address)) on \(bus) returned a factory calibration (PROM) whose CRC-4 does not match: "
                + "stored \(hex(stored)), computed \(hex(computed)). The transfer was corrupted or the PROM is damaged: check wiring "
                + "and pull-ups (a long cable in water needs a bus extender) and power-cycle the sensor; if it persists, replace the sensor."
        case .systemError(let chip, let bus, let address, let code, let meaning):
            return "The \(chip) at \(hex(address)) on \(bus) reports a system error (\(hex(code)): \(meaning)). "
                + "Power-cycle the sensor; if it persists after a power cycle, the chip's firmware or one of its sensors has failed."
        }
    }
}
