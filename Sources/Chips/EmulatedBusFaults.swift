public import SensorBus

/// Bus faults an emulator can inject, shared by every chip's emulator so that each driver is
/// tested against the same failures (the style guide's "every emulator injects the same faults").
public enum BusFault: Sendable, Equatable {
    /// No acknowledge: the chip is gone (unplugged, unpowered).
    case noAcknowledge
    /// EIO on transactions touching `register` (nil: every transaction).
    case inputOutputError(register: UInt8?)
}

/// The fault state of one emulated chip: which fault, for how many more transactions.
public struct EmulatedBusFaults: Sendable {
    public private(set) var fault: BusFault?
    private var remaining: Int?

    public init() {}

    /// Injects `fault` for the next `count` transactions it touches (nil: until cleared).
    public mutating func inject(_ fault: BusFault, count: Int?) {
        self.fault = fault
        remaining = count
    }

    public mutating func clear() { fault = nil }

    /// Runs at the start of every transaction: a wrong address is not acknowledged; an injected
    /// fault that touches `register ..< register + length` throws (and is used up if counted).
    public mutating func check(bus: String, chipAddress: UInt8, address: UInt8, register: UInt8, length: Int) throws(BusError) {
        guard address == chipAddress else { throw BusError(.noAcknowledge, bus: bus, address: address, register: register) }
        guard let fault else { return }
        if case .inputOutputError(let target?) = fault, !(Int(register) <= Int(target) && Int(target) < Int(register) + max(1, length)) {
            return
        }
        if let left = remaining {
            if left <= 1 { self.fault = nil }
            remaining = left - 1
        }
        throw BusError(fault == .noAcknowledge ? .noAcknowledge : .inputOutput(errno: 5), bus: bus, address: address, register: register)
    }
}
