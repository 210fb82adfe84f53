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

    public var description: String {
        switch self {
        case .bus(let error):
            return error.description
        case .unexpectedIdentity(let chip, let bus, let address, let register, let expected, let found):
            let expectedText = expected.map(hex).joined(separator: " or ")
            return "The chip at \(hex(address)) on \(bus) is not a \(chip): its identity register \(hex(register)) reads \(hex(found)), expected \(expectedText). "
                + "Check the board file's chip and address (`motionctl probe` lists what answers)."
        case .notReady(let chip, let bus, let address, let what):
            return "The \(chip) at \(hex(address)) on \(bus) did not finish \(what) in time. Power-cycle the sensor; if it persists, the chip may be damaged."
        case .invalidCalibration(let chip, let bus, let address):
            return "The \(chip) at \(hex(address)) on \(bus) returned an unusable factory calibration. The bus is probably returning junk: check wiring and pull-ups."
        }
    }
}
