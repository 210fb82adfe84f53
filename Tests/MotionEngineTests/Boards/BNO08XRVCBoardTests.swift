import Chips
import Glibc
import FixedPoint
import MotionAlgorithms
@testable import MotionEngine
import Testing
import TestSupport

/// The BNO08x's UART-RVC route: `bus = serial:/dev/TTY` or emulated, `driver = bno08x-rvc`;
/// the emulated hub read through the board runtime against the synthetic motion's truth.
@Suite struct BNO08XRVCBoardTests {
    static func parse(_ chip: String) throws(BoardError) -> BoardDescription {
        try BoardFileParser.parse("board = rvc\n[chip imu]\ndriver = bno08x-rvc\n" + chip, path: "rvc.board")
    }

    static func runtime(mount: String = "x y z") throws -> BoardRuntime {
        let board = try parse("bus = emulated\nmount = \(mount)\nmotion = synthetic:tumble\nnoise = off\nchip-fusion = on\n")
        return try BoardRuntime(board, root: ProjectPaths.root, speed: 0)
    }

    @Test func aSerialBusNamesItsDevice() throws {
        let chip = try Self.parse("bus = serial:/dev/ttyAMA0\nchip-fusion = on\n").chips[0]
        #expect(chip.bus == .serial(device: "/dev/ttyAMA0") && chip.address == 0 && chip.chipFusion)
        #expect(try Self.parse("bus = emulated\n").channels == [.accelerometer], "no gyroscope, no field in UART-RVC")
    }

    @Test(arguments: [
        ("bus = i2c-1\n", "rvc.board:4: driver \"bno08x-rvc\" streams over a UART: its bus is serial:/dev/TTY or emulated"),
        ("bus = serial:/dev/ttyAMA0\naddress = 0x4A\n", "rvc.board:5: \"address\" does not apply to bno08x-rvc: a chip on a UART has no address"),
        ("bus = serial:/dev/ttyAMA0\ninterrupt = GPIO17\n", "rvc.board:5: \"interrupt\" does not apply to bno08x-rvc: a chip on a UART has no data-ready line"),
        ("bus = emulated\nrate = 200\n", "rvc.board:5: \"rate\" does not apply to bno08x-rvc: UART-RVC frames come at a fixed 100 Hz"),
        ("bus = serial:ttyAMA0\n", "rvc.board:4: bus \"serial:ttyAMA0\" is not \"i2c-N\", \"emulated\", \"iio\" or \"serial:/dev/TTY\""),
    ])
    func aBoardFileThatCannotWorkSaysWhereAndWhy(chip: String, message: String) {
        let error = #expect(throws: BoardError.self) { _ = try Self.parse(chip) }
        #expect(error?.description.hasPrefix(message) == true, "\(String(describing: error))")
    }

