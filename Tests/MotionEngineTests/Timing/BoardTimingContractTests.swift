import Chips
import Foundation
import MotionAlgorithms
@testable import MotionEngine
import Testing
import TestSupport

/// Issue 11's timing contract on every simulated board (boards/sim-*.board), from a cold start
/// in real time, at 100, 400 and 1000 Hz asked of the inertial chip (each driver takes the
/// nearest rate its chip has: MPU-6050/9250 500 Hz for 400; BMI160 800 Hz for 1000; LSM6DSx 104,
/// 416, 833 Hz; LSM6DSV16X (its tagged FIFO) 120, 480, 960 Hz; LSM9DS1 119, 476, 952 Hz; ICM-20948 100, 1100, 1100 Hz, its field 100 Hz with
/// every 11th sample at 1.1 kHz; BNO08x 100, 400, 400 Hz, its field at most 100 Hz; BNO055 100 Hz whatever is asked, its field
/// 20 Hz (NDOF); the BNO08x in UART-RVC mode 100 Hz whatever is asked, its accelerometer its one stream;
/// magnetometers and barometers keep their own rates).
/// The bounds are the contract's own (CDD 7.3), checked against each stream's actual period;
/// simulated boards run on virtual time paced to the wall clock, so timestamps are exact.
/// Only the clauses that hold whatever the machine's load are asserted, on the samples'
/// timestamps: strictly increasing, from the sample, jitter under 3 %, the chip's rate, none
/// lost. The wall-clock clauses (first sample within 400 ms + 2 periods, delivery within 100 ms
/// + 2 periods) depend on how busy the machine is (a CI run under load broke the delivery
/// bound): `motionctl timing --board FILE --rate HZ` measures and judges them (docs/timing.md).
/// Then the faults: lost samples counted as drops and reported, none silent.
@Suite(.blocking) struct BoardTimingContractTests {
    static let boards = ["sim-bmi160-bmp280", "sim-gy-521-bmp280", "sim-gy-521", "sim-lsm6dsox-lis3mdl", "sim-mpu-9250",
                         "sim-sense-hat", "sim-walker", "sim-ms5837", "sim-gy-521-qmc5883l", "sim-gy-521-hmc5883l",
                         "sim-gy-521-lis2mdl", "sim-gy-521-mmc5983ma", "sim-gy-521-bmp388", "sim-icm-20948", "sim-bno08x", "sim-bno055",
                         "sim-lsm6dsv16x-lis3mdl", "sim-lsm6ds3trc-lis3mdl", "sim-bno08x-rvc"]
    static let rates = [100, 400, 1000]

    static func description(_ board: String, rate: Int? = nil) throws -> BoardDescription {
        let description = try BoardDescription.load(path: "\(ProjectPaths.root)/boards/\(board).board")
        return rate.map { BoardTiming.withInertialRate(description, hertz: $0) } ?? description
    }

    @Test func everySimulatedBoardIsCovered() throws {
        let shipped = try FileManager.default.contentsOfDirectory(atPath: "\(ProjectPaths.root)/boards").filter { $0.hasPrefix("sim-") && $0.hasSuffix(".board") }
        #expect(Set(shipped.map { String($0.dropLast(6)) }) == Set(Self.boards))
    }

    @Test(arguments: boards, rates)
    func everyStreamKeepsTheContract(board: String, rate: Int) throws {
        let streams = try BoardTiming.measure(try Self.description(board, rate: rate), root: ProjectPaths.root, seconds: 0.75)
        #expect(streams.count >= (board == "sim-bno08x-rvc" ? 1 : 2), "UART-RVC has its accelerometer only")
        for stream in streams {
            let m = stream.measurement
            let name = "\(board) @\(rate) Hz \(stream.channel)"
            #expect(stream.violations(latency: false).isEmpty, "\(name): \(stream.violations(latency: false))")
            // Each clause on its own, so a failure names it. Latencies only as a clock-domain
            // check (delivery and timestamps both on CLOCK_MONOTONIC): within a minute, which
            // only a hang or a timestamp on another clock exceeds.
            #expect(try #require(m.firstSampleLatencyNanoseconds) < 60_000_000_000, "\(name)")
            #expect(try #require(m.maximumDeliveryLatencyNanoseconds) < 60_000_000_000, "\(name)")
            #expect(m.nonIncreasingTimestamps == 0, "\(name)")
            #expect(stream.chip.timestampSource != .read, "\(name)")
            #expect(try #require(m.jitter) < TimingContract.jitterBound, "\(name)")
            #expect(m.loss == SampleLoss() && stream.reported == SampleLoss(), "\(name): \(m.loss), reported \(stream.reported)")
            // The stream runs at its chip's rate: the mean interval is the period (±1 %), and
            // 0.75 s holds every sample of it but those a polled FIFO still holds at the end
            // (polled every 10 ms at most).
            let period = stream.contract.samplePeriodNanoseconds
            #expect(abs(try #require(m.meanIntervalNanoseconds) - period) <= period / 100, "\(name)")
            #expect(Int64(m.sampleCount) >= (750_000_000 - 10_000_000) / period - 2, "\(name): \(m.sampleCount) samples")
        }
    }

