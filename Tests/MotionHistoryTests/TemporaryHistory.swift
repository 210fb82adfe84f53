import Foundation
import MotionHistory

/// A fresh history folder under the system's temporary folder, removed by `remove()`.
struct TemporaryHistory {
    let path: String

    init(_ name: String) {
        path = NSTemporaryDirectory() + "motion-history-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// The store with its reports collected instead of printed.
    func open(_ reports: ReportLog = ReportLog(), configure: (inout HistoryConfiguration) -> Void = { _ in }) throws -> HistoryStore {
        var configuration = HistoryConfiguration()
        configuration.report = { reports.add($0) }
        configure(&configuration)
        return try HistoryStore(directory: path, configuration: configuration)
    }

    /// Bytes of every file in the folder, recursively.
    var size: Int {
        guard let files = FileManager.default.enumerator(atPath: path) else { return 0 }
        var total = 0
        for case let file as String in files {
            total += (try? FileManager.default.attributesOfItem(atPath: "\(path)/\(file)")[.size] as? Int) ?? 0
        }
        return total
    }

    /// The segment files of one kind, oldest first.
    func segments(_ kind: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "\(path)/\(kind)")) ?? []).sorted().map { "\(path)/\(kind)/\($0)" }
    }
}

/// The store's reports, collected (the store calls `add` from its owner's thread only).
final class ReportLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
