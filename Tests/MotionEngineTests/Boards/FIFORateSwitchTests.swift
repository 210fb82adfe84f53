import MotionAlgorithms
@testable import MotionEngine
import TestSupport
import Testing

/// A board's FIFO IMU switched to its highest rate and back in place (`setFIFORate`), on
/// simulated boards in virtual time: one runtime, one time origin, the other chips untouched,
/// and the timing contract kept across both switches (no sample lost or repeated).
@Suite struct FIFORateSwitchTests {
    /// One second at the board's rate, one at `fastHertz`, one back; returns the IMU's
    /// accelerometer stamps, the other chips' stamps (by channel) and the switch times.
    struct Run {
        var accelerometer: [Int64] = []
        var others: [SensorChannel: [Int64]] = [:]
        var switches: [Int64] = []
        var periods: [Int64?] = []
    }

    func run(board name: String, fastHertz: Int, boardHertz: Int) throws -> (Run, BoardRuntime) {
        let description = try BoardDescription.load(path: ProjectPaths.root + "/boards/" + name)
        let runtime = try BoardRuntime(description, root: ProjectPaths.root, speed: 0)
        var run = Run()
        let collect = { (reading: SensorReading) in
            if case .acceleration = reading.value {
                run.accelerometer.append(reading.timestampNanoseconds)
            } else {
                run.others[reading.value.channel, default: []].append(reading.timestampNanoseconds)
            }
        }
        try runtime.run(untilNanoseconds: 1_000_000_000, deliver: collect)
        run.switches.append(runtime.nowNanoseconds)
        let fast = try runtime.setFIFORate(label: "imu", hertz: fastHertz, dataReady: false, deliver: collect)
        run.periods.append(fast)
        try runtime.run(untilNanoseconds: 2_000_000_000, deliver: collect)
        run.switches.append(runtime.nowNanoseconds)
        let back = try runtime.setFIFORate(label: "imu", hertz: boardHertz, dataReady: true, deliver: collect)
        run.periods.append(back)
        try runtime.run(untilNanoseconds: 3_000_000_000, deliver: collect)
        return (run, runtime)
    }

    /// The accelerometer's intervals: exact at each rate, the one spanning each switch within
    /// the sum of the two periods; timestamps never go back.
    func checkAccelerometer(_ run: Run, slow: Int64, fast: Int64, board: String) {
        let stamps = run.accelerometer
        let intervals = zip(stamps.dropFirst(), stamps).map { $0 - $1 }
        #expect(intervals.allSatisfy { $0 > 0 }, "\(board): a timestamp went back")
        guard let up = stamps.firstIndex(where: { $0 > run.switches[0] }), let down = stamps.firstIndex(where: { $0 > run.switches[1] }),
              up > 1, down > up + 1, stamps.count > down + 1 else {
            Issue.record("\(board): \(stamps.count) stamps, switches at \(run.switches)")
            return
        }
        #expect(intervals[..<(up - 1)].allSatisfy { $0 == slow }, "\(board): before \(Set(intervals[..<(up - 1)]))")
        #expect(intervals[up..<(down - 1)].allSatisfy { $0 == fast }, "\(board): fast \(Set(intervals[up..<(down - 1)]))")
        #expect(intervals[down...].allSatisfy { $0 == slow }, "\(board): after \(Set(intervals[down...]))")
        let spanning = (intervals[up - 1], intervals[down - 1])
        #expect(spanning.0 <= slow + fast && spanning.1 <= slow + fast, "\(board): \(spanning)")
        print("\(board): accelerometer interval across the switch up \(Double(spanning.0) / 1e6) ms, back \(Double(spanning.1) / 1e6) ms; "
              + "\(up) samples before, \(down - up) fast, \(stamps.count - down) after")
    }

    @Test func mpu6050On1KilohertzAndBackKeepsItsTimingAndItsLine() throws {
        let (run, runtime) = try run(board: "sim-gy-521.board", fastHertz: 1000, boardHertz: 100)
        #expect(run.periods == [1_000_000, 10_000_000])
        checkAccelerometer(run, slow: 10_000_000, fast: 1_000_000, board: "sim-gy-521")
        #expect(runtime.sampleLoss(.accelerometer) == SampleLoss() && runtime.sampleLoss(.gyroscope) == SampleLoss())
        let status = try #require(runtime.status.first)
        #expect(status.recoveries == 0 && status.overflows == 0 && status.watchdogReads == 0)
        // Back on its data-ready pin after the switch back.
        #expect(status.trigger == "emulated data-ready pin" && status.samplePeriodNanoseconds == 10_000_000)
    }

    @Test func bmi160On1600HertzAndBackLeavesTheBarometerAlone() throws {
        let (run, runtime) = try run(board: "sim-bmi160-bmp280.board", fastHertz: 1600, boardHertz: 100)
        #expect(run.periods == [625_000, 10_000_000])
        checkAccelerometer(run, slow: 10_000_000, fast: 625_000, board: "sim-bmi160-bmp280")
        #expect(runtime.sampleLoss(.accelerometer) == SampleLoss() && runtime.sampleLoss(.gyroscope) == SampleLoss())
        // The barometer went on at its own period, untouched, through both switches.
        let pressure = try #require(run.others[.barometer])
        let intervals = zip(pressure.dropFirst(), pressure).map { $0 - $1 }
        let before = pressure.firstIndex { $0 > run.switches[0] } ?? 0
        #expect(before > 5 && Set(intervals) == Set(intervals[..<(before - 1)]), "\(Set(intervals))")
        #expect(pressure.count >= 3 * before - 3, "the barometer went on at its rate: \(pressure.count) in 3 s, \(before) in the first")
        #expect(runtime.status.allSatisfy { $0.recoveries == 0 && $0.overflows == 0 })
        #expect(runtime.sampleLoss(.barometer) == SampleLoss())
    }

    @Test func anUnknownOrPolledChipIsLeftAsItIs() throws {
        let description = try BoardDescription.load(path: ProjectPaths.root + "/boards/sim-bmi160-bmp280.board")
        let runtime = try BoardRuntime(description, root: ProjectPaths.root, speed: 0)
        #expect(try runtime.setFIFORate(label: "barometer", hertz: 1000, dataReady: false) { _ in } == nil)
        #expect(try runtime.setFIFORate(label: "nothing", hertz: 1000, dataReady: false) { _ in } == nil)
    }
}
