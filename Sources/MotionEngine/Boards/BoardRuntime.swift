import Chips
import FixedPoint
import LinuxI2C
import LinuxIIO
public import MotionAlgorithms
import SensorBus

/// A board brought up from its description: each chip's driver on its bus (a real
/// `/dev/i2c-N` or the chip's emulator), polled by the engine's clock. Readings leave in
/// device axes (the board's mounting applied) into a caller-owned buffer: no allocation per poll.
public final class BoardRuntime {
    /// One chip's driver, by family and bus kind (an enum, not an existential: the per-poll
    /// path dispatches with a switch).
    enum Session {
        case inertial(MPU6050Driver<LinuxI2CBus>)
        case emulatedInertial(MPU6050Driver<MPU6050Emulator>, MPU6050Emulator)
        case bmi160(BMI160Driver<LinuxI2CBus>)
        case emulatedBMI160(BMI160Driver<BMI160Emulator>, BMI160Emulator)
        case barometer(BMP280Driver<LinuxI2CBus>)
        case emulatedBarometer(BMP280Driver<BMP280Emulator>, BMP280Emulator)
        case senseHATBarometer(LPS25HDriver<LinuxI2CBus>)
        case emulatedSenseHATBarometer(LPS25HDriver<LPS25HEmulator>, LPS25HEmulator)
        case polledInertial(LSM9DS1InertialDriver<LinuxI2CBus>)
        case emulatedPolledInertial(LSM9DS1InertialDriver<LSM9DS1Emulator>, LSM9DS1Emulator)
        case lsm6dsx(LSM6DSXDriver<LinuxI2CBus>)
        case emulatedLSM6DSX(LSM6DSXDriver<LSM6DSXEmulator>, LSM6DSXEmulator)
        case ak8963(AK8963Driver<LinuxI2CBus>)
        case emulatedAK8963(AK8963Driver<AK8963Emulator>, AK8963Emulator)
        case magnetometer(LSM9DS1MagnetometerDriver<LinuxI2CBus>)
        case emulatedMagnetometer(LSM9DS1MagnetometerDriver<LSM9DS1Emulator>, LSM9DS1Emulator)
        /// A chip its kernel driver owns, read through IIO's sysfs attributes once per sample period.
        case iio(IIOSensorDevice, periodNanoseconds: Int64)
    }

    public let description: BoardDescription
    private var sessions: [(chip: BoardDescription.Chip, session: Session, nextReadNanoseconds: Int64)] = []
    private let motion: RecordedMotion?
    private var scratch: [SensorReading]

    /// Brings every chip up. `root` resolves relative `motion` paths (the repository root).
    public init(_ description: BoardDescription, root: String) throws(EngineError) {
        self.description = description
        scratch = [SensorReading](repeating: SensorReading(timestampNanoseconds: 0, value: .temperature(.zero)), count: 512)
        var motion: RecordedMotion?
        if let path = description.chips.compactMap(\.motionRecording).first {
            motion = try RecordedMotion(path: path.hasPrefix("/") ? path : root + "/" + path)
        }
        self.motion = motion
        var buses: [Int: LinuxI2CBus] = [:]
        var contexts: [String: IIOContext] = [:]
        for chip in description.chips {
            if case .iio(let device, let uri) = chip.bus {
                sessions.append((chip, try Self.iioSession(for: chip, device: device, uri: uri, contexts: &contexts), 0))
                continue
            }
            do {
                sessions.append((chip, try Self.session(for: chip, motion: motion, buses: &buses), 0))
            } catch {
                throw .chip(label: chip.label, error)
            }
        }
    }

