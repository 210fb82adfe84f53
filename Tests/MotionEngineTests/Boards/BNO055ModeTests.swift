import Chips
import MotionAlgorithms
@testable import MotionEngine
import Testing
import TestSupport

/// A board file chooses the BNO055's operation mode (`mode = ndof | amg`): the chip comes up
/// in it, as its emulator's OPR_MODE register shows (BST-BNO055-DS000-14 table 3-5: AMG 0x07,
/// NDOF 0x0C), and the engine gets its three sensors either way.
@Suite struct BNO055ModeTests {
    static func runtime(mode: String?) throws -> BoardRuntime {
        let text = """
            board = sim
            [chip imu]
            driver = bno055
            bus = emulated
            address = 0x28
            \(mode.map { "mode = \($0)" } ?? "")
            """
        return try BoardRuntime(try BoardFileParser.parse(text, path: "sim.board"), root: ProjectPaths.root, speed: 0)
    }

    @Test(arguments: [("amg", UInt8(0x07)), (nil, UInt8(0x0C)), ("ndof", UInt8(0x0C))])
    func theChipComesUpInTheModeTheBoardFileChose(mode: String?, operationMode: UInt8) throws {
        let runtime = try Self.runtime(mode: mode)
        #expect(runtime.sessions[0].chip.mode == mode.flatMap { BoardDescription.OperatingMode(rawValue: $0) })
        var channels = Set<SensorChannel>()
        try runtime.run(untilNanoseconds: 500_000_000) { reading in channels.insert(reading.value.channel) }
        let emulator = try #require(runtime.sessions[0].emulation?.chip as? BNO055Emulator)
        #expect(try emulator.readRegister(address: 0x28, register: BNO055Register.operationMode) & 0x0F == operationMode)
        #expect(channels.isSuperset(of: [.accelerometer, .gyroscope, .magnetometer]), "\(channels)")
    }
}
