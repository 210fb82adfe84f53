import Chips
import MotionAlgorithms
@testable import MotionEngine
import Testing
import TestSupport

/// The BNO08x on a simulated board: its SHTP emulator read through the real driver by the board
/// runtime, on its H_INTN pin or polled.
@Suite struct BNO08XBoardTests {
    static func board(interrupt: Bool = true) throws -> BoardRuntime {
        let text = """
            board = sim
            [chip imu]
            driver = bno08x
            bus = emulated
            address = 0x4A
            rate = 100
            motion = Tests/Recordings/uci_hapt_exp01_user01_stand_walk.csv.gz
            \(interrupt ? "interrupt = GPIO17" : "")
            """
        return try BoardRuntime(try BoardFileParser.parse(text, path: "sim.board"), root: ProjectPaths.root, speed: 0)
    }

    static func times(_ runtime: BoardRuntime, _ channel: SensorChannel, until end: Int64) throws -> [Int64] {
        var times: [Int64] = []
        try runtime.run(untilNanoseconds: end) { if $0.value.channel == channel { times.append($0.timestampNanoseconds) } }
        return times
    }

    /// Each batch is read on its edge (100 µs after its samples) and stamped back to its samples
    /// by the hub's base timestamp: exact multiples of the 10 ms period.
    @Test func everyBatchIsReadOnItsEdgeAndStampedAtItsSamples() throws {
        let runtime = try Self.board()
        let times = try Self.times(runtime, .accelerometer, until: 1_000_000_000)
        #expect(times == (0..<100).map { Int64($0) * 10_000_000 }, "\(times.prefix(4)) … \(times.count)")
        let status = runtime.status[0]
        #expect(status.trigger == "emulated data-ready pin" && status.timestampSource == .dataReadyEdge)
        #expect(status.loss(.accelerometer) == SampleLoss(dropped: 0, duplicated: 0))
        #expect(status.loss(.magnetometer) == SampleLoss(dropped: 0, duplicated: 0))
    }

    @Test func polledItLosesNothing() throws {
        let runtime = try Self.board(interrupt: false)
        let times = try Self.times(runtime, .gyroscope, until: 1_000_000_000)
        #expect(times.count >= 99 && zip(times, times.dropFirst()).allSatisfy { $1 > $0 }, "\(times.count)")
        #expect(runtime.status[0].loss(.gyroscope).dropped == 0)
    }

    /// An unsolicited reset: the hub announces it (its line falls for the announcements), the
    /// driver counts it, enables the reports again, and the stream goes on.
    @Test func aResetMidStreamIsRecoveredWithoutLosingTheStream() throws {
        let runtime = try Self.board()
        var times = try Self.times(runtime, .accelerometer, until: 500_000_000)
        let hub = try #require(runtime.sessions[0].emulation?.chip as? BNO08XEmulator)
        hub.reset()
        times += try Self.times(runtime, .accelerometer, until: 1_000_000_000)
        #expect(runtime.status[0].recoveries == 1, "\(runtime.status[0])")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 > $0 })
        #expect(times.count >= 98, "\(times.count) samples in 1 s")
        #expect(hub.enabledReports.count == 8)
    }
}
