import FixedPoint
import Glibc
import MotionAlgorithms
@testable import MotionEngine
import Recordings
import Testing
import TestSupport

@Suite struct BoardRuntimeTests {
    /// Runs a board for `seconds` of board time, as fast as possible; returns every reading.
    func run(_ text: String, seconds: Double) throws -> [SensorReading] {
        let board = try BoardFileParser.parse(text, path: "test.board")
        let runtime = try BoardRuntime(board, root: ProjectPaths.root, speed: 0)
        var readings: [SensorReading] = []
        try runtime.run(untilNanoseconds: Int64(seconds * 1e9)) { readings.append($0) }
        return readings
    }

    static let simulated = """
        board = sim
        [chip imu]
        driver = mpu6050
        bus = emulated
        address = 0x68
        rate = 50
        motion = Tests/Recordings/uci_hapt_exp01_user01_stand_walk.csv.gz
        noise = off
        """

    @Test func theEmulatedIMUDeliversTheRecordingsMotionThroughTheRealDriver() throws {
        let readings = try run(Self.simulated, seconds: 2)
        let accelerations = readings.compactMap { reading -> Vector3? in
            if case .acceleration(let vector) = reading.value { return vector }
            return nil
        }
        #expect(accelerations.count == 100)  // 50 Hz for 2 s, none lost, none repeated
        // Same samples as the recording (50 Hz too), to within the ±4 g scale's count (1.2 mm/s²).
        let reader = try RecordingReader(path: ProjectPaths.recording("uci_hapt_exp01_user01_stand_walk.csv.gz"))
        var recorded: [RecordedSample] = []
        while recorded.count < 100, let sample = try reader.next() { if sample.sensor == .accelerometer { recorded.append(sample) } }
        for (vector, sample) in zip(accelerations, recorded) {
            #expect(abs(vector.x.doubleValue - sample.x) < 0.0013 && abs(vector.y.doubleValue - sample.y) < 0.0013
                    && abs(vector.z.doubleValue - sample.z) < 0.0013, "\(vector) vs \(sample)")
        }
        // Timestamps strictly increase, 20 ms apart.
        let times = readings.filter { $0.value.channel == .accelerometer }.map(\.timestampNanoseconds)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 20_000_000 })
    }

    @Test func emulatedChipsAddTheirDatasheetNoise() throws {
        // The same board with noise: readings scatter about the recording's values by the
        // MPU-6050's 400 µg/√Hz over 44 Hz (0.026 m/s² RMS per axis), repeatably.
        let noisy = Self.simulated.split(separator: "\n").map { $0 == "noise = off" ? "noise = datasheet" : String($0) }.joined(separator: "\n")
        let clean = try run(Self.simulated, seconds: 2), first = try run(noisy, seconds: 2), second = try run(noisy, seconds: 2)
        #expect(first.map(\.value) == second.map(\.value), "seeded: the same run twice")
        var squares = 0.0, count = 0.0
        for (a, b) in zip(clean, first) {
            guard case .acceleration(let exact) = a.value, case .acceleration(let measured) = b.value else { continue }
            for (x, y) in [(exact.x, measured.x), (exact.y, measured.y), (exact.z, measured.z)] {
                squares += (x.doubleValue - y.doubleValue) * (x.doubleValue - y.doubleValue)
                count += 1
            }
        }
        let rms = (squares / count).squareRoot()
        #expect(count == 300 && rms > 0.026 * 0.85 && rms < 0.026 * 1.15, "RMS \(rms) m/s² over \(count) values")
    }

    @Test func aTurnedChipStillReportsTheDevicesMotion() throws {
        // The emulated chip, mounted turned, feels the recording in its own axes; the runtime's
        // mounting turns its readings back into device axes: the same as an unturned chip's.
        let turned = Self.simulated + "\nmount = -y x -z"
        let plain = try run(Self.simulated, seconds: 0.1), mounted = try run(turned, seconds: 0.1)
        #expect(plain.count == 10 && mounted.count == 10)
        #expect(plain.map(\.value) == mounted.map(\.value))
        // What the chip itself measured is in its axes: device (x, y, z) = (−chip y, chip x, −chip z).
        let mapping = try BoardFileParser.parse(turned, path: "t.board").chips[0].mount
        let chip = mapping.chipAxes((1, 2, 3))
        #expect(chip.0 == 2 && chip.1 == -1 && chip.2 == -3)
        let measured = Vector3(x: Q16_16(chip.0), y: Q16_16(chip.1), z: Q16_16(chip.2))
        let back = BoardRuntime.mounted(SensorReading(timestampNanoseconds: 0, value: .acceleration(measured)), mapping)
        #expect(back.value == .acceleration(Vector3(x: Q16_16(1.0), y: Q16_16(2.0), z: Q16_16(3.0))))
    }

    @Test func aBarometerOnTheBoardReportsPressureAndTemperatureOncePerMeasurement() throws {
        let readings = try run("""
            board = sim
            [chip barometer]
            driver = bmp280
            bus = emulated
            address = 0x76
            noise = off
            """, seconds: 1)
        let pressures = readings.compactMap { reading -> Double? in
            if case .pressure(let pressure) = reading.value { return pressure.doubleValue }
            return nil
        }
        // 38 ms per measurement (×2 / ×16 oversampling + 0.5 ms standby): 0, 38, …, 988 ms = 27.
        #expect(pressures.count == 27)
        #expect(pressures.allSatisfy { abs($0 - 101_325) < 0.2 })
    }

    /// The BMP388 measures every 40 ms (25 Hz), the first 19 ms after it is started (its ×8 / ×1
    /// conversion time); read at half that period, each result arrives once: 19, 59, …, 979 ms.
    @Test func aBMP388ReportsEachResultOnce() throws {
        let readings = try run("""
            board = sim
            [chip barometer]
            driver = bmp388
            bus = emulated
            address = 0x77
            noise = off
            """, seconds: 1)
        let pressures = readings.compactMap { reading -> Double? in
            if case .pressure(let pressure) = reading.value { return pressure.doubleValue }
            return nil
        }
        let temperatures = readings.filter { $0.value.channel == .thermometer }
        #expect(pressures.count == 25 && temperatures.count == 25)
        #expect(pressures.allSatisfy { abs($0 - 101_325) < 0.03 })
    }

    @Test func theSimulatedSenseHATDeliversEveryChipAtItsRate() throws {
        let readings = try run(String(decoding: try fileBytes("\(ProjectPaths.root)/boards/sim-sense-hat.board"), as: UTF8.self), seconds: 1)
        func count(_ channel: SensorChannel) -> Int { readings.filter { $0.value.channel == channel }.count }
        // Every measurement made before 1 s: 59.5 Hz accelerometer / gyroscope at k × 16.807 ms
        // (k = 0…59: the last at 991.6 ms), 40 Hz magnetometer, 25 Hz barometer. None is lost
        // (each chip is polled at half its period or faster) and none repeated.
        #expect(count(.accelerometer) == 60 && count(.gyroscope) == 60)
        #expect(count(.magnetometer) == 40)
        #expect(count(.barometer) == 25)
        // The BROAD recording's field (|B| ≈ 43 µT) reaches the emulated magnetometer.
        if case .magneticField(let field) = readings.first(where: { $0.value.channel == .magnetometer })?.value {
            #expect(abs(field.length.doubleValue - 41.5) < 3)
        } else {
            Issue.record("no magnetometer reading")
        }
    }

    /// The GY-271 twins: the QMC5883L (continuous 100 Hz) and the HMC5883L (single
    /// measurements of 6 ms, one per 10 ms at the 5 ms poll) both deliver the recording's field.
    @Test(arguments: ["sim-gy-521-qmc5883l", "sim-gy-521-hmc5883l", "sim-gy-521-lis2mdl", "sim-gy-521-mmc5983ma", "sim-icm-20948", "sim-bno08x"])
    func theGY271TwinsDeliverTheField(name: String) throws {
        let readings = try run(String(decoding: try fileBytes("\(ProjectPaths.root)/boards/\(name).board"), as: UTF8.self), seconds: 1)
        let fields = readings.compactMap { reading -> Double? in
            if case .magneticField(let field) = reading.value { return field.length.doubleValue }
            return nil
        }
        #expect(fields.count >= 95 && fields.count <= 100, "\(name): \(fields.count) magnetometer readings in 1 s")
        #expect(fields.allSatisfy { abs($0 - 41.5) < 4 }, "\(name): the BROAD recording's |B| ≈ 43 µT")
    }

    /// The BNO055 twin: no data-ready line, a sample per 10 ms period (NDOF's 100 Hz, table 3-14)
    /// at the 5 ms poll, and the field with every fifth (20 Hz), the recording's |B|.
    @Test func theBNO055TwinDeliversItsThreeSensorsAtNDOFsRates() throws {
        let readings = try run(String(decoding: try fileBytes("\(ProjectPaths.root)/boards/sim-bno055.board"), as: UTF8.self), seconds: 1)
        var counts: [SensorChannel: Int] = [:]
        for reading in readings { counts[reading.value.channel, default: 0] += 1 }
        #expect((98...101).contains(counts[.accelerometer, default: 0]) && (98...101).contains(counts[.gyroscope, default: 0]), "\(counts)")
        #expect((19...21).contains(counts[.magnetometer, default: 0]), "\(counts)")
        let fields = readings.compactMap { reading -> Double? in
            if case .magneticField(let field) = reading.value { return field.length.doubleValue }
            return nil
        }
        #expect(fields.allSatisfy { abs($0 - 41.5) < 4 }, "the BROAD recording's |B| ≈ 43 µT")
    }

    func fileBytes(_ path: String) throws -> [UInt8] {
        let file = try #require(fopen(path, "r"))
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var byte = fgetc(file)
        while byte != EOF { bytes.append(UInt8(byte)); byte = fgetc(file) }
        return bytes
    }

    @Test func theSenseHATBarometerRunsAt25Hertz() throws {
        let readings = try run("board = sim\n[chip barometer]\ndriver = lps25h\nbus = emulated\naddress = 0x5C\nnoise = off\n", seconds: 1)
        let pressures = readings.compactMap { reading -> Double? in
            if case .pressure(let pressure) = reading.value { return pressure.doubleValue }
            return nil
        }
        #expect(pressures.count == 25)
        #expect(pressures.allSatisfy { abs($0 - 101_325) < 0.025 })  // one count is 0.024 Pa
    }

    @Test func pollsFastEnoughForEveryPolledChip() throws {
        func triggers(_ name: String) throws -> [String] {
            try BoardRuntime(try BoardDescription.load(path: "\(ProjectPaths.root)/boards/\(name).board"), root: ProjectPaths.root)
                .status.map(\.trigger)
        }
        #expect(try triggers("sim-gy-521-bmp280") == ["polled every 10.0 ms", "polled every 38.0 ms"])  // FIFO: 85 frames = 850 ms, at most 10 ms
        #expect(try triggers("sim-gy-521") == ["emulated data-ready pin"])  // INT wired, as on the real GY-521
        // LSM9DS1 at 59.5 Hz: half of 16.807 ms; LPS25H once per 40 ms measurement.
        // Magnetometers at 40 Hz: half of 25 ms, at most 10 ms.
        #expect(try triggers("sim-sense-hat") == ["polled every 8.403361 ms", "polled every 10.0 ms", "polled every 40.0 ms"])
        #expect(try triggers("sim-lsm6dsox-lis3mdl") == ["polled every 4.807692 ms", "polled every 10.0 ms"])  // LSM6DSx at 104 Hz
    }

    @Test func aMissingBusNamesTheChipAndTheFix() {
        #expect {
            _ = try run("board = b\n[chip imu]\ndriver = mpu6050\nbus = i2c-250\naddress = 0x68\n", seconds: 0.1)
        } throws: { error in
            "\(error)".hasPrefix("Chip \"imu\": Could not complete opening the bus on /dev/i2c-250: the bus does not exist.")
        }
    }
}
