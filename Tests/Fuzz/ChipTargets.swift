// Every chip driver's decoding of what its registers return: a chip (counterfeit, failing,
// mid-reset) or a bus (noise, a second master) can return any bytes, and a driver must turn
// them into an error or a reading, never a trap or an out-of-bounds access.
internal import Chips
internal import MotionAlgorithms
internal import SensorBus

/// A bus whose every read returns the next bytes of the fuzz input (and fails once the input
/// is used up, so every loop ends); writes succeed.
final class FuzzedBus: I2CBus {
    let name = "fuzz"
    private let bytes: UnsafeRawBufferPointer
    private var offset: Int

    init(_ bytes: UnsafeRawBufferPointer, from offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        guard offset + buffer.count <= bytes.count else {
            throw BusError(.inputOutput(errno: 5), bus: name, address: address, register: register, operation: "read")
        }
        for index in buffer.indices { buffer[index] = bytes[offset + index] }
        offset += buffer.count
    }

    func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {}

    /// A packet chip's plain read (BNO08x SHTP) takes the next bytes the same way.
    func read(address: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        try readRegisters(address: address, register: 0, into: buffer)
    }

    func write(address: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {}
}

/// A bus that keeps every byte an emulator returns: run a driver on it and the bytes are a
/// seed that takes the fuzzer through that driver's whole initialisation.
final class RecordingBus<Emulator: I2CBus & EmulatedChip>: I2CBus {
    let emulator: Emulator
    private(set) var bytes: [UInt8]
    var name: String { emulator.name }

    init(_ emulator: Emulator, driverByte: UInt8) {
        self.emulator = emulator
        bytes = [driverByte]
    }

    func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        try emulator.readRegisters(address: address, register: register, into: buffer)
        bytes.append(contentsOf: buffer)
    }

    func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        try emulator.writeRegisters(address: address, register: register, values: values)
    }

    func read(address: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        try emulator.read(address: address, into: buffer)
        bytes.append(contentsOf: buffer)
    }

    func write(address: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        try emulator.write(address: address, values: values)
    }
}

enum ChipTargets {
    /// The first byte picks the driver, the rest are what the bus returns: the probe, the
    /// driver's initialisation and up to 8 reads (or FIFO drains into a 64-reading buffer).
    static func registerBytes(_ bytes: UnsafeRawBufferPointer, includingMS5837: Bool) {
        guard let first = bytes.first else { return }
        let bus = FuzzedBus(bytes, from: 1)
        if includingMS5837 {
            // MS5837 in a target of its own (it was split out when its reset slept 10 ms an input;
            // the harness now skips that wait, and its corpus stays its own).
            exerciseMS5837(variant: first & 1 == 0 ? .bar30 : .bar02, bus: bus, advance: { _ in })
        } else {
            exercise(driver: first, bus: bus, advance: { _ in })
        }
    }

    /// How many choices `exercise` has: one per driver (two for the LSM9DS1 magnetometer's
    /// variants) and the probe (the last).
    static let choices: UInt8 = 20

    /// Runs driver `choice % choices` on `bus`; `advance(t)` is called before each read at time t (ns).
    static func exercise(driver choice: UInt8, bus: some I2CBus, advance: (Int64) -> Void) {
        func times(_ body: (Int64) -> Void) {
            for step in 1...8 {
                let now = Int64(step) * 20_000_000
                advance(now)
                body(now)
            }
        }
        switch choice % choices {
        case 0:
            guard let driver = try? MPU6050Driver(bus: bus) else { return }
            drain(driver, advance: advance)
        case 1:
            guard let driver = try? BMI160Driver(bus: bus) else { return }
            drain(driver, advance: advance)
        case 2:
            guard let driver = try? LSM6DSXDriver(bus: bus) else { return }
            times { _ = try? driver.read(nowNanoseconds: $0) }
        case 3:
            guard let driver = try? LSM9DS1InertialDriver(bus: bus) else { return }
            times { _ = try? driver.read(nowNanoseconds: $0) }
        case 4, 5:
            guard let driver = try? LSM9DS1MagnetometerDriver(bus: bus, variant: choice % choices == 4 ? .lsm9ds1 : .lis3mdl) else { return }
            times { _ = try? driver.read(nowNanoseconds: $0) }
        case 6:
            guard let driver = try? AK8963Driver(bus: bus) else { return }
            times { _ = try? driver.read(nowNanoseconds: $0) }
        case 7:
            guard let driver = try? BMP280Driver(bus: bus) else { return }
            times { _ in _ = try? driver.read() }
        case 8:
            guard let driver = try? LPS25HDriver(bus: bus) else { return }
            times { _ in _ = try? driver.read() }
        case 9:
            guard let driver = try? QMC5883LDriver(bus: bus) else { return }
            times { _ = try? driver.read(nowNanoseconds: $0) }
        case 10:
            guard let driver = try? HMC5883LDriver(bus: bus) else { return }
            times { _ = try? driver.read(nowNanoseconds: $0) }
        case 11:
            guard let driver = try? LIS2MDLDriver(bus: bus) else { return }
            times { _ = try? driver.read(nowNanoseconds: $0) }
        case 12:
            guard let driver = try? MMC5983MADriver(bus: bus) else { return }
            times { _ = try? driver.read(nowNanoseconds: $0) }
        case 13:
            guard let driver = try? BMP388Driver(bus: bus) else { return }
            times { _ in _ = try? driver.read() }
        case 14:
            guard let driver = try? ICM20948Driver(bus: bus) else { return }
            times { _ = try? driver.read(nowNanoseconds: $0) }
        case 15:
            // SHTP: every length, channel and report the bytes claim is checked before use.
            guard let driver = try? BNO08XDriver(bus: bus, transferLimit: 32) else { return }
            let readings = UnsafeMutableBufferPointer<SensorReading>.allocate(capacity: 64)
            defer { readings.deallocate() }
            times { _ = try? driver.read(into: readings, nowNanoseconds: $0) }
        case 16:
            guard let driver = try? BNO055Driver(bus: bus, pause: { _ in }) else { return }  // no 26 ms per (re)start
            times { _ = try? driver.read(nowNanoseconds: $0) }
            _ = try? driver.readCalibrationProfile()
        case 17:
            // The tagged FIFO: a word count, overrun flags and tags from the bytes (any WHO_AM_I
            // of the LSM6DSO/DSOX, ISM330DHCX or LSM6DSV16X maps).
            guard let driver = try? LSM6DSXFIFODriver(bus: bus) else { return }
            drain(driver, advance: advance)
        case 18:
            // The pattern FIFO: a word count, OVER_RUN and FIFO_PATTERN from the bytes, the
            // realignment and FIFO_CTRL5's reset check on whatever they say (LSM6DS3, LSM6DS3TR-C).
            guard let driver = try? LSM6DS3FIFODriver(bus: bus) else { return }
            drain(driver, advance: advance)
        default:
            _ = try? ChipProbe.probe(bus)
        }
    }

