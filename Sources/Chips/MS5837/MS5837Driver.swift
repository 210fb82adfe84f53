public import FixedPoint
public import SensorBus

/// An MS5837-30BA or MS5837-02BA pressure sensor (the usual depth sensor of underwater builds)
/// on an I2C bus.
///
/// The chip converts only on command and its ADC result must not be read before the
/// conversion ends ("Conversion sequence": a read during a conversion returns 0 and spoils the
/// result). The driver never waits: each `read()` collects the conversion the previous one
/// started and starts the next, alternating temperature (D2) and pressure (D1). Called once
/// per `measurementPeriodNanoseconds` (longer than the longest conversion), it gives a
/// measurement every second call, after each pressure conversion, compensated with the
/// temperature just before it.
///
/// A result of 0 means the chip holds no conversion: it was reset or lost power mid-stream
/// (or was read too early). The driver resets it, reloads and checks the PROM, counts a
/// recovery and starts again.
public final class MS5837Driver<Bus: I2CBus> {
    public struct Reading: Sendable, Equatable {
        /// Static pressure in Pa, Q24.8.
        public var pressure: Q24_8
        /// Die temperature (the water's, once the housing has settled) in °C, Q16.16.
        public var temperature: Q16_16
    }

    private enum Conversion { case pressure, temperature }

    public let bus: Bus
    public let address: UInt8
    public let variant: MS5837Variant
    public let oversampling: MS5837Oversampling
    public private(set) var calibration: MS5837Calibration
    public private(set) var recoveries = 0
    /// The conversion started by the last `read()`, to collect at the next.
    private var pending: Conversion?
    /// The latest D2 (raw temperature), for compensating the next D1.
    private var latestTemperature: UInt32?
    /// Waits the given nanoseconds for the PROM reload after a reset (`ThreadSleep.sleep` on a
    /// chip; a fuzz harness, whose emulated chip reloads at once, passes one that returns).
    private let wait: (Int64) -> Void

    /// One read per this period: the longest conversion at the chosen oversampling rounded up
    /// to the next millisecond plus 1 ms for the bus (OSR 8192: 20 ms, a measurement every
    /// 40 ms).
    public var measurementPeriodNanoseconds: Int64 {
        (oversampling.maximumConversionMicroseconds / 1000 + 2) * 1_000_000
    }

    /// Resets the chip and reads and checks its PROM (CRC-4, product version against
    /// `variant`). The first `read()` starts the first conversion: an engine may read at once
    /// after bringing a chip up, and a conversion started here would still be running then.
    public init(bus: Bus, address: UInt8 = MS5837Command.address, variant: MS5837Variant,
                oversampling: MS5837Oversampling = .osr8192,
                wait: @escaping (Int64) -> Void = ThreadSleep.sleep(nanoseconds:)) throws(ChipError) {
        self.bus = bus
        self.address = address
        self.variant = variant
        self.oversampling = oversampling
        self.wait = wait
        calibration = try Self.initialise(bus: bus, address: address, variant: variant, wait: wait)
    }

    private static func initialise(bus: Bus, address: UInt8, variant: MS5837Variant,
                                   wait: (Int64) -> Void) throws(ChipError) -> MS5837Calibration {
        let access = RegisterAccess(bus: bus, address: address, chip: variant.name)
        try command(MS5837Command.reset, access, "resetting the \(variant.name)")
        wait(promReloadNanoseconds)
        var words: [UInt16] = []
        for index in 0..<MS5837Command.promWords {
            let register = MS5837Command.promRead + UInt8(2 * index)
            var word: (UInt8, UInt8) = (0, 0)
            try withUnsafeMutableBytes(of: &word) { (buffer) throws(ChipError) in
                try access.attempt("reading the \(variant.name) PROM word \(index) (\(hex(register)))") { () throws(BusError) in
                    try bus.readRegisters(address: address, register: register, into: buffer)
                }
            }
            words.append(UInt16(word.0) << 8 | UInt16(word.1))
        }
        let calibration = MS5837Calibration(words: words)
        guard !calibration.isBlank else { throw .invalidCalibration(chip: variant.name, bus: bus.name, address: address) }
        let computed = MS5837Calibration.crc4(words)
        guard computed == calibration.storedCRC else {
            throw .calibrationChecksumMismatch(chip: variant.name, bus: bus.name, address: address, stored: calibration.storedCRC, computed: computed)
        }
        // A chip of the other variant compensates with the wrong formulas (depth off by a
        // factor): the board file must name the right one. Unknown versions are accepted.
        if let found = MS5837Variant.of(version: calibration.version), found != variant {
            throw .unexpectedIdentity(chip: variant.name, bus: bus.name, address: address, register: MS5837Command.promRead,
                                      expected: variant.versions, found: calibration.version)
        }
        return calibration
    }

    /// The reset reloads the PROM into the chip's register ("Reset sequence"); the datasheet
    /// gives no time for it (its sibling MS5611's is 2.8 ms), and reading the PROM during it
    /// reads junk (a CRC error). 10 ms, as Blue Robotics' ms5837 library waits. Only at start
    /// and after a recovery.
    private static var promReloadNanoseconds: Int64 { 10_000_000 }


    /// A bare command byte: a write of the command with no data.
    private static func command(_ byte: UInt8, _ access: RegisterAccess<Bus>, _ what: @autoclosure () -> String) throws(ChipError) {
        try access.attempt(what()) { () throws(BusError) in
            try withUnsafeBytes(of: ()) { (empty) throws(BusError) in
                try access.bus.writeRegisters(address: access.address, register: byte, values: empty)
            }
        }
    }

    private func start(_ conversion: Conversion) throws(ChipError) {
        let base = conversion == .pressure ? MS5837Command.convertPressure : MS5837Command.convertTemperature
        let access = RegisterAccess(bus: bus, address: address, chip: variant.name)
        try Self.command(base + oversampling.commandOffset, access,
                         "starting a \(conversion == .pressure ? "pressure (D1)" : "temperature (D2)") conversion")
        pending = conversion
    }

    /// Collects the pending conversion and starts the next; a measurement after each pressure
    /// conversion, nil otherwise (and after a recovery).
    public func read() throws(ChipError) -> Reading? {
        guard let conversion = pending else {
            try start(.temperature)
            return nil
        }
        pending = nil
        var bytes: (UInt8, UInt8, UInt8) = (0, 0, 0)
        do {
            try withUnsafeMutableBytes(of: &bytes) { (buffer) throws(BusError) in
                try bus.readRegisters(address: address, register: MS5837Command.adcRead, into: buffer)
            }
        } catch {
            throw .bus(error.during("reading the \(variant.name) ADC result"))
        }
        let adc = UInt32(bytes.0) << 16 | UInt32(bytes.1) << 8 | UInt32(bytes.2)
        guard adc != 0 else {
            calibration = try Self.initialise(bus: bus, address: address, variant: variant, wait: wait)
            latestTemperature = nil
            recoveries += 1
            try start(.temperature)
            return nil
        }
        switch conversion {
        case .temperature:
            latestTemperature = adc
            try start(.pressure)
            return nil
        case .pressure:
            try start(.temperature)
            guard let d2 = latestTemperature else { return nil }
            let result = MS5837Conversion.secondOrder(variant, d1: adc, d2: d2, calibration)
            return Reading(pressure: Q24_8(rawValue: Int32(clamping: result.pascals << 8)),
                           temperature: Q16_16(rawValue: Int32(clamping: (result.centidegrees << 16) / 100)))
        }
    }
}
