import ArgumentParser
import Foundation
import Glibc
import MotionAlgorithms
import MotionEngine
import MotionManagerCore

/// `motionctl bench-batched`: batched sensors (`CMBatchedSensorManager`'s core) at full rate on
/// each simulated board with a FIFO IMU, for `--seconds` of real time: accelerometer batches at
/// the FIFO's highest rate and device-motion batches at 200 Hz at once, read by a consumer that
/// checks every timestamp step. Prints per board the samples delivered, the drops (queue full,
/// FIFO gaps, FIFO overflows), timestamp steps that are not the FIFO period, the consumer's
/// latest batch latency, and the process's CPU (getrusage: user + system over wall time, % of
/// one core), beside the same board's baseline: one 100 Hz accelerometer stream.
struct BenchBatched: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-batched",
        abstract: "Batched sensors at full rate per simulated board: samples, drops, timestamp steps, CPU % (getrusage).")

    /// The simulated boards whose IMU has a FIFO driver.
    static let simulatedFIFOBoards = ["sim-gy-521.board", "sim-mpu-9250.board", "sim-gy-521-bmp280.board",
                                      "sim-bmi160-bmp280.board", "sim-walker.board"]

    @Option(help: "A board file (repeatable; default: every simulated board with a FIFO IMU).")
    var board: [String] = []

    @Option(help: "Seconds of real time per board and per run (batched, then the baseline).")
    var seconds: Double = 10

    @Flag(help: "Skip the baseline run (one 100 Hz accelerometer stream).")
    var noBaseline = false

    func validate() throws {
        guard seconds >= 2, seconds.isFinite else { throw ValidationError("--seconds must be 2 or more, got \(seconds)") }
    }

    func run() throws {
        var lines = [["board", "run", "accel Hz", "accel samples", "DM samples", "queue drops", "FIFO drops", "overflows",
                      "off-period steps", "max latency ms", "CPU % user", "CPU % sys", "CPU % total"]]
        for path in board.isEmpty ? Self.simulatedFIFOBoards : board {
            let core = BatchedCore(board: path)
            guard core.isSupported else {
                throw ValidationError("\(core.summary): \(core.boardError?.message ?? "no IMU read through a hardware FIFO (MPU-6050 family, BMI160)")")
            }
            let name = String(core.boardPath.split(separator: "/").last ?? "")
            lines.append(try batchedRun(core, name: name))
            if !noBaseline { lines.append(try baselineRun(path, name: name)) }
        }
        let widths = lines[0].indices.map { column in lines.map { $0[column].count }.max()! }
        for line in lines {
            print(line.enumerated().map { column, cell in
                column == 0 || column == 1 ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  "))
        }
        print("CPU %: the whole process (engine thread, emulators, fusion, consumer) over wall time, of one core.")
        print("Latency: wall clock at the pop minus the batch's newest sample time (a batch spans 1 s, so ≥ 0).")
        print("Off-period steps: timestamps not one FIFO period apart; a simulated board starting its recording over (BROAD 20 s,")
        print("Oxford 40 s) makes one per stream at the loop, with no sample lost (drops would show in the drop columns).")
    }

    /// Accelerometer + device-motion batches for `seconds`, popped every 20 ms.
    private func batchedRun(_ core: BatchedCore, name: String) throws -> [String] {
        let usageBefore = ResourceUsage.now()
        let accelerometer = try core.startAccelerometer()
        let motion = try core.startDeviceMotion()
        var accelerometerSteps = StepCheck(period: 1_000_000_000 / Int64(core.accelerometerFrequency))
        var motionSteps = StepCheck(period: 1_000_000_000 / Int64(core.deviceMotionFrequency))
        let end = PacedClock.monotonicNanoseconds() + Int64(seconds * 1e9)
        var latency: Int64 = 0
        while PacedClock.monotonicNanoseconds() < end {
            while case .batch(let batch) = accelerometer.queue.pop(orWake: nil) {
                for reading in batch { accelerometerSteps.observe(reading.timestampNanoseconds) }
                latency = max(latency, PacedClock.monotonicNanoseconds() - (batch.last?.timestampNanoseconds ?? 0))
            }
            while case .batch(let batch) = motion.queue.pop(orWake: nil) {
                for sample in batch { motionSteps.observe(sample.timestampNanoseconds) }
            }
            var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
            nanosleep(&pause, nil)
        }
        core.stopAccelerometer()
        core.stopDeviceMotion()
        let usage = ResourceUsage.now().since(usageBefore)
        return [name, "batched", String(core.accelerometerFrequency), String(accelerometer.deliveredSamples), String(motion.deliveredSamples),
                String(accelerometer.queueDroppedSamples + motion.queueDroppedSamples),
                String(accelerometer.fifoDroppedSamples + motion.fifoDroppedSamples), String(accelerometer.fifoOverflows),
                String(accelerometerSteps.offPeriod + motionSteps.offPeriod), String(format: "%.1f", Double(latency) / 1e6)] + usage.percentages
    }

    /// What the board costs without batches: one 100 Hz accelerometer stream.
    private func baselineRun(_ path: String, name: String) throws -> [String] {
        let manager = ManagerCore(board: path)
        let usageBefore = ResourceUsage.now()
        try manager.start(.accelerometer, deliver: nil)
        var pause = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var remaining = timespec()
        while nanosleep(&pause, &remaining) != 0 { pause = remaining }
        manager.stop(.accelerometer)
        let usage = ResourceUsage.now().since(usageBefore)
        return [name, "baseline 100 Hz stream", "100", "-", "-", "-", "-", "-", "-", "-"] + usage.percentages
    }
}

/// Consecutive timestamps that are not exactly one period apart.
private struct StepCheck {
    let period: Int64
    var last: Int64?
    var offPeriod = 0

    mutating func observe(_ time: Int64) {
        if let last, time - last != period { offPeriod += 1 }
        last = time
    }
}

/// The process's CPU time (getrusage) and the wall clock.
private struct ResourceUsage {
    var userNanoseconds: Int64
    var systemNanoseconds: Int64
    var wallNanoseconds: Int64

    static func now() -> ResourceUsage {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func nanoseconds(_ time: timeval) -> Int64 { Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_usec) * 1000 }
        return ResourceUsage(userNanoseconds: nanoseconds(usage.ru_utime), systemNanoseconds: nanoseconds(usage.ru_stime),
                             wallNanoseconds: PacedClock.monotonicNanoseconds())
    }

    func since(_ start: ResourceUsage) -> ResourceUsage {
        ResourceUsage(userNanoseconds: userNanoseconds - start.userNanoseconds, systemNanoseconds: systemNanoseconds - start.systemNanoseconds,
                      wallNanoseconds: wallNanoseconds - start.wallNanoseconds)
    }

    /// User, system and total as % of one core, two decimals.
    var percentages: [String] {
        let wall = Double(max(1, wallNanoseconds))
        return [userNanoseconds, systemNanoseconds, userNanoseconds + systemNanoseconds].map { String(format: "%.2f", Double($0) / wall * 100) }
    }
}
