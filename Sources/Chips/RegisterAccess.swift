import SensorBus

/// What every driver does to its chip over the bus, written once: each transaction's error says
/// which operation failed, the identity register is checked against the datasheet's values,
/// and self-clearing bits are polled a bounded number of times.
struct RegisterAccess<Bus: I2CBus> {
    let bus: Bus
    let address: UInt8
    /// The chip's name for messages ("BMP280", "LSM9DS1 magnetometer").
    let chip: String

    /// Runs `body`, turning a bus error into a chip error that names `what` was being done.
    /// `what` is built only when the transaction fails: the per-sample path allocates nothing.
    func attempt<T>(_ what: @autoclosure () -> String, _ body: () throws(BusError) -> T) throws(ChipError) -> T {
        do { return try body() } catch { throw .bus(error.during(what())) }
    }

    func read(_ register: UInt8, _ what: @autoclosure () -> String) throws(ChipError) -> UInt8 {
        try attempt(what()) { () throws(BusError) in try bus.readRegister(address: address, register: register) }
    }

    func write(_ register: UInt8, _ value: UInt8, _ what: @autoclosure () -> String) throws(ChipError) {
        try attempt(what()) { () throws(BusError) in try bus.writeRegister(address: address, register: register, value: value) }
    }

    /// Reads the identity register; throws unless it holds one of `expected`.
    @discardableResult
    func identify(register: UInt8, expected: [UInt8], family: String? = nil) throws(ChipError) -> UInt8 {
        let identity = try read(register, "reading the \(chip) identity register (\(hex(register)))")
        guard expected.contains(identity) else {
            throw .unexpectedIdentity(chip: family ?? chip, bus: bus.name, address: address, register: register,
                                      expected: expected, found: identity)
        }
        return identity
    }

    /// Polls `register` until the bits in `mask` read 0 (a reset or an NVM copy finishing),
    /// at most 100 reads (each a bus transaction of ≥ 50 µs at 400 kHz: ≥ 5 ms, more than the
    /// datasheets' reset times at bus speed; the engine retries a chip that stays busy).
    func waitUntilClear(register: UInt8, mask: UInt8, what: String) throws(ChipError) {
        for _ in 0..<100 {
            if try read(register, "waiting for \(what)") & mask == 0 { return }
        }
        throw .notReady(chip: chip, bus: bus.name, address: address, what: what)
    }

    /// Polls `register` until every bit in `mask` reads 1 (a command decoder ready again after a
    /// reset), with the same bound as `waitUntilClear`.
    func waitUntilSet(register: UInt8, mask: UInt8, what: String) throws(ChipError) {
        for _ in 0..<100 {
            if try read(register, "waiting for \(what)") & mask == mask { return }
        }
        throw .notReady(chip: chip, bus: bus.name, address: address, what: what)
    }
}