    private static func session(for chip: BoardDescription.Chip, motion: RecordedMotion?,
                                buses: inout [Int: LinuxI2CBus]) throws(ChipError) -> Session {
        func linuxBus(_ number: Int) throws(ChipError) -> LinuxI2CBus {
            if let bus = buses[number] { return bus }
            do {
                let bus = try LinuxI2CBus(bus: number)
                buses[number] = bus
                return bus
            } catch {
                throw .bus(error)
            }
        }
        var inertialConfiguration = MPU6050Driver<LinuxI2CBus>.Configuration()
        if let rate = chip.rateHertz { inertialConfiguration.sampleRateHertz = rate }
        switch (chip.driver, chip.bus) {
        case ("mpu6050", .i2c(let number)):
            return .inertial(try MPU6050Driver(bus: try linuxBus(number), address: chip.address, configuration: inertialConfiguration))
        case ("mpu6050", .emulated):
            let emulator = MPU6050Emulator(address: chip.address, motion: inertialMotion(motion))
            var configuration = MPU6050Driver<MPU6050Emulator>.Configuration()
            configuration.sampleRateHertz = inertialConfiguration.sampleRateHertz
            return .emulatedInertial(try MPU6050Driver(bus: emulator, address: chip.address, configuration: configuration), emulator)
        case ("bmi160", .i2c(let number)):
            return .bmi160(try BMI160Driver(bus: try linuxBus(number), address: chip.address, sampleRateHertz: chip.rateHertz ?? 100))
        case ("bmi160", .emulated):
            let emulator = BMI160Emulator(address: chip.address, motion: inertialMotion(motion))
            return .emulatedBMI160(try BMI160Driver(bus: emulator, address: chip.address, sampleRateHertz: chip.rateHertz ?? 100), emulator)
        case ("bmp280", .i2c(let number)):
            return .barometer(try BMP280Driver(bus: try linuxBus(number), address: chip.address))
        case ("bmp280", .emulated):
            let emulator = BMP280Emulator(address: chip.address)
            return .emulatedBarometer(try BMP280Driver(bus: emulator, address: chip.address), emulator)
        case ("lsm9ds1", .i2c(let number)):
            return .polledInertial(try LSM9DS1InertialDriver(bus: try linuxBus(number), address: chip.address))
        case ("lsm9ds1", .emulated):
            let emulator = LSM9DS1Emulator(inertialAddress: chip.address, motion: lsm9ds1Motion(motion))
            return .emulatedPolledInertial(try LSM9DS1InertialDriver(bus: emulator, address: chip.address), emulator)
        case ("lsm6dsx", .i2c(let number)):
            return .lsm6dsx(try LSM6DSXDriver(bus: try linuxBus(number), address: chip.address, rateHertz: chip.rateHertz ?? 104))
        case ("lsm6dsx", .emulated):
            let emulator = LSM6DSXEmulator(address: chip.address, motion: inertialMotion(motion))
            return .emulatedLSM6DSX(try LSM6DSXDriver(bus: emulator, address: chip.address, rateHertz: chip.rateHertz ?? 104), emulator)
        case ("ak8963", .i2c(let number)):
            return .ak8963(try AK8963Driver(bus: try linuxBus(number), address: chip.address))
        case ("ak8963", .emulated):
            let emulator = AK8963Emulator(address: chip.address, field: { nanoseconds in
                guard let motion else { return (19, 0, -46) }
                motion.advance(to: nanoseconds)
                return motion.magneticField
            })
            return .emulatedAK8963(try AK8963Driver(bus: emulator, address: chip.address), emulator)
        case ("lsm9ds1-magnetometer", .i2c(let number)), ("lis3mdl", .i2c(let number)):
            return .magnetometer(try LSM9DS1MagnetometerDriver(bus: try linuxBus(number), address: chip.address,
                                                               variant: chip.driver == "lis3mdl" ? .lis3mdl : .lsm9ds1))
        case ("lsm9ds1-magnetometer", .emulated), ("lis3mdl", .emulated):
            let isLIS3MDL = chip.driver == "lis3mdl"
            let emulator = LSM9DS1Emulator(magnetometerAddress: chip.address, isLIS3MDL: isLIS3MDL, motion: lsm9ds1Motion(motion))
            return .emulatedMagnetometer(try LSM9DS1MagnetometerDriver(bus: emulator, address: chip.address,
                                                                       variant: isLIS3MDL ? .lis3mdl : .lsm9ds1), emulator)
        case (_, .i2c(let number)):  // "lps25h": the parser admits only known drivers
            return .senseHATBarometer(try LPS25HDriver(bus: try linuxBus(number), address: chip.address))
        case (_, .emulated):
            let emulator = LPS25HEmulator(address: chip.address)
            return .emulatedSenseHATBarometer(try LPS25HDriver(bus: emulator, address: chip.address), emulator)
        case (_, .iio):
            preconditionFailure("IIO chips are opened by iioSession(for:), never here")  // our bug if reached
        }
    }