    /// The inertial stream of a run.
    static func inertial(_ streams: [StreamTiming]) throws -> StreamTiming {
        try #require(streams.first { $0.channel == .accelerometer })
    }

    @Test(arguments: ["sim-gy-521-bmp280", "sim-bmi160-bmp280"])
    func aFIFOOverflowIsCountedAsDropsAndReported(board: String) throws {
        // A reader that stalls 300 ms at 200 ms: the 1 kHz (BMI160: 800 Hz) FIFO holds 85 frames
        // (85 / 106 ms), overflows; the driver flushes it, so the stall's samples are lost.
        let stall: Int64 = 300_000_000
        let streams = try BoardTiming.measure(try Self.description(board, rate: 1000), root: ProjectPaths.root, seconds: 1, speed: 0,
                                              interruptAtNanoseconds: 200_000_000) { runtime in
            let session = runtime.sessions[0]
            session.nextPollNanoseconds = runtime.nowNanoseconds + stall
        }
        let stream = try Self.inertial(streams)
        let period = stream.contract.samplePeriodNanoseconds
        #expect(stream.chip.overflows >= 1)
        #expect(stream.reported == stream.measurement.loss, "every loss reported: \(stream.reported) vs \(stream.measurement.loss)")
        // The stall's samples, from the last read before it (polls are 10 ms apart at most).
        #expect((stall / period - 2...(stall + 10_000_000) / period + 2).contains(Int64(stream.reported.dropped)),
                "\(stream.reported.dropped) dropped")
        #expect(stream.reported.duplicated == 0 && stream.measurement.nonIncreasingTimestamps == 0)
        #expect(try #require(stream.measurement.jitter) < TimingContract.jitterBound)
    }

    /// A board whose LSM6DSx (one sample in its output registers, no FIFO in use) or MPU-6050
    /// (FIFO) signals data ready on its emulated pin.
    static func pinBoard(_ driver: String) throws -> BoardDescription {
        try BoardFileParser.parse("""
            board = sim
            [chip imu]
            driver = \(driver)
            bus = emulated
            address = \(driver == "lsm6dsx" ? "0x6A" : "0x68")
            rate = 104
            interrupt = GPIO17
            motion = Tests/Recordings/uci_hapt_exp01_user01_stand_walk.csv.gz
            """, path: "sim.board")
    }

    /// Runs the chip through its next `edges` data-ready edges with no read: the edges the
    /// runtime missed.
    static func skipEdges(_ edges: Int, _ runtime: BoardRuntime) {
        guard let emulation = runtime.sessions[0].emulation else {
            Issue.record("not emulated")
            return
        }
        for _ in 0..<edges {
            guard let edge = emulation.chip.nextDataReadyNanoseconds else {
                Issue.record("no edge due")
                return
            }
            emulation.advance(edge)
        }
    }

    @Test func skippedEdgesOfARegisterChipAreCountedAsDropsAndReported() throws {
        let streams = try BoardTiming.measure(try Self.pinBoard("lsm6dsx"), root: ProjectPaths.root, seconds: 1, speed: 0,
                                              interruptAtNanoseconds: 300_000_000) { Self.skipEdges(3, $0) }
        // Its output registers hold the newest sample: the three the runtime missed are lost,
        // and the next edge's stamp shows the gap.
        let stream = try Self.inertial(streams)
        #expect(stream.reported == SampleLoss(dropped: 3, duplicated: 0))
        #expect(stream.measurement.loss == stream.reported)
        #expect(stream.violations(latency: false).isEmpty, "\(stream.violations(latency: false))")
    }

    @Test func skippedEdgesOfAFIFOChipLoseNothing() throws {
        let streams = try BoardTiming.measure(try Self.pinBoard("mpu6050"), root: ProjectPaths.root, seconds: 1, speed: 0,
                                              interruptAtNanoseconds: 300_000_000) { Self.skipEdges(3, $0) }
        // The FIFO kept the three frames; the next edge's read takes them, back-dated.
        let stream = try Self.inertial(streams)
        #expect(stream.reported == SampleLoss() && stream.measurement.loss == SampleLoss())
        #expect(stream.measurement.sampleCount == 1_000_000_000 / Int(stream.contract.samplePeriodNanoseconds) + 1)
    }

    @Test func aLatePollOfARegisterChipIsCountedAsDropsAndReported() throws {
        // The Sense HAT's LSM9DS1 at 119 Hz is polled every 4.2 ms; a 50 ms stall loses the
        // samples its output registers could not hold: of the 5 or 6 taken meanwhile, all but the newest.
        let streams = try BoardTiming.measure(try Self.description("sim-sense-hat", rate: 100), root: ProjectPaths.root, seconds: 1,
                                              speed: 0, interruptAtNanoseconds: 300_000_000) { runtime in
            runtime.sessions[0].nextPollNanoseconds = runtime.nowNanoseconds + 50_000_000
        }
        let stream = try Self.inertial(streams)
        #expect((4...5).contains(stream.reported.dropped), "\(stream.reported)")
        #expect(stream.measurement.loss == stream.reported)
        #expect(stream.measurement.nonIncreasingTimestamps == 0)
    }
}
