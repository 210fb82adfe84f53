import Chips
import MotionAlgorithms
@testable import MotionEngine
import Testing
import TestSupport

/// The board runtime driven by data-ready edges (level 0: the emulators' interrupt pins, which
/// follow their registers as the silicon's do).
@Suite struct DataReadyTests {
    static func board(_ driver: String, rate: Int, interrupt: Bool = true) throws -> BoardRuntime {
        let text = """
            board = sim
            [chip imu]
            driver = \(driver)
            bus = emulated
            address = \(driver == "lsm6dsx" ? "0x6A" : "0x68")
            rate = \(rate)
            motion = Tests/Recordings/uci_hapt_exp01_user01_stand_walk.csv.gz
            \(interrupt ? "interrupt = GPIO17" : "")
            """
        return try BoardRuntime(try BoardFileParser.parse(text, path: "sim.board"), root: ProjectPaths.root, speed: 0)
    }

    static func accelerationTimes(_ runtime: BoardRuntime, until end: Int64) throws -> [Int64] {
        var times: [Int64] = []
        try runtime.run(untilNanoseconds: end) { if $0.value.channel == .accelerometer { times.append($0.timestampNanoseconds) } }
        return times
    }

    /// Each family's sample period at the requested rate, from its datasheet's rate table.
    static let families: [(driver: String, rate: Int, period: Int64)] = [
        ("mpu6050", 200, 5_000_000),        // 1 kHz / (1 + SMPLRT_DIV 4)
        ("mpu9250", 1000, 1_000_000),       // SMPLRT_DIV 0
        ("bmi160", 100, 10_000_000),        // ODR field 8
        ("lsm6dsx", 104, 9_615_384),        // 1e12 / 104 000 mHz, truncated
        ("icm20948", 100, 10_000_000),      // 1.1 kHz / (1 + GYRO_SMPLRT_DIV 10)
    ]

    @Test(arguments: families)
    func everySampleIsReadOnItsEdgeAndStampedWithIt(family: (driver: String, rate: Int, period: Int64)) throws {
        let runtime = try Self.board(family.driver, rate: family.rate)
        let times = try Self.accelerationTimes(runtime, until: 1_000_000_000)
        // The emulator samples at k × period from the moment the driver started it (board time
        // 0); every sample before 1 s arrives, stamped with its own edge: exact multiples.
        let expected = (0..<Int64((999_999_999) / family.period + 1)).map { $0 * family.period }
        #expect(times == expected, "\(family.driver): \(times.prefix(5)) … \(times.count) samples")
        let status = runtime.status[0]
        #expect(status.trigger == "emulated data-ready pin")
        #expect(status.edges == expected.count, "\(family.driver): one read per edge, the first one included")
        #expect(status.watchdogReads == 0)
    }

    @Test func aTimerPolledFIFOChipLosesNothingButStampsFramesFromThePoll() throws {
        let runtime = try Self.board("mpu6050", rate: 200, interrupt: false)
        let times = try Self.accelerationTimes(runtime, until: 1_000_000_000)
        // The frame taken at 995 ms waits in the FIFO for the poll at 1 s: 199 before the end.
        #expect(times.count == 199)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 > $0 })
        // Polled every 10 ms: the newest frame of each drain carries the poll's time, not its own.
        #expect(times.filter { $0 % 10_000_000 == 0 }.count == 100)
        #expect(times.filter { $0 % 5_000_000 == 0 }.count == 199)
        #expect(runtime.status[0].trigger == "polled every 10.0 ms")
    }