    /// Opens the chip's IIO device (one context per URI), setting its rate if the board asks.
    private static func iioSession(for chip: BoardDescription.Chip, device name: String, uri: String,
                                   contexts: inout [String: IIOContext]) throws(EngineError) -> Session {
        do {
            let context = try contexts[uri] ?? IIOContext(uri: uri)
            contexts[uri] = context
            guard let device = context.sensorDevices().first(where: { $0.name == name }) else {
                let present = context.sensorDevices().map(\.name)
                throw EngineError.iioDeviceMissing(label: chip.label, device: name, uri: uri, present: present)
            }
            var rate = device.samplingFrequency ?? 10
            if let requested = chip.rateHertz, !device.availableSamplingFrequencies.isEmpty {
                rate = try device.setSamplingFrequency(nearest: Double(requested))
            }
            return .iio(device, periodNanoseconds: Int64(1e9 / max(rate, 0.1)))
        } catch let error as EngineError {
            throw error
        } catch let error as IIOError {
            throw .iio(label: chip.label, error)
        } catch {
            throw .iio(label: chip.label, IIOError(context: uri, problem: "\(error)"))
        }
    }

    /// An accelerometer/gyroscope emulator's motion: the recording's, or at rest face up.
    private static func inertialMotion(_ motion: RecordedMotion?) -> (Int64) -> (acceleration: (Double, Double, Double), angularVelocity: (Double, Double, Double)) {
        { nanoseconds in
            guard let motion else { return ((0, 0, 9.80665), (0, 0, 0)) }
            motion.advance(to: nanoseconds)
            return (motion.acceleration, motion.angularVelocity)
        }
    }

    /// The LSM9DS1 emulator's motion: the recording's, or at rest face up in the Earth's field.
    private static func lsm9ds1Motion(_ motion: RecordedMotion?) -> LSM9DS1Emulator.MotionSource {
        { nanoseconds in
            guard let motion else { return ((0, 0, 9.80665), (0, 0, 0), (19, 0, -46)) }
            motion.advance(to: nanoseconds)
            return (motion.acceleration, motion.angularVelocity, motion.magneticField)
        }
    }

    /// How often to poll so that no polled chip loses a sample: half the shortest sample period
    /// of a chip without a FIFO (its output registers hold one sample), between 1 and 10 ms.
    /// FIFO chips (MPU-6050, BMI160) buffer ≥ 85 frames and need no faster polls.
    public var pollIntervalNanoseconds: Int64 {
        var interval: Int64 = 10_000_000
        for (_, session, _) in sessions {
            let period: Int64
            switch session {
            case .polledInertial(let driver): period = driver.samplePeriodNanoseconds
            case .emulatedPolledInertial(let driver, _): period = driver.samplePeriodNanoseconds
            case .lsm6dsx(let driver): period = driver.samplePeriodNanoseconds
            case .emulatedLSM6DSX(let driver, _): period = driver.samplePeriodNanoseconds
            case .ak8963(let driver): period = driver.samplePeriodNanoseconds
            case .emulatedAK8963(let driver, _): period = driver.samplePeriodNanoseconds
            case .magnetometer(let driver): period = driver.samplePeriodNanoseconds
            case .emulatedMagnetometer(let driver, _): period = driver.samplePeriodNanoseconds
            case .iio(_, let samplePeriod): period = samplePeriod
            default: continue
            }
            interval = min(interval, max(1_000_000, period / 2))
        }
        return interval
    }

    /// Whether a simulated board's recording has ended.
    public var isFinished: Bool { motion?.isFinished ?? false }

