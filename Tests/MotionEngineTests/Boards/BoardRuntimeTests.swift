import FixedPoint
import Glibc
import MotionAlgorithms
@testable import MotionEngine
import Recordings
import Testing
import TestSupport

@Suite struct BoardRuntimeTests {
    /// Runs a board for `seconds` of board time in 10 ms polls; returns every reading.
    func run(_ text: String, seconds: Double) throws -> [SensorReading] {
        let board = try BoardFileParser.parse(text, path: "test.board")
        let runtime = try BoardRuntime(board, root: ProjectPaths.root)
        var readings: [SensorReading] = []
        var now: Int64 = 0
        while Double(now) / 1e9 < seconds {
            _ = try runtime.poll(nowNanoseconds: now) { readings.append($0) }
            now += 10_000_000
        }
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

    @Test func theMountingIsApplied() throws {
        let flipped = Self.simulated + "\nmount = -y x -z"
        let plain = try run(Self.simulated, seconds: 0.1), turned = try run(flipped, seconds: 0.1)
        guard case .acceleration(let a) = plain[0].value, case .acceleration(let b) = turned[0].value else {
            Issue.record("first readings are accelerations"); return
        }
        #expect(b.x == -a.y && b.y == a.x && b.z == -a.z)
    }

    @Test func aBarometerOnTheBoardReportsPressureAndTemperatureOncePerMeasurement() throws {
        let readings = try run("""
            board = sim
            [chip barometer]
            driver = bmp280
            bus = emulated
            address = 0x76
            """, seconds: 1)
        let pressures = readings.compactMap { reading -> Double? in
            if case .pressure(let pressure) = reading.value { return pressure.doubleValue }
            return nil
        }
        // 38 ms per measurement (×2 / ×16 oversampling + 0.5 ms standby): 0, 38, …, 988 ms = 27.
        #expect(pressures.count == 27)
        #expect(pressures.allSatisfy { abs($0 - 101_325) < 0.2 })
    }

    @Test func theSimulatedSenseHATDeliversEveryChipAtItsRate() throws {
        let readings = try run(String(decoding: try fileBytes("\(ProjectPaths.root)/boards/sim-sense-hat.board"), as: UTF8.self), seconds: 1)
        func count(_ channel: SensorChannel) -> Int { readings.filter { $0.value.channel == channel }.count }
        // Polls at 0, 10, …, 990 ms see every measurement made by then: 59.5 Hz accelerometer /
        // gyroscope at k × 16.8 ms (k = 0…58), 40 Hz magnetometer, 25 Hz barometer. None is lost
        // (each poll interval is shorter than every period) and none repeated.
        #expect(count(.accelerometer) == 59 && count(.gyroscope) == 59)
        #expect(count(.magnetometer) == 40)
        #expect(count(.barometer) == 25)
        // The BROAD recording's field (|B| ≈ 43 µT) reaches the emulated magnetometer.
        if case .magneticField(let field) = readings.first(where: { $0.value.channel == .magnetometer })?.value {
            #expect(abs(field.length.doubleValue - 41.5) < 3)
        } else {
            Issue.record("no magnetometer reading")
        }
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
        let readings = try run("board = sim\n[chip barometer]\ndriver = lps25h\nbus = emulated\naddress = 0x5C\n", seconds: 1)
        let pressures = readings.compactMap { reading -> Double? in
            if case .pressure(let pressure) = reading.value { return pressure.doubleValue }
            return nil
        }
        #expect(pressures.count == 25)
        #expect(pressures.allSatisfy { abs($0 - 101_325) < 0.025 })  // one count is 0.024 Pa
    }

    @Test func pollsFastEnoughForEveryPolledChip() throws {
        func interval(_ name: String) throws -> Int64 {
            try BoardRuntime(try BoardDescription.load(path: "\(ProjectPaths.root)/boards/\(name).board"), root: ProjectPaths.root)
                .pollIntervalNanoseconds
        }
        #expect(try interval("sim-gy-521") == 10_000_000)           // FIFO only
        #expect(try interval("sim-sense-hat") == 8_403_361)         // LSM9DS1 at 59.5 Hz: half of 16.807 ms
        #expect(try interval("sim-lsm6dsox-lis3mdl") == 4_807_692)  // LSM6DSx at 104 Hz
    }

    @Test func aMissingBusNamesTheChipAndTheFix() {
        #expect {
            _ = try run("board = b\n[chip imu]\ndriver = mpu6050\nbus = i2c-250\naddress = 0x68\n", seconds: 0.1)
        } throws: { error in
            "\(error)".hasPrefix("Chip \"imu\": Could not complete opening the bus on /dev/i2c-250: the bus does not exist.")
        }
    }
}
