import ArgumentParser
import Chips
import FixedPoint
import Foundation
import Glibc
import MotionAlgorithms
import MotionEngine
import Recordings
import Synchronization

/// `motionctl bench`: every stage of the pipeline on bundled recordings held in memory (no I/O
/// timed), and on a live board with `--board`: ns per sample (median of `--runs`), heap
/// allocations per sample, CPU % of one core at 100, 400 and 1000 Hz, and with `--callgrind`
/// instructions per sample (the figure to compare across machines).
///
/// A sample is one accelerometer sample with the readings that come with it in the recording
/// (BROAD: gyroscope and magnetometer at the same rate; the Oxford walk: the accelerometer
/// alone; UCI: the gyroscope), so the CPU % is that of a board sampling its IMU at that rate.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Time every pipeline stage per sample on bundled recordings (and a live board): ns, allocations, CPU %, instructions.",
        discussion: """
            Stages: decode (a recording row's SI Doubles → fixed-point SensorReading; and a chip's
            little-endian counts → SensorReading, as the ST and BMI160 drivers convert), calibration
            (the stored corrections' per-sample arithmetic, as DeviceMotionEstimator applies it:
            accelerometer scale ⊙ (raw − offset), magnetometer b + S (raw − b)), fusion 6D and 9D
            (DeviceMotionEstimator: every reading fused, every sample's attitude read, as VQF's batch
            gives it; `bench-fusion` also times the whole DeviceMotion per sample), steps (PedometerStage), activity (ActivityStage). Allocations are counted by motionctl's own malloc/calloc/realloc/
            memalign (interposed in the executable; they count, then call glibc's).
            """)

    @Option(help: "Samples per run (default: each stage's whole recording; more repeats it, its time shifted).")
    var samples: Int?

    @Option(help: "Timed runs per stage; the median is reported.")
    var runs: Int = 7

    @Option(help: "Only this stage (\(BenchStageName.allCases.map(\.rawValue).joined(separator: ", "))).")
    var stage: BenchStageName?

    @Option(help: "Also benchmark a live board: capture this board file's readings (--duration s), then run the stages on them.")
    var board: String?

    @Option(help: "With --board: seconds of readings to capture.")
    var duration: Double = 10

    @Option(help: "With --board on a simulated board: playback speed (1: real time, 0: as fast as possible).")
    var speed: Double = 1

    @Flag(help: "Also count instructions per sample per stage under valgrind --tool=callgrind (runs itself once per stage).")
    var callgrind = false

    @Option(help: "Count instructions (as --callgrind) and fail if a stage's per sample exceed this file's budget by more than \(Int(InstructionBudget.tolerancePercent)) % (tools/benchmarks/instruction-budget.txt).")
    var budget: String?

    @Flag(help: "Print nothing (what --callgrind runs under valgrind: one run, no warm-up).")
    var quiet = false

    /// `nothing`: everything as for `--samples`, but the stage is fed nothing (callgrind's
    /// baseline; both words are 7 letters, so that argument parsing costs the same).
    @Option(help: .hidden)
    var feed: BenchFeed = .samples

    func validate() throws {
        if let samples, samples < 1 { throw ValidationError("--samples must be 1 or more, got \(samples)") }
        if budget != nil, let samples {
            throw ValidationError("--budget holds each stage's whole bundled recording to its figure; leave out --samples \(samples)")
        }
        guard runs >= 1 else { throw ValidationError("--runs must be 1 or more, got \(runs)") }
        guard duration > 0 else { throw ValidationError("--duration must be more than 0 s, got \(duration)") }
        guard speed >= 0, speed.isFinite else { throw ValidationError("--speed must be 0 or more, got \(speed)") }
    }

    func run() throws {
        AllocationCounter.install()
        let budget = try self.budget.map { try InstructionBudget(path: $0) }  // a bad file fails before the runs
        let root = BoardLocations.locate("Tests/Recordings") + "/"
        let stages = stage.map { [$0] } ?? BenchStageName.allCases.filter { $0 != .allocating }
        var loaded: [String: Workload] = [:]
        func workload(_ file: String) throws -> Workload {
            if let cached = loaded[file] { return cached }
            let made = try Workload(recording: root + file, samples: samples)
            loaded[file] = made
            return made
        }
        var rows: [BenchRow] = []
        for name in stages {
            let input = try workload(name.recording)
            let measured = measure(name, input, runs: quiet ? 1 : runs, warmUp: !quiet)
            rows.append(BenchRow(stage: name.label, source: input.name, measurement: measured, name: name))
        }
        if quiet { return }
        if let board { rows += try boardRows(board) }
        let counting = callgrind || budget != nil
        if counting { try countInstructions(&rows) }
        print(BenchRow.table(rows, callgrind: counting))
        print("A sample: one accelerometer sample and the readings that come with it (BROAD: + gyr + mag; UCI: + gyr).")
        if rows.contains(where: { $0.source.hasPrefix("board") }) {
            print("board acquire: CPU time per sample while reading the board (bus transfers, the driver's conversion, timestamps; a simulated board's emulators too).")
        }
        if let budget {
            let (report, passed) = budget.check(rows)
            print(report.joined(separator: "\n"))
            if !passed { throw BudgetError(description: "instructions per sample over the budget in \(budget.path) (above).") }
        }
    }

    /// Runs one stage `runs` times over the workload (after one warm-up run).
    private func measure(_ name: BenchStageName, _ full: Workload, runs: Int, warmUp: Bool) -> BenchMeasurement {
        let input = feed == .nothing ? full.nothing : full
        switch name {
        case .decode:
            return BenchMeasurement.of(runs: runs, warmUp: warmUp, samples: input.samples, inputs: input.recorded) { RecordingDecodeStage() }
        case .decodeChip:
            let counts = ChipCounts(full.recorded)
            return BenchMeasurement.of(runs: runs, warmUp: warmUp, samples: input.samples, inputs: input.readings) { ChipDecodeStage(counts) }
        case .calibration:
            return BenchMeasurement.of(runs: runs, warmUp: warmUp, samples: input.samples, inputs: input.readings) { CalibrationStage() }
        case .fusion6D:
            return BenchMeasurement.of(runs: runs, warmUp: warmUp, samples: input.samples, inputs: input.readings) { FusionStage(frame: .xArbitraryZVertical) }
        case .fusion9D:
            return BenchMeasurement.of(runs: runs, warmUp: warmUp, samples: input.samples, inputs: input.readings) { FusionStage(frame: .xMagneticNorthZVertical) }
        case .steps:
            return BenchMeasurement.of(runs: runs, warmUp: warmUp, samples: input.samples, inputs: input.readings) { StepsStage() }
        case .activity:
            return BenchMeasurement.of(runs: runs, warmUp: warmUp, samples: input.samples, inputs: input.readings) { ActivityBenchStage() }
        case .allocating:
            return BenchMeasurement.of(runs: runs, warmUp: warmUp, samples: input.samples, inputs: input.readings) { AllocatingStage() }
        }
    }

    /// Captures `--duration` s of the board's readings (CPU time and allocations counted while
    /// reading), then runs the stages its sensors allow on them.
    private func boardRows(_ path: String) throws -> [BenchRow] {
        let description = try BoardDescription.load(path: path)
        let runtime = try BoardRuntime(description, root: BoardLocations.dataRoot(forBoardFile: path), speed: speed)
        runtime.printWarningsToStandardError()
        var readings: [SensorReading] = []
        readings.reserveCapacity(Int(duration * 4000) + 1024)
        let cpuStart = Self.processCPUNanoseconds(), allocationsStart = AllocationCounter.count
        try runtime.run(untilNanoseconds: Int64(duration * 1e9)) { readings.append($0) }
        let cpu = Self.processCPUNanoseconds() - cpuStart, allocations = AllocationCounter.count - allocationsStart
        let input = Workload(name: "board \(description.name)", readings: readings)
        guard input.samples > 0 else { throw ValidationError("\(path) delivered no accelerometer samples in \(duration) s") }
        var rows = [BenchRow(stage: "acquire", source: input.name,
                             measurement: BenchMeasurement(nanosecondsPerSample: Double(cpu) / Double(input.samples),
                                                           allocationsPerSample: Double(allocations) / Double(input.samples), samples: input.samples),
                             name: nil)]
        let channels = Set(readings.map(\.value.channel))
        var names: [BenchStageName] = [.fusion6D, .steps, .activity]
        if channels.contains(.magnetometer) { names.insert(.fusion9D, at: 1) }
        if !channels.contains(.gyroscope) { names.removeAll { $0 == .fusion6D || $0 == .fusion9D } }
        for name in names {
            rows.append(BenchRow(stage: name.label, source: input.name, measurement: measure(name, input, runs: runs, warmUp: true), name: nil))
        }
        return rows
    }

    static func processCPUNanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// Runs this executable under callgrind per stage, feeding the stage its samples and
    /// (`--feed nothing`) nothing, everything else the same, and
    /// fills in (instructions difference) / samples.
    private func countInstructions(_ rows: inout [BenchRow]) throws {
        let valgrind = ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let valgrind else {
            throw ValidationError("--callgrind needs valgrind (sudo apt-get install valgrind)")
        }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("motionctl-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func instructions(_ name: BenchStageName, baseline: Bool) throws -> Int64 {
            let output = folder.appendingPathComponent("\(name.rawValue)-\(baseline).out").path
            let process = Process()
            process.executableURL = URL(fileURLWithPath: valgrind)
            process.arguments = ["--tool=callgrind", "--callgrind-out-file=\(output)", executable, "bench", "--stage", name.rawValue, "--quiet"]
                + (samples.map { ["--samples", String($0)] } ?? []) + ["--feed", baseline ? "nothing" : "samples"]
            // Swift's per-process random hash seed changes the instructions of start-up's hashing.
            process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_DETERMINISTIC_HASHING": "1"]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0, let text = try? String(contentsOfFile: output, encoding: .utf8),
                  let line = text.split(separator: "\n").first(where: { $0.hasPrefix("totals:") || $0.hasPrefix("summary:") }),
                  let total = line.split(separator: " ").last.flatMap({ Int64($0) })
            else { throw ValidationError("callgrind of stage \(name.rawValue) failed (exit \(process.terminationStatus))") }
            return total
        }
        for index in rows.indices {
            guard let name = rows[index].name else { continue }
            if !quiet { FileHandle.standardError.write("callgrind: \(name.rawValue)…\n".data(using: .utf8)!) }
            let difference = try instructions(name, baseline: false) - instructions(name, baseline: true)
            rows[index].instructionsPerSample = Double(difference) / Double(max(rows[index].measurement.samples, 1))
        }
    }
}

enum BenchFeed: String, ExpressibleByArgument { case samples, nothing }

/// The stages `--stage` names, and the bundled recording each runs on.
enum BenchStageName: String, CaseIterable, ExpressibleByArgument {
    case decode, decodeChip = "decode-chip", calibration, fusion6D = "fusion-6d", fusion9D = "fusion-9d", steps, activity
    /// Allocates one array per reading: shows that the allocation counter sees allocations.
    case allocating

    var recording: String {
        switch self {
        case .decode, .decodeChip, .calibration, .fusion6D, .fusion9D, .allocating: return "broad_01_slow_rotation.csv.gz"
        case .steps: return "oxford_pixel_frontpocket_walk.csv.gz"
        case .activity: return "uci_hapt_exp01_user01_stand_walk.csv.gz"
        }
    }

    var label: String {
        switch self {
        case .decode: return "decode (recording row)"
        case .decodeChip: return "decode (chip counts)"
        case .calibration: return "calibration"
        case .fusion6D: return "fusion 6D"
        case .fusion9D: return "fusion 9D"
        case .steps: return "steps"
        case .activity: return "activity"
        case .allocating: return "allocating (counter check)"
        }
    }
}
