import Foundation
import MotionDaemon
import MotionDaemonProtocol
import Testing

/// A real `motiond` (the binary SwiftPM builds beside this test bundle) on a temporary socket
/// and history folder, with the simulated walker board unless told otherwise.
final class DaemonProcess: @unchecked Sendable {
    let folder: String
    let socket: String
    let history: String
    let policy: String
    let board: String
    /// More motiond options (limits, deadlines).
    let options: [String]
    private(set) var process: Process?
    /// What motiond wrote to standard error, all runs (a new pipe each run: Process closes
    /// the parent's copy of the write end).
    private var logPipe = Pipe()
    private let logLock = NSLock()
    private var logText = ""

    /// A program motiond runs under (e.g. prlimit and its options, ending in --).
    let wrapper: [String]

    init(_ name: String, board: String = "sim-walker.board", policy: String = "", options: [String] = [], wrapper: [String] = []) throws {
        self.options = options
        self.wrapper = wrapper
        folder = "/tmp/motiond-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        chmod(folder, 0o755)  // a test connects as another user too
        socket = "\(folder)/motiond.sock"
        history = "\(folder)/history"
        self.policy = "\(folder)/policy"
        self.board = board
        try policy.write(toFile: self.policy, atomically: true, encoding: .utf8)
    }

    deinit {
        logPipe.fileHandleForReading.readabilityHandler = nil
    }

    var log: String { logLock.withLock { logText } }

    static func binary(_ name: String) -> String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        // swift-testing may run from inside the .xctest bundle's folder.
        while !FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent(name).path), folder.path != "/" {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent(name).path
    }

    /// Starts motiond and waits until its socket answers (at most `timeout` s: a guard against
    /// a hang, not a bound on start-up time, which a loaded machine or a sanitizer stretches).
    func start(timeout: Double = 60) throws {
        logPipe.fileHandleForReading.readabilityHandler = nil
        logPipe = Pipe()
        logPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.logLock.withLock { self.logText += String(decoding: data, as: UTF8.self) }
        }
        let process = Process()
        let arguments = [Self.binary("motiond"), "--board", board, "--history", history, "--socket", socket, "--policy", policy] + options
        process.executableURL = URL(fileURLWithPath: wrapper.first ?? arguments[0])
        process.arguments = Array((wrapper + arguments).dropFirst())
        process.standardError = logPipe
        process.standardOutput = logPipe
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if !process.isRunning { throw DaemonTestError("motiond exited with \(process.terminationStatus) at start: \(log)") }
            if (try? DaemonLink(path: socket, name: "start probe")) != nil { return }
            usleep(50_000)
        }
        throw DaemonTestError("motiond did not answer on \(socket) within \(timeout) s: \(log)")
    }

    /// SIGTERM (or `signal`) and wait; the exit status.
    @discardableResult
    func stop(signal: Int32 = SIGTERM) -> Int32 {
        guard let process, process.isRunning else { return process?.terminationStatus ?? -1 }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process.terminationStatus
    }

    var isRunning: Bool { process?.isRunning ?? false }

    /// Descriptors the daemon holds now (/proc/PID/fd).
    var openDescriptors: Int {
        guard let process else { return 0 }
        return (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/fd").count) ?? 0
    }

    /// CPU time the daemon used so far (user + system), s.
    var processorSeconds: Double {
        guard let process, let text = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              let end = text.lastIndex(of: ")") else { return 0 }
        // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
        let fields = text[text.index(after: end)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Sockets the daemon holds now (its listener, its clients' connections): unlike all its
    /// descriptors, not changed by the history opening a new segment file meanwhile.
    var openSockets: Int {
        guard let process else { return 0 }
        let folder = "/proc/\(process.processIdentifier)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { ((try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)")) ?? "").hasPrefix("socket:") }.count
    }

    /// The daemon's resident memory now, bytes (VmRSS in /proc/PID/status).
    var residentBytes: Int {
        guard let process, let text = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") else { return 0 }
        return kilobytes * 1024
    }

    func connect(_ name: String) throws -> DaemonLink {
        let link = try DaemonLink(path: socket, name: name)
        // A minute without a frame is a hang; anything shorter would be a latency bound, and
        // those belong in benchmarks (docs/timing.md).
        link.setReceiveTimeout(60)
        return link
    }

    func remove() {
        stop(signal: SIGKILL)
        try? FileManager.default.removeItem(atPath: folder)
    }
}

struct DaemonTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension DaemonLink {
    /// Subscribes and waits for the `ok`.
    func subscribe(_ stream: WireStream, interval: Double, from: Double = 0) throws {
        _ = try ask { .subscribe(request: $0, stream: stream, interval: interval, from: from, frame: 0) }
    }

    /// Every accelerometer query answer for [from, to), all parts.
    func accelerometer(from: Double, to: Double) throws -> [RecordedSample] {
        let request = try send { .queryAccelerometer(request: $0, from: from, to: to) }
        var samples: [RecordedSample] = []
        while true {
            switch try receive() {
            case .accelerometerData(let number, let isLast, let part) where number == request:
                samples += part
                if isLast { return samples }
            case .error(let number, _, let message, let advice) where number == request:
                throw DaemonError(message, advice: advice)
            default: continue
            }
        }
    }

    func pedometer(from: Double, to: Double) throws -> PedometerSample {
        guard case .pedometerData(_, let data) = try ask({ .queryPedometer(request: $0, from: from, to: to) }) else {
            throw DaemonTestError("no pedometer data")
        }
        return data
    }

    func activity(from: Double, to: Double) throws -> [ActivitySample] {
        guard case .activityRecords(_, let records) = try ask({ .queryActivity(request: $0, from: from, to: to) }) else {
            throw DaemonTestError("no activity records")
        }
        return records
    }
}

var wallSeconds: Double { Date().timeIntervalSince1970 }

/// Runs a program to its end: its exit status and its standard output and error together.
func runProgram(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
}