    /// Polls every chip at board time `nowNanoseconds` (emulators are first run up to it) and
    /// calls `deliver` with the readings in device axes. Returns how many were delivered.
    public func poll(nowNanoseconds: Int64, deliver: (SensorReading) -> Void) throws(EngineError) -> Int {
        var delivered = 0
        for index in sessions.indices {
            let chip = sessions[index].chip
            if case .iio(let device, let period) = sessions[index].session {
                // Once per sample period on a fixed schedule (sysfs holds only the latest value).
                guard nowNanoseconds >= sessions[index].nextReadNanoseconds else { continue }
                while sessions[index].nextReadNanoseconds <= nowNanoseconds { sessions[index].nextReadNanoseconds += period }
                delivered += try readIIO(device, chip: chip, now: nowNanoseconds, deliver: deliver)
                continue
            }
            do {
                switch sessions[index].session {
                case .inertial(let driver):
                    delivered += try drain(driver, chip: chip, now: nowNanoseconds, deliver: deliver)
                case .emulatedInertial(let driver, let emulator):
                    emulator.advance(to: nowNanoseconds)
                    delivered += try drain(driver, chip: chip, now: nowNanoseconds, deliver: deliver)
                case .bmi160(let driver):
                    delivered += try drain(driver, chip: chip, now: nowNanoseconds, deliver: deliver)
                case .emulatedBMI160(let driver, let emulator):
                    emulator.advance(to: nowNanoseconds)
                    delivered += try drain(driver, chip: chip, now: nowNanoseconds, deliver: deliver)
                case .barometer(let driver):
                    delivered += try readBarometer(driver, index: index, now: nowNanoseconds, deliver: deliver)
                case .emulatedBarometer(let driver, let emulator):
                    if let motion { emulator.pressurePascals = motion.pressure }
                    emulator.advance(to: nowNanoseconds)
                    delivered += try readBarometer(driver, index: index, now: nowNanoseconds, deliver: deliver)
                case .polledInertial(let driver):
                    delivered += deliverMounted(try driver.read(nowNanoseconds: nowNanoseconds), chip, deliver)
                case .emulatedPolledInertial(let driver, let emulator):
                    emulator.advance(to: nowNanoseconds)
                    delivered += deliverMounted(try driver.read(nowNanoseconds: nowNanoseconds), chip, deliver)
                case .lsm6dsx(let driver):
                    delivered += deliverMounted(try driver.read(nowNanoseconds: nowNanoseconds), chip, deliver)
                case .emulatedLSM6DSX(let driver, let emulator):
                    emulator.advance(to: nowNanoseconds)
                    delivered += deliverMounted(try driver.read(nowNanoseconds: nowNanoseconds), chip, deliver)
                case .ak8963(let driver):
                    delivered += deliverMounted(try driver.read(nowNanoseconds: nowNanoseconds), chip, deliver)
                case .emulatedAK8963(let driver, let emulator):
                    emulator.advance(to: nowNanoseconds)
                    delivered += deliverMounted(try driver.read(nowNanoseconds: nowNanoseconds), chip, deliver)
                case .magnetometer(let driver):
                    delivered += deliverMounted(try driver.read(nowNanoseconds: nowNanoseconds), chip, deliver)
                case .emulatedMagnetometer(let driver, let emulator):
                    emulator.advance(to: nowNanoseconds)
                    delivered += deliverMounted(try driver.read(nowNanoseconds: nowNanoseconds), chip, deliver)
                case .iio:
                    break  // read above, outside this chip-error scope
                case .senseHATBarometer(let driver):
                    delivered += try readBarometer(index: index, now: nowNanoseconds, period: driver.measurementPeriodNanoseconds,
                                                   read: { () throws(ChipError) in try driver.read().map { ($0.pressure, $0.temperature) } }, deliver: deliver)
                case .emulatedSenseHATBarometer(let driver, let emulator):
                    if let motion { emulator.pressurePascals = motion.pressure }
                    emulator.advance(to: nowNanoseconds)
                    delivered += try readBarometer(index: index, now: nowNanoseconds, period: driver.measurementPeriodNanoseconds,
                                                   read: { () throws(ChipError) in try driver.read().map { ($0.pressure, $0.temperature) } }, deliver: deliver)
                }
            } catch {
                throw .chip(label: chip.label, error)
            }
        }
        if let failure = motion?.failure { throw .recording(failure) }
        return delivered
    }

    private func drain(_ driver: some FIFOInertialDriver, chip: BoardDescription.Chip, now: Int64,
                                    deliver: (SensorReading) -> Void) throws(ChipError) -> Int {
        var total = 0
        while true {
            let result = try scratch.withUnsafeMutableBufferPointer { (buffer) throws(ChipError) in
                try driver.drain(into: buffer, nowNanoseconds: now)
            }
            for reading in scratch[0..<result.readings] { deliver(mounted(reading, chip.mount)) }
            total += result.readings
            if result.readings < scratch.count { return total }
        }
    }