    @Test(arguments: ["mpu6050", "bmi160", "lsm6dsx", "icm20948"])
    func aChipResetMidStreamSilencesItsLineAndIsRecoveredWithoutLosingTheStream(driver: String) throws {
        let runtime = try Self.board(driver, rate: 100)
        var times = try Self.accelerationTimes(runtime, until: 500_000_000)
        // Power glitch: every register back to its reset value, interrupt routing included.
        let emulator = try #require(runtime.sessions[0].emulation?.chip)
        switch emulator {
        case let chip as MPU6050Emulator: chip.powerOnReset()
        case let chip as BMI160Emulator: chip.powerOnReset()
        case let chip as LSM6DSXEmulator: chip.powerOnReset()
        case let chip as ICM20948Emulator: chip.powerOnReset()  // bank 0, asleep, its I2C master off
        default: Issue.record("unexpected emulator \(type(of: emulator))")
        }
        #expect(emulator.nextDataReadyNanoseconds == nil, "a reset chip's pin is silent")
        times += try Self.accelerationTimes(runtime, until: 1_000_000_000)
        let status = runtime.status[0]
        #expect(status.recoveries == 1, "\(driver): \(status)")
        #expect(status.watchdogReads >= 1, "\(driver): the silent line was noticed")
        // The stream goes on: strictly increasing times, edges again after the recovery, and
        // only the samples the reset chip never took are missing (one watchdog period at most).
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 > $0 })
        let after = times.filter { $0 > 600_000_000 }
        #expect(after.count >= 39, "\(driver): \(after.count) samples in the last 0.4 s")
        #expect(times.count >= 100 - 8, "\(driver): \(times.count) samples in 1 s")
        #expect(emulator.nextDataReadyNanoseconds != nil, "the driver restored the interrupt routing")
    }

    @Test func aLineThatNeverRisesDegradesToPollingWithoutLosingSamples() throws {
        // The LSM9DS1 driver does not route data ready to a pin: a board that names a line for
        // it gets a silent line, which the watchdog notices and replaces with the timer.
        let text = """
            board = sim
            [chip imu]
            driver = lsm9ds1
            bus = emulated
            address = 0x6A
            interrupt = GPIO17
            """
        let runtime = try BoardRuntime(try BoardFileParser.parse(text, path: "sim.board"), root: ProjectPaths.root, speed: 0)
        let times = try Self.accelerationTimes(runtime, until: 1_000_000_000)
        #expect(times.count == 60)  // 59.5 Hz: k × 16.807 ms, k = 0…59
        #expect(runtime.status[0].edges == 0)
        #expect(runtime.status[0].watchdogReads > 100)
    }

    @Test func aRealBoardNamingAMissingLineSaysHowToRunWithoutIt() {
        // This machine has no GPIO line named so (and maybe no gpiochip at all): the error
        // names the chip and the line, and says how to fall back to polling.
        #expect {
            _ = try BoardRuntime(try BoardFileParser.parse("board = b\n[chip imu]\ndriver = mpu6050\nbus = i2c-250\naddress = 0x68\n", path: "b.board"),
                                 root: ProjectPaths.root)
        } throws: { "\($0)".contains("Chip \"imu\"") }
    }
}

/// Bus errors mid-stream: a glitch is ridden out without losing samples, a lasting fault stops
/// the stream with the bus error.
@Suite struct BusGlitchTests {
    @Test(arguments: [true, false])
    func aFewFailedReadsLoseNoFIFOSample(onInterruptLine: Bool) throws {
        let runtime = try DataReadyTests.board("mpu6050", rate: 200, interrupt: onInterruptLine)
        var times = try DataReadyTests.accelerationTimes(runtime, until: 400_000_000)
        let emulator = try #require(runtime.sessions[0].emulation?.bus as? MPU6050Emulator)
        emulator.inject(.inputOutputError(register: nil), count: 3)
        times += try DataReadyTests.accelerationTimes(runtime, until: 1_000_000_000)
        let status = runtime.status[0]
        #expect(status.busErrors == 3, "\(status)")
        #expect(status.lastBusError?.contains("Chip \"imu\"") == true)
        // Every frame taken before the last read arrives once, in order: the FIFO held them.
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 > $0 })
        #expect(times.count == (onInterruptLine ? 200 : 199))
        if onInterruptLine { #expect(times == (0..<200).map { Int64($0) * 5_000_000 }) }
    }

    @Test func aLastingFaultStopsTheStreamWithTheBusError() throws {
        let runtime = try DataReadyTests.board("mpu6050", rate: 200)
        _ = try DataReadyTests.accelerationTimes(runtime, until: 100_000_000)
        let emulator = try #require(runtime.sessions[0].emulation?.bus as? MPU6050Emulator)
        emulator.inject(.noAcknowledge)
        #expect {
            _ = try DataReadyTests.accelerationTimes(runtime, until: 1_000_000_000)
        } throws: { error in
            "\(error)".hasPrefix("Chip \"imu\": ") && "\(error)".contains("0x68")
        }
        #expect(runtime.status[0].busErrors == BoardRuntime.transientFailureLimit - 1)
    }
}
