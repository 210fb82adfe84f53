import Chips
import Foundation
import MotionAlgorithms
@testable import MotionEngine
import SensorBus
import Testing
import TestSupport

/// `SystemBoard`'s rule with a temporary configuration folder (never the real /etc) and the
/// chip emulators standing in for the I2C buses.
@Suite struct SystemBoardTests {
    /// A configuration folder of its own, with a board file in it when `configured`.
    private static func configurationFolder(_ name: String, configured: Bool) throws -> String {
        let folder = NSTemporaryDirectory() + "ocm-system-board-\(getpid())-\(name)"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if configured { try "board = configured\n".write(toFile: folder + "/board", atomically: true, encoding: .utf8) }
        return folder
    }

    /// What the emulated buses answer: an MPU-9250 and a BME280 on bus 1.
    private static func imuAndBarometer() throws -> SystemBoard.ProbeOutcome {
        let bus = EmulatedI2CBus()
        bus.attach(MPU6050Emulator(address: 0x68, whoAmI: 0x71), at: 0x68)
        bus.attach(BMP280Emulator(address: 0x76, chipID: 0x60), at: 0x76)
        return .found([BusProbe(bus: 1, findings: try ChipProbe.probe(bus))])
    }

    /// The order: the program's board file, then OPENCOREMOTION_BOARD, then the configuration
    /// file, then the probe; the probe only runs when nothing is configured.
    @Test func resolutionOrderExplicitThenEnvironmentThenConfigurationFileThenProbe() throws {
        let folder = try Self.configurationFolder("order", configured: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let probed = try Self.imuAndBarometer()
        var probes = 0
        let probe = { () -> SystemBoard.ProbeOutcome in probes += 1; return probed }
        func environment(board: String?) -> (String) -> String? {
            { name in
                switch name {
                case SystemBoard.environmentVariable: board
                case SystemBoard.configurationFolderVariable: folder
                default: nil
                }
            }
        }
        let withVariable = environment(board: "/boards/from-environment.board")
        #expect(SystemBoard.choose(explicit: "/boards/explicit.board", environment: withVariable, probe: probe)
                == .file(path: "/boards/explicit.board", namedBy: "the program"))
        #expect(SystemBoard.choose(environment: withVariable, probe: probe)
                == .file(path: "/boards/from-environment.board", namedBy: SystemBoard.environmentVariable))
        #expect(SystemBoard.choose(environment: environment(board: nil), probe: probe)
                == .file(path: folder + "/board", namedBy: folder + "/board"))
        #expect(probes == 0, "configured: no bus is probed")
        try FileManager.default.removeItem(atPath: folder + "/board")
        guard case .probed(let boardFile, let buses) = SystemBoard.choose(environment: environment(board: nil), probe: probe) else {
            Issue.record("nothing configured and an IMU answered: the probed board")
            return
        }
        #expect(probes == 1 && buses == [1])
        let description = try BoardFileParser.parse(boardFile, path: "probed")
        #expect(description.chips.map(\.driver) == ["mpu6050", "bmp280"])
        #expect(description.chips.map(\.bus) == [.i2c(number: 1), .i2c(number: 1)] && description.chips.map(\.address) == [0x68, 0x76])
    }

    /// Without OPENCOREMOTION_CONFIG_DIR the configuration file is /etc's.
    @Test func theConfigurationFileIsEtcUnlessTheFolderIsReplaced() {
        #expect(SystemBoard.configurationFile(environment: { _ in nil }) == "/etc/opencoremotion/board")
        #expect(SystemBoard.configurationFile(environment: { $0 == SystemBoard.configurationFolderVariable ? "/tmp/x" : nil }) == "/tmp/x/board")
    }

    /// Nothing configured and nothing usable: the error says what happened, where, and what to do.
    @Test func unconfiguredErrorsSayWhatToCheckAndHowToConfigure() throws {
        let none: (String) -> String? = { $0 == SystemBoard.configurationFolderVariable ? "/nonexistent/ocm" : nil }
        guard case .unavailable(let noBus) = SystemBoard.choose(environment: none, probe: { .noBuses }) else {
            Issue.record("no bus: unavailable")
            return
        }
        #expect(noBus.contains("/nonexistent/ocm/board") && noBus.contains("no /dev/i2c-*") && noBus.contains("sudo raspi-config"))
        #expect(noBus.contains("motionctl probe --write") && noBus.contains(SystemBoard.environmentVariable), "\(noBus)")

        let bus = EmulatedI2CBus()
        bus.attach(BMP280Emulator(address: 0x76, chipID: 0x58), at: 0x76)
        let barometerOnly = SystemBoard.ProbeOutcome.found([BusProbe(bus: 1, findings: try ChipProbe.probe(bus))])
        guard case .unavailable(let noIMU) = SystemBoard.choose(environment: none, probe: { barometerOnly }) else {
            Issue.record("no IMU: unavailable, never a board without one")
            return
        }
        #expect(noIMU.contains("no IMU answered on i2c-1") && noIMU.contains("only bmp280 answered"), "\(noIMU)")
        #expect(noIMU.contains("check the wiring") && noIMU.contains("sudo raspi-config") && noIMU.contains("`motionctl probe`"), "\(noIMU)")

        guard case .unavailable(let denied) = SystemBoard.choose(environment: none, probe: { .failed(bus: 1, problem: "permission denied") }) else {
            Issue.record("a bus that cannot be read: unavailable")
            return
        }
        #expect(denied.contains("/dev/i2c-1") && denied.contains("permission denied") && denied.contains("group motion"), "\(denied)")
    }

    /// The probed board file of an empty bus says nothing answered, and parses only up to its
    /// missing chips (so `motionctl probe --write` refuses it rather than writing it).
    @Test func aProbeWithoutAnIMUIsNotABoard() throws {
        let empty = [BusProbe(bus: 3, findings: try ChipProbe.probe(EmulatedI2CBus()))]
        #expect(!ProbedBoard.hasIMU(empty))
        #expect(ProbedBoard.boardFile(name: "x", probes: empty).contains("# no known chip answered on /dev/i2c-3"))
    }

    /// A mixed bus (GY-521, LIS2MDL at 0x1E, MMC5983MA at 0x30, BMP390 at 0x77 beside a BME280 at
    /// 0x76): the probed board file names each chip's driver by its identity register and, with
    /// its buses turned into the emulators, streams every sensor at once.
    @Test func aMixedBusProbesIntoABoardThatRuns() throws {
        let bus = EmulatedI2CBus()
        bus.attach(MPU6050Emulator(), at: 0x68)
        bus.attach(LIS2MDLEmulator(), at: 0x1E)
        bus.attach(MMC5983MAEmulator(), at: 0x30)
        bus.attach(BMP280Emulator(address: 0x76, chipID: 0x60), at: 0x76)
        bus.attach(BMP388Emulator(address: 0x77, chipID: 0x60), at: 0x77)
        let probes = [BusProbe(bus: 1, findings: try ChipProbe.probe(bus))]
        #expect(ProbedBoard.hasIMU(probes))
        let text = ProbedBoard.boardFile(name: "probed", probes: probes)
        #expect(text.contains("[chip bmp388_1_77]   # BMP390") && text.contains("[chip lis2mdl_1_1e]   # LIS2MDL"), "\(text)")
        let description = try BoardFileParser.parse(text, path: "probed")
        #expect(description.chips.map(\.driver) == ["lis2mdl", "mmc5983ma", "mpu6050", "bmp280", "bmp388"])
        #expect(description.chips.map(\.address) == [0x1E, 0x30, 0x68, 0x76, 0x77])
        let emulated = try BoardFileParser.parse(text.replacingOccurrences(of: "bus = i2c-1", with: "bus = emulated"), path: "probed")
        let runtime = try BoardRuntime(emulated, root: ProjectPaths.root, speed: 0)
        var channels: [SensorChannel: Int] = [:]
        try runtime.run(untilNanoseconds: 500_000_000) { channels[$0.value.channel, default: 0] += 1 }
        #expect(channels[.accelerometer, default: 0] > 0 && channels[.gyroscope, default: 0] > 0)
        #expect(channels[.magnetometer, default: 0] >= 2 * 45, "two magnetometers at 100 Hz: \(channels)")
        #expect(channels[.barometer, default: 0] >= 12 + 12, "a BME280 (26 Hz) and a BMP390 (25 Hz): \(channels)")
    }

    /// An ICM-20948 at 0x69 beside a BMI160 at 0x68 (the two share the addresses): the probe
    /// names both, the ICM-20948 counts as an IMU, and its one section streams all three sensors
    /// (the field through its I2C master) on the emulators.
    @Test func anICM20948BesideABMI160ProbesIntoABoardThatRuns() throws {
        let bus = EmulatedI2CBus()
        bus.attach(BMI160Emulator(address: 0x68), at: 0x68)
        bus.attach(ICM20948Emulator(address: 0x69), at: 0x69)
        let probes = [BusProbe(bus: 1, findings: try ChipProbe.probe(bus))]
        #expect(ProbedBoard.hasIMU([BusProbe(bus: 1, findings: probes[0].findings.filter { $0.driver == "icm20948" })]))
        let text = ProbedBoard.boardFile(name: "probed", probes: probes)
        #expect(text.contains("[chip icm20948_1_69]   # ICM-20948"), "\(text)")
        let emulated = try BoardFileParser.parse(text.replacingOccurrences(of: "bus = i2c-1", with: "bus = emulated"), path: "probed")
        #expect(emulated.chips.map(\.driver) == ["bmi160", "icm20948"])
        let runtime = try BoardRuntime(emulated, root: ProjectPaths.root, speed: 0)
        var channels: [SensorChannel: Int] = [:]
        try runtime.run(untilNanoseconds: 500_000_000) { channels[$0.value.channel, default: 0] += 1 }
        #expect(channels[.magnetometer, default: 0] >= 45, "the AK09916 at 100 Hz: \(channels)")
        #expect(runtime.status[1].recoveries == 0 && runtime.status[1].loss(.magnetometer) == SampleLoss())
    }

    /// A BNO08x at 0x4A (no identity register: named by its Product ID Response over SHTP)
    /// counts as an IMU, and its probed section streams all three sensors on its emulator.
    @Test func aBNO08XProbesIntoABoardThatRuns() throws {
        let bus = EmulatedI2CBus()
        bus.attach(BNO08XEmulator(address: 0x4A), at: 0x4A)
        bus.attach(BMP280Emulator(address: 0x76), at: 0x76)
        let probes = [BusProbe(bus: 1, findings: try ChipProbe.probe(bus))]
        #expect(probes[0].findings.map(\.driver) == ["bno08x", "bmp280"])
        #expect(ProbedBoard.hasIMU([BusProbe(bus: 1, findings: probes[0].findings.filter { $0.driver == "bno08x" })]))
        let text = ProbedBoard.boardFile(name: "probed", probes: probes)
        #expect(text.contains("[chip bno08x_1_4a]   # BNO08x"), "\(text)")
        let emulated = try BoardFileParser.parse(text.replacingOccurrences(of: "bus = i2c-1", with: "bus = emulated"), path: "probed")
        let runtime = try BoardRuntime(emulated, root: ProjectPaths.root, speed: 0)
        var channels: [SensorChannel: Int] = [:]
        try runtime.run(untilNanoseconds: 500_000_000) { channels[$0.value.channel, default: 0] += 1 }
        #expect(channels[.accelerometer, default: 0] >= 45 && channels[.magnetometer, default: 0] >= 45, "\(channels)")
        #expect(runtime.status[0].recoveries == 0)
    }

    /// A BNO055 at 0x28 beside an MPU-6050 at 0x68: the probe names both, the BNO055 counts as
    /// an IMU, and its one section streams its three sensors on the emulators.
    @Test func aBNO055BesideAnMPU6050ProbesIntoABoardThatRuns() throws {
        let bus = EmulatedI2CBus()
        bus.attach(MPU6050Emulator(address: 0x68), at: 0x68)
        bus.attach(BNO055Emulator(), at: 0x28)
        let probes = [BusProbe(bus: 1, findings: try ChipProbe.probe(bus))]
        #expect(ProbedBoard.hasIMU([BusProbe(bus: 1, findings: probes[0].findings.filter { $0.driver == "bno055" })]))
        let text = ProbedBoard.boardFile(name: "probed", probes: probes)
        #expect(text.contains("[chip bno055_1_28]   # BNO055"), "\(text)")
        let emulated = try BoardFileParser.parse(text.replacingOccurrences(of: "bus = i2c-1", with: "bus = emulated"), path: "probed")
        #expect(emulated.chips.map(\.driver) == ["bno055", "mpu6050"])
        let runtime = try BoardRuntime(emulated, root: ProjectPaths.root, speed: 0)
        var channels: [SensorChannel: Int] = [:]
        try runtime.run(untilNanoseconds: 500_000_000) { channels[$0.value.channel, default: 0] += 1 }
        #expect(channels[.magnetometer, default: 0] >= 9, "the BNO055's field at 20 Hz: \(channels)")
        #expect(runtime.status[0].recoveries == 0 && runtime.status[0].loss(.accelerometer) == SampleLoss())
    }

    /// Installed boards are under the install prefix of the image holding the code (here the
    /// test executable, which links MotionEngine statically), never under a source tree.
    @Test func boardsAreFoundFromTheInstallPrefix() {
        #expect(BoardLocations.imagePath == BoardLocations.executablePath)
        let executableFolder = BoardLocations.parent(of: BoardLocations.executablePath)
        #expect(BoardLocations.boardsFolder == BoardLocations.parent(of: executableFolder) + "/share/opencoremotion/boards")
        #expect(!BoardLocations.boardsFolder.contains("/Sources/"))
        #expect(BoardLocations.dataRoot(forBoardFile: "/usr/share/opencoremotion/boards/sim-walker.board") == "/usr/share/opencoremotion")
        #expect(BoardLocations.dataRoot(forBoardFile: "boards/sim-walker.board") == ".")
        // Then the system's folders, where the Debian packages put them: a Swift app links the
        // library in, so its own prefix holds no boards.
        #expect(BoardLocations.dataFolders == [BoardLocations.dataFolder, "/usr/local/share/opencoremotion", "/usr/share/opencoremotion"])
        #expect(BoardLocations.boardsFolders.first == BoardLocations.boardsFolder)
    }

    /// A simulated board's recording: from the folder above the board's, as given when
    /// absolute, and named from that root when found nowhere (the error says where it looked).
    @Test func aRecordingIsFoundFromTheBoardsDataRoot() {
        let recording = "Tests/Recordings/broad_01_slow_rotation.csv.gz"
        #expect(BoardLocations.motionFile(recording, root: ProjectPaths.root) == ProjectPaths.root + "/" + recording)
        #expect(BoardLocations.motionFile("/elsewhere/walk.csv.gz", root: ProjectPaths.root) == "/elsewhere/walk.csv.gz")
        #expect(BoardLocations.motionFile("nowhere/walk.csv.gz", root: "/nonexistent") == "/nonexistent/nowhere/walk.csv.gz")
    }

    /// Nothing the library or the tools ship finds files through the source tree it was built
    /// in (`#filePath`): tests may (they run in the checkout), Sources/ and tools/ may not.
    @Test func noShippedCodeFindsFilesThroughFilePath() throws {
        var offenders: [String] = []
        for folder in ["Sources", "tools"] {
            let root = ProjectPaths.root + "/" + folder
            let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
            #expect(!files.isEmpty, "\(root) has files")
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
                if text.contains("#file" + "Path") || text.contains("#file" + "ID") { offenders.append(folder + "/" + file) }
            }
        }
        #expect(offenders.isEmpty, "\(offenders)")
    }
}
