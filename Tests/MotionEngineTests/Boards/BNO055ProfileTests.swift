import Chips
import Glibc
@testable import MotionEngine
import Testing
import TestSupport

/// Issue 21: the BNO055 loses its calibration at power-off; the profile it learned is saved in
/// the board's calibration file and written back before the chip starts (BST-BNO055-DS000-14
/// §3.11.4: in CONFIGMODE, registers 0x55…0x6A).
@Suite struct BNO055ProfileTests {
    static let values: [Int16] = [-12, 25, 3, 480, -320, 96, -2, 1, 0, 1000, 737]

    func temporaryPath() -> String {
        var template = Array("/tmp/ocm-bno055-profile-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        close(descriptor)
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        unlink(path)
        return path
    }

    static func board() throws -> BoardDescription {
        try BoardDescription.load(path: "\(ProjectPaths.root)/boards/sim-bno055.board")
    }

    static func emulator(_ runtime: BoardRuntime) throws -> BNO055Emulator {
        try #require(runtime.sessions[0].emulation?.chip as? BNO055Emulator)
    }

    @Test func aProfileLineReadsBackAndBadOnesAreRefused() throws {
        var calibration = BoardCalibration(gyroscopeBias: [0.001, 0, 0])
        calibration.bno055Profiles["imu"] = Self.values
        let path = temporaryPath()
        defer { unlink(path) }
        try calibration.save(path: path, board: "bno055.board")
        #expect(try BoardCalibration.load(path: path) == calibration)
        for (line, problem) in [("bno055-profile = 1 2 3 4 5 6 7 8 9 10 11", "expected \"bno055-profile LABEL = eleven integers"),
                                ("bno055-profile imu = 1 2 3", "expected \"bno055-profile LABEL = eleven integers"),
                                ("bno055-profile imu = 1 2 3 4 5 6 7 8 9 10 0.5", "expected \"bno055-profile LABEL = eleven integers"),
                                ("bno055-profile imu = 0 0 0 0 0 0 0 0 0 1001 0", "outside the BNO055's offset and radius ranges")] {
            let bad = temporaryPath()
            defer { unlink(bad) }
            let file = try #require(fopen(bad, "w"))
            fputs(line + "\n", file)
            fclose(file)
            #expect { _ = try BoardCalibration.load(path: bad) } throws: { "\($0)".contains(problem) }
        }
    }

    @Test func theSaverKeepsTheOtherKeysAndWritesOnlyAChange() throws {
        let path = temporaryPath()
        defer { unlink(path) }
        try BoardCalibration(magnetometerOffset: [40, -25, 10]).save(path: path, board: "bno055.board")
        let saver = ChipProfileSaver(path: path, board: "bno055.board")
        saver.save(label: "imu", values: Self.values)
        saver.save(label: "imu", values: Self.values)
        #expect(saver.saves == 1 && saver.failure == nil)
        let stored = try #require(try BoardCalibration.load(path: path))
        #expect(stored.magnetometerOffset == [40, -25, 10] && stored.bno055Profiles == ["imu": Self.values])
    }

    /// A stored profile reaches the chip before it starts: the emulator holds it (read in
    /// CONFIGMODE, where the datasheet gives it).
    @Test func aStoredProfileIsWrittenBackWhenTheChipStarts() throws {
        var calibration = BoardCalibration()
        calibration.bno055Profiles["imu"] = Self.values
        let runtime = try BoardRuntime(try Self.board().withStoredProfiles(calibration), root: ProjectPaths.root, speed: 0)
        let emulator = try Self.emulator(runtime)
        try emulator.writeRegister(address: 0x28, register: 0x3D, value: 0x00)  // CONFIGMODE
        let bytes = try (0..<22).map { try emulator.readRegister(address: 0x28, register: 0x55 + UInt8($0)) }
        #expect(BNO055CalibrationProfile(bytes: bytes).values == Self.values)
        #expect(try Self.board().withStoredProfiles(nil).chips[0].storedProfile == nil)
    }

    /// Once the chip says it is fully calibrated (CALIB_STAT 0xFF) the runtime takes its profile
    /// once and hands it on with the chip's label; not before.
    @Test func aFullyCalibratedChipsProfileIsHandedOnOnce() throws {
        let runtime = try BoardRuntime(try Self.board(), root: ProjectPaths.root, speed: 0)
        var handed: [(String, [Int16])] = []
        runtime.onChipProfile = { handed.append(($0, $1)) }
        let emulator = try Self.emulator(runtime)
        emulator.calibrationStatus = 0xFC  // SYS, GYR, ACC 3; MAG 0
        try runtime.run(untilNanoseconds: 300_000_000) { _ in }
        #expect(handed.isEmpty)
        emulator.calibrationStatus = 0xFF
        var readings = 0
        try runtime.run(untilNanoseconds: 1_000_000_000) { _ in readings += 1 }
        #expect(handed.count == 1 && handed.first?.0 == "imu" && handed.first?.1 == [Int16](repeating: 0, count: 11))
        #expect(readings > 100 && runtime.status[0].recoveries == 0, "the stream goes on after the 26 ms in CONFIGMODE")
    }
}
