internal import Glibc

/// A history store failure, for people: what happened, to which file, and what to do.
public struct HistoryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file or folder concerned.
    public var path: String
    public var problem: String
    public var advice: String

    public init(path: String, problem: String, advice: String) {
        self.path = path
        self.problem = problem
        self.advice = advice
    }

    public var description: String { "\(path): \(problem). \(advice)" }

    /// A failed system call on `path`, with advice for the errno's usual cause.
    static func system(_ operation: String, path: String, errno code: Int32) -> HistoryError {
        let reason = String(cString: strerror(code))
        let advice: String
        switch code {
        case ENOSPC, EDQUOT:
            advice = "The disk is full: free some space (the history needs about 100 MB per board), then restart."
        case EACCES, EPERM:
            advice = "The user running this needs read and write access to the history folder (for motiond: its user, group motion)."
        case EROFS:
            advice = "The file system is read-only: put the history folder on a writable one."
        case EIO:
            advice = "The storage reported an I/O error: check the SD card or disk (dmesg), then restart."
        default:
            advice = "Check the history folder and its file system, then restart."
        }
        return HistoryError(path: path, problem: "\(operation) failed: \(reason)", advice: advice)
    }
}
