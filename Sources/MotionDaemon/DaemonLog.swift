internal import Glibc

/// The daemon's log: one line to standard error per event, written at once (journald adds the
/// time and unit). A line that repeats (a full disk failing every commit, a flood of refused
/// connections) is written once and then summarized (`RepeatedLineLimiter`).
package enum DaemonLog {
    package static let lines = RepeatedLineLimiter { line in
        let text = "motiond: \(line)\n"
        _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }

    package static func say(_ message: String) { lines.say(message) }
}
