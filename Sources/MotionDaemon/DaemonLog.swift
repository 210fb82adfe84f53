internal import Glibc

/// The daemon's log: one line to standard error per event, written at once (journald adds the
/// time and unit).
package enum DaemonLog {
    package static func say(_ message: String) {
        let line = "motiond: \(message)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }
}