    static func exerciseMS5837(variant: MS5837Variant, bus: some I2CBus, advance: (Int64) -> Void) {
        // The emulated chip reloads its PROM at once: no 10 ms sleep per input.
        guard let driver = try? MS5837Driver(bus: bus, variant: variant, wait: { _ in }) else { return }
        for step in 1...8 {
            advance(Int64(step) * 20_000_000)
            _ = try? driver.read()
        }
    }

    private static func drain(_ driver: some FIFOInertialDriver, advance: (Int64) -> Void) {
        let readings = UnsafeMutableBufferPointer<SensorReading>.allocate(capacity: 64)
        defer { readings.deallocate() }
        for step in 1...8 {
            let now = Int64(step) * 20_000_000
            advance(now)
            _ = try? driver.drain(into: readings, nowNanoseconds: now)
        }
    }

    /// Seeds: each driver run on its emulator, the bytes the emulator returned kept.
    static func seeds() -> (chips: [[UInt8]], ms5837: [[UInt8]]) {
        func recorded<Emulator: I2CBus & EmulatedChip>(_ emulator: Emulator, _ choice: UInt8) -> [UInt8] {
            let bus = RecordingBus(emulator, driverByte: choice)
            exercise(driver: choice, bus: bus, advance: { emulator.advance(to: $0) })
            return bus.bytes
        }
        let chips = [
            recorded(MPU6050Emulator(), 0), recorded(MPU6050Emulator(whoAmI: 0x71), 0), recorded(BMI160Emulator(), 1),
            recorded(LSM6DSXEmulator(), 2), recorded(LSM9DS1Emulator(), 3), recorded(LSM9DS1Emulator(), 4),
            recorded(LSM9DS1Emulator(isLIS3MDL: true), 5), recorded(AK8963Emulator(), 6), recorded(BMP280Emulator(), 7),
            recorded(BMP280Emulator(chipID: 0x60), 7), recorded(LPS25HEmulator(), 8),
            recorded(QMC5883LEmulator(), 9), recorded(HMC5883LEmulator(), 10), recorded(LIS2MDLEmulator(), 11),
            recorded(MMC5983MAEmulator(), 12), recorded(BMP388Emulator(), 13), recorded(BMP388Emulator(chipID: 0x60), 13),
            recorded(ICM20948Emulator(), 14), recorded(BNO08XEmulator(), 15), recorded(BNO055Emulator(), 16),
            recorded(LSM6DSXEmulator(whoAmI: 0x70), 2), recorded(LSM6DSXEmulator(), 17), recorded(LSM6DSXEmulator(whoAmI: 0x70), 17),
            recorded(LSM6DSXEmulator(whoAmI: 0x6A), 18), recorded(LSM6DSXEmulator(whoAmI: 0x69), 18),
        ]
        var ms5837: [[UInt8]] = []
        for (index, variant) in [MS5837Variant.bar30, .bar02].enumerated() {
            let emulator = MS5837Emulator(variant: variant)
            let bus = RecordingBus(emulator, driverByte: UInt8(index))
            exerciseMS5837(variant: variant, bus: bus, advance: { emulator.advance(to: $0) })
            ms5837.append(bus.bytes)
        }
        return (chips, ms5837)
    }
}
