import Chips
import MotionAlgorithms
@testable import MotionEngine
import Testing
import TestSupport

/// The LSM6DSx FIFO families (`lsm6dsx-fifo`, `lsm6dsv16x`: the tagged FIFO; `lsm6ds3-fifo`: the
/// LSM6DS3TR-C's pattern FIFO) in the board runtime: read on the emulated INT1 pin or polled in
/// bursts, a reset mid-stream recovered, an overrun counted as lost samples.
@Suite struct LSM6DSXFIFOBoardTests {
    static func board(_ driver: String, rate: Int, interrupt: Bool) throws -> BoardRuntime {
        let text = """
            board = sim
            [chip imu]
            driver = \(driver)
            bus = emulated
            address = 0x6A
            rate = \(rate)
            motion = Tests/Recordings/uci_hapt_exp01_user01_stand_walk.csv.gz
            \(interrupt ? "interrupt = GPIO17" : "")
            """
        return try BoardRuntime(try BoardFileParser.parse(text, path: "sim.board"), root: ProjectPaths.root, speed: 0)
    }

    /// (driver, rate asked, period of the ODR it gets): 104 Hz on the LSM6DSO map (and the
    /// LSM6DS3's), 120 Hz on the LSM6DSV16X's, truncated to whole ns.
    static let families: [(driver: String, rate: Int, period: Int64)] = [("lsm6dsx-fifo", 104, 9_615_384), ("lsm6dsv16x", 120, 8_333_333),
                                                                         ("lsm6ds3-fifo", 104, 9_615_384)]

    @Test(arguments: families)
    func everySampleArrivesOnItsEdge(family: (driver: String, rate: Int, period: Int64)) throws {
        let runtime = try Self.board(family.driver, rate: family.rate, interrupt: true)
        let times = try DataReadyTests.accelerationTimes(runtime, until: 1_000_000_000)
        let expected = (0..<Int64(999_999_999 / family.period + 1)).map { $0 * family.period }
        #expect(times == expected, "\(family.driver): \(times.prefix(5)) … \(times.count) samples")
        #expect(runtime.status[0].trigger == "emulated data-ready pin")
    }

    @Test(arguments: families)
    func polledInBurstsNothingIsLost(family: (driver: String, rate: Int, period: Int64)) throws {
        let runtime = try Self.board(family.driver, rate: family.rate, interrupt: false)
        let times = try DataReadyTests.accelerationTimes(runtime, until: 1_000_000_000)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 > $0 })
        #expect(times.count >= Int(1_000_000_000 / family.period) - 2, "\(times.count) samples")
        #expect(runtime.status[0].trigger == "polled every 10.0 ms")
        #expect(runtime.status[0].droppedSamples.allSatisfy { $0 == 0 })
    }

    @Test(arguments: families.map(\.driver))
    func aResetMidStreamIsRecoveredWithItsLossCounted(driver: String) throws {
        let runtime = try Self.board(driver, rate: 100, interrupt: true)
        var times = try DataReadyTests.accelerationTimes(runtime, until: 500_000_000)
        let emulator = try #require(runtime.sessions[0].emulation?.chip as? LSM6DSXEmulator)
        emulator.powerOnReset()
        #expect(emulator.nextDataReadyNanoseconds == nil, "a reset chip's pin is silent")
        times += try DataReadyTests.accelerationTimes(runtime, until: 1_000_000_000)
        let status = runtime.status[0]
        #expect(status.recoveries == 1 && status.watchdogReads >= 1, "\(status)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 > $0 })
        #expect(times.filter { $0 > 600_000_000 }.count >= 39)
        // The samples the reset chip never took are counted, not silent.
        #expect(status.droppedSamples[Int(SensorChannel.accelerometer.rawValue)] > 0, "\(status)")
        #expect(emulator.nextDataReadyNanoseconds != nil, "the driver restored the interrupt routing")
    }

    /// (driver, frames its emulated FIFO keeps): the LSM6DSOX's 512 tagged words, the
    /// LSM6DS3TR-C's 2046 pattern words.
    @Test(arguments: [("lsm6dsx-fifo", 256), ("lsm6ds3-fifo", 341)])
    func anOverrunIsCountedAsLostSamples(driver: String, keptFrames: Int) throws {
        // A reader that stalls 600 ms at 833 Hz: 500 frames, more than either FIFO holds.
        let runtime = try Self.board(driver, rate: 833, interrupt: false)
        _ = try DataReadyTests.accelerationTimes(runtime, until: 200_000_000)
        runtime.sessions[0].nextPollNanoseconds = runtime.nowNanoseconds + 600_000_000
        let times = try DataReadyTests.accelerationTimes(runtime, until: 1_000_000_000)
        let status = runtime.status[0]
        #expect(status.overflows == 1, "\(status)")
        let dropped = status.droppedSamples[Int(SensorChannel.accelerometer.rawValue)]
        // 600 ms is 500 frames at 1.2 ms; the FIFO kept the newest: the rest lost, up to a
        // 10 ms poll's worth (8 frames) more from where the stall began.
        let lost = 500 - keptFrames
        #expect((lost - 8...lost + 8 + 2).contains(dropped), "\(driver): \(dropped) dropped")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 > $0 })
    }

    /// Batched sensors: the FIFO switched to its highest rate and back to the board's in place,
    /// no sample lost or repeated, the magnetometer untouched: the LSM6DSV16X's tagged FIFO at
    /// 1920 Hz (CTRL1/CTRL2, FIFO_CTRL3, a bypass flush), the LSM6DS3TR-C's pattern FIFO at
    /// 1666 Hz (CTRL1_XL/CTRL2_G, FIFO_CTRL5 through bypass). Periods: fast, then slow, ns.
    @Test(arguments: [("sim-lsm6dsv16x-lis3mdl", 1920, 120, Int64(520_833), Int64(8_333_333)),
                      ("sim-lsm6ds3trc-lis3mdl", 1666, 104, Int64(600_240), Int64(9_615_384))])
    func onTheHighestRateAndBack(board: String, fastHertz: Int, boardHertz: Int, fast: Int64, slow: Int64) throws {
        let switches = FIFORateSwitchTests()
        let (run, runtime) = try switches.run(board: board + ".board", fastHertz: fastHertz, boardHertz: boardHertz)
        #expect(run.periods == [fast, slow])
        switches.checkAccelerometer(run, slow: slow, fast: fast, board: board)
        #expect(runtime.sampleLoss(.accelerometer) == SampleLoss() && runtime.sampleLoss(.gyroscope) == SampleLoss())
        #expect(runtime.status.allSatisfy { $0.recoveries == 0 && $0.overflows == 0 })
        #expect(HighRateFIFO(board: try BoardDescription.load(path: ProjectPaths.root + "/boards/" + board + ".board"))?.rateHertz == fastHertz)
    }
}
