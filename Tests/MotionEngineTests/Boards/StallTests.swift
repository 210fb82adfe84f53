import Chips
import MotionAlgorithms
@testable import MotionEngine
import SensorBus
import Testing
import TestSupport

/// Chips that fail without a bus error: outputs frozen (the emulators' stuck-output fault) or
/// no data at all. The stream goes on; the runtime counts the episode and says what to do.
@Suite struct StallTests {
    static func board(_ driver: String, address: String) throws -> (BoardRuntime, Warnings) {
        let text = "board = sim\n[chip sensor]\ndriver = \(driver)\nbus = emulated\naddress = \(address)\n"
        let runtime = try BoardRuntime(try BoardFileParser.parse(text, path: "sim.board"), root: ProjectPaths.root, speed: 0)
        let warnings = Warnings()
        runtime.onWarning = { warnings.messages.append($0) }
        return (runtime, warnings)
    }

    final class Warnings { var messages: [String] = [] }

    static let families: [(driver: String, address: String)] = [
        ("mpu6050", "0x68"), ("mpu9250", "0x68"), ("icm20948", "0x68"), ("bno08x", "0x4A"), ("bno055", "0x28"), ("bmi160", "0x68"), ("lsm6dsx", "0x6A"), ("lsm9ds1", "0x6A"),
        ("lsm9ds1-magnetometer", "0x1C"), ("lis3mdl", "0x1C"), ("ak8963", "0x0C"), ("qmc5883l", "0x0D"), ("hmc5883l", "0x1E"),
        ("lis2mdl", "0x1E"), ("mmc5983ma", "0x30"), ("bmp280", "0x76"), ("bmp388", "0x77"), ("lps25h", "0x5C"),
    ]

    @Test(arguments: families)
    func aStuckOutputIsNoticedOnceAndForgottenWhenItMovesAgain(family: (driver: String, address: String)) throws {
        let (runtime, warnings) = try Self.board(family.driver, address: family.address)
        try runtime.run(untilNanoseconds: 500_000_000) { _ in }
        #expect(runtime.status[0].stuckEpisodes == 0, "datasheet noise: a working chip never repeats itself")
        let emulator = try #require(runtime.sessions[0].emulation?.chip)
        emulator.stuckOutput = true
        var readings = 0
        try runtime.run(untilNanoseconds: 3_500_000_000) { _ in readings += 1 }
        #expect(readings > 50, "the stream goes on")
        #expect(runtime.status[0].stuckEpisodes == 1, "\(family.driver): \(runtime.status[0])")
        #expect(warnings.messages.count == 1)
        #expect(warnings.messages.first?.hasPrefix("Chip \"sensor\" (\(family.driver)): its ") == true)
        #expect(warnings.messages.first?.contains("is stuck. Power-cycle the board") == true)
        emulator.stuckOutput = false
        try runtime.run(untilNanoseconds: 4_000_000_000) { _ in }
        #expect(!runtime.sessions[0].stall.isStuck)
        #expect(runtime.status[0].stuckEpisodes == 1 && warnings.messages.count == 1)
    }

    @Test func aChipThatStopsSamplingIsReportedSilent() throws {
        let (runtime, warnings) = try Self.board("lsm6dsx", address: "0x6A")
        try runtime.run(untilNanoseconds: 200_000_000) { _ in }
        // The accelerometer powers down behind the driver's back (CTRL1_XL = 0): its status
        // bits never set again, so every poll finds nothing.
        let bus = try #require(runtime.sessions[0].emulation?.bus)
        try bus.writeRegister(address: 0x6A, register: LSM6DSXRegister.control1Accelerometer, value: 0)
        try runtime.run(untilNanoseconds: 2_000_000_000) { _ in }
        #expect(runtime.status[0].silentEpisodes == 1)
        #expect(warnings.messages.count == 1)
        #expect(warnings.messages.first?.hasPrefix("Chip \"sensor\" (lsm6dsx): no reading for 0.5") == true, "\(warnings.messages)")
    }
}