    @Test func anI2CChipOnASerialBusIsRefused() {
        let error = #expect(throws: BoardError.self) {
            _ = try BoardFileParser.parse("board = b\n[chip imu]\ndriver = mpu6050\nbus = serial:/dev/ttyS0\naddress = 0x68\n", path: "b.board")
        }
        #expect(error?.description == "b.board:4: driver \"mpu6050\" does not stream over a UART. A serial bus takes bno08x-rvc; other chips sit on i2c-N, iio or emulated.")
    }

    /// A tty that is not there fails the runtime's start with the device, the chip and the fix.
    @Test func aMissingTTYStopsTheStartWithWhatToDo() throws {
        let board = try Self.parse("bus = serial:/dev/ttyOCM-none\n")
        let error = #expect(throws: EngineError.self) { _ = try BoardRuntime(board, root: ProjectPaths.root, speed: 0) }
        let text = String(describing: error.map { "\($0)" } ?? "")
        #expect(text.contains("imu") && text.contains("Serial port /dev/ttyOCM-none: no such device") && text.contains("enable_uart=1"), "\(text)")
    }

    /// Tumbling for 3 s, the chip mounted turned (−y x z): every frame gives one accelerometer
    /// reading within the frame's 1 mg rounding of the truth, and one attitude within its
    /// 0.01° rounding (three angles, each within 0.005°) of the true attitude, in device axes.
    @Test(arguments: ["x y z", "-y x z", "x -y -z"])
    func readingsAndAttitudesMatchTheTruthWithinTheFramesRounding(mount: String) throws {
        let runtime = try Self.runtime(mount: mount)
        var accelerations: [SensorReading] = []
        var attitudes: [ChipFusionReading] = []
        runtime.onChipFusion = { attitudes.append($0) }
        try runtime.run(untilNanoseconds: 3_000_000_000) { accelerations.append($0) }
        #expect(accelerations.count == 300 && attitudes.count == 300, "\(accelerations.count), \(attitudes.count)")
        #expect(runtime.status[0].chipFusionReadings == 300 && runtime.status[0].loss(.accelerometer).dropped == 0)
        let truth = SyntheticTumble()
        var worstAcceleration = 0.0, worstAngle = 0.0
        for (reading, attitude) in zip(accelerations, attitudes) {
            #expect(reading.timestampNanoseconds == attitude.timestampNanoseconds)
            truth.advance(to: reading.timestampNanoseconds)
            guard case .acceleration(let a) = reading.value else { Issue.record("not an acceleration"); return }
            let t = truth.acceleration
            worstAcceleration = max(worstAcceleration, abs(a.x.doubleValue - t.0), abs(a.y.doubleValue - t.1), abs(a.z.doubleValue - t.2))
            let q = try #require(truth.attitude)
            let p = attitude.attitude
            let dot = abs(q.w * p.w.doubleValue + q.x * p.x.doubleValue + q.y * p.y.doubleValue + q.z * p.z.doubleValue)
            worstAngle = max(worstAngle, 2 * acos(min(1, dot)) * 180 / .pi)
        }
        // Half of 1 mg, and a Q16.16 LSB.
        #expect(worstAcceleration <= 0.0005 * 9.80665 + 2.0 / 65536, "\(worstAcceleration) m/s²")
        // Three rotations each off by at most 0.005°, plus the Q2.30 and half-angle roundings.
        #expect(worstAngle <= 0.016, "\(worstAngle)°")
        #expect(worstAngle > 0, "the frames really are rounded")
    }

    /// The line goes quiet: the runtime's silence warning names the UART and what to check, the
    /// frames lost while it was quiet are counted when it comes back.
    @Test func aStalledLineIsReportedAndItsLostFramesCounted() throws {
        let runtime = try Self.runtime()
        var warnings: [String] = []
        runtime.onWarning = { warnings.append($0) }
        try runtime.run(untilNanoseconds: 500_000_000) { _ in }
        let hub = try #require(runtime.sessions[0].emulation?.chip as? BNO08XRVCEmulator)
        hub.stalled = true
        try runtime.run(untilNanoseconds: 2_000_000_000) { _ in }
        #expect(runtime.status[0].silentEpisodes == 1)
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("Chip \"imu\" (bno08x-rvc): no reading for 0.") == true, "\(warnings)")
        #expect(warnings.first?.contains("no UART-RVC frame arrived on emulated UART") == true, "\(warnings)")
        hub.stalled = false
        var after = 0
        try runtime.run(untilNanoseconds: 2_500_000_000) { _ in after += 1 }
        #expect(after >= 49, "\(after)")
        func counter(_ name: String) -> Int? { runtime.status[0].driverCounters.first { $0.name == name }?.count }
        #expect(counter("frames lost") == 150, "\(runtime.status[0].driverCounters)")
        #expect(runtime.status[0].loss(.accelerometer).dropped == 150, "the timing sees the gap too")
    }

    /// Garbage and a bad checksum on the line: counted by the driver, the stream goes on.
    @Test func lineFaultsReachTheStatusCounters() throws {
        let runtime = try Self.runtime()
        let hub = try #require(runtime.sessions[0].emulation?.chip as? BNO08XRVCEmulator)
        try runtime.run(untilNanoseconds: 200_000_000) { _ in }
        hub.inject(.garbage([0x55, 0xAA, 0x01]))
        hub.inject(.corruptedChecksum)
        var readings = 0
        try runtime.run(untilNanoseconds: 400_000_000) { _ in readings += 1 }
        func counter(_ name: String) -> Int? { runtime.status[0].driverCounters.first { $0.name == name }?.count }
        #expect(readings == 19, "\(readings)")
        #expect(counter("frames lost") == 1 && counter("checksum errors") == 1 && (counter("bytes discarded") ?? 0) >= 3 + 19,
                "\(runtime.status[0].driverCounters)")
    }
}
