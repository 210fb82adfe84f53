import Foundation
import MotionDaemonClient
import Locking
import Testing

/// The real `motiond` (built beside this test bundle) on a temporary socket, history folder and
/// policy file, with the simulated walker (BMI160 + BMP280): stands 2 s, walks 18 steps in
/// 10 s, stands 6 s, and again.
final class Motiond: @unchecked Sendable {
    let folder: String
    let socket: String
    let board: String
    private(set) var process: Process?
    /// motiond's standard output and error, all runs.
    var logPath: String { "\(folder)/motiond.log" }
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// More motiond options (limits, deadlines).
    let options: [String]

    init(_ name: String, board: String = "sim-walker.board", policy: String = "", options: [String] = []) throws {
        self.options = options
        folder = "/tmp/ocm-client-\(name)-\(getpid())-\(UInt16.random(in: 0...UInt16.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        socket = "\(folder)/motiond.sock"
        self.board = board
        try policy.write(toFile: "\(folder)/policy", atomically: true, encoding: .utf8)
    }

    /// The folder holding this test bundle's executables (swift-testing may run from inside the bundle).
    static var productsFolder: URL {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        while !FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("motiond").path), folder.path != "/" {
            folder = folder.deletingLastPathComponent()
        }
        return folder
    }

    /// Starts motiond and returns once its socket answers a client (at most 20 s).
    func start() throws {
        let process = Process()
        process.executableURL = Self.productsFolder.appendingPathComponent("motiond")
        process.arguments = ["--board", board, "--history", "\(folder)/history", "--socket", socket, "--policy", "\(folder)/policy"] + options
        if !FileManager.default.fileExists(atPath: logPath) { _ = FileManager.default.createFile(atPath: logPath, contents: nil) }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        log.seekToEndOfFile()
        process.standardError = log
        process.standardOutput = log
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            guard process.isRunning else { throw ClientTestError("motiond exited with \(process.terminationStatus) at start: \(log)") }
            if let probe = try? DaemonClient(path: socket, name: "start probe") {
                probe.close()
                return
            }
            usleep(20_000)
        }
        throw ClientTestError("motiond did not answer on \(socket) within 20 s: \(log)")
    }

    /// Stops motiond with `signal` and waits for it.
    func stop(signal: Int32 = SIGTERM) {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
    }

    func remove() {
        stop(signal: SIGKILL)
        try? FileManager.default.removeItem(atPath: folder)
    }
}

struct ClientTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Waits until `condition` holds; whether it did. The deadline, `seconds` but never under 60 s,
/// is for a real hang only: a loaded machine makes the wait longer, never fails it (how soon
/// something happens is a timing claim for the benchmarks, not for these tests).
func eventually(within seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + .seconds(max(seconds, 60))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

/// A thread-safe list the handlers append to.
final class Collected<Item: Sendable>: Sendable {
    private let items = Lock<[Item]>([])
    func append(_ item: Item) { items.withLock { $0.append(item) } }
    var all: [Item] { items.withLock { $0 } }
    var count: Int { items.withLock { $0.count } }
}