    private func readBarometer<Bus: I2CBus>(_ driver: BMP280Driver<Bus>, index: Int, now: Int64,
                                            deliver: (SensorReading) -> Void) throws(ChipError) -> Int {
        try readBarometer(index: index, now: now, period: driver.measurementPeriodNanoseconds,
                          read: { () throws(ChipError) in try driver.read().map { ($0.pressure, $0.temperature) } }, deliver: deliver)
    }

    /// Reads an IIO device's channels (already in device axes by its mount matrix, then the
    /// board's mounting) and delivers them in fixed point.
    private func readIIO(_ device: IIOSensorDevice, chip: BoardDescription.Chip, now: Int64,
                         deliver: (SensorReading) -> Void) throws(EngineError) -> Int {
        let values: [IIOSensorDevice.Value]
        do { values = try device.read() } catch { throw .iio(label: chip.label, error) }
        for value in values {
            let sensorValue: SensorValue
            switch value {
            case .vector(let kind, let x, let y, let z):
                let vector = Vector3(x: Q16_16(x), y: Q16_16(y), z: Q16_16(z))
                switch kind {
                case .acceleration: sensorValue = .acceleration(vector)
                case .angularVelocity: sensorValue = .angularVelocity(vector)
                default: sensorValue = .magneticField(vector)
                }
            case .scalar(let kind, let x):
                sensorValue = kind == .pressure ? .pressure(Q24_8(x)) : .temperature(Q16_16(x))
            }
            deliver(mounted(SensorReading(timestampNanoseconds: now, value: sensorValue), chip.mount))
        }
        return values.count
    }

    /// Delivers a polled chip's reading (if any), mounted; returns how many were delivered.
    private func deliverMounted(_ reading: SensorReading?, _ chip: BoardDescription.Chip, _ deliver: (SensorReading) -> Void) -> Int {
        guard let reading else { return 0 }
        deliver(mounted(reading, chip.mount))
        return 1
    }

    private func deliverMounted(_ pair: (acceleration: SensorReading, angularVelocity: SensorReading)?, _ chip: BoardDescription.Chip,
                                _ deliver: (SensorReading) -> Void) -> Int {
        guard let pair else { return 0 }
        deliver(mounted(pair.acceleration, chip.mount))
        deliver(mounted(pair.angularVelocity, chip.mount))
        return 2
    }

    /// Reads a barometer once per measurement period (faster polls would repeat its latest
    /// result) and delivers pressure and temperature.
    private func readBarometer(index: Int, now: Int64, period: Int64, read: () throws(ChipError) -> (Q24_8, Q16_16)?,
                               deliver: (SensorReading) -> Void) throws(ChipError) -> Int {
        guard now >= sessions[index].nextReadNanoseconds, let (pressure, temperature) = try read() else { return 0 }
        // A fixed schedule, so that slow polls do not stretch the barometer's period.
        while sessions[index].nextReadNanoseconds <= now { sessions[index].nextReadNanoseconds += period }
        deliver(SensorReading(timestampNanoseconds: now, value: .pressure(pressure)))
        deliver(SensorReading(timestampNanoseconds: now, value: .temperature(temperature)))
        return 2
    }

    /// The reading in device axes: vectors permuted and signed per the board's `mount`.
    private func mounted(_ reading: SensorReading, _ mount: BoardDescription.AxisMapping) -> SensorReading {
        func map(_ vector: Vector3) -> Vector3 {
            func axis(_ index: Int) -> Q16_16 {
                let (source, sign) = mount.axes[index]
                let component = source == 0 ? vector.x : source == 1 ? vector.y : vector.z
                return sign < 0 ? -component : component
            }
            return Vector3(x: axis(0), y: axis(1), z: axis(2))
        }
        var result = reading
        switch reading.value {
        case .acceleration(let vector): result.value = .acceleration(map(vector))
        case .angularVelocity(let vector): result.value = .angularVelocity(map(vector))
        case .magneticField(let vector): result.value = .magneticField(map(vector))
        case .pressure, .temperature: break
        }
        return result
    }
}
