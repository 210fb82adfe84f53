import Glibc
import MotionDaemonProtocol
import Locking

/// The answer a caller waits for: the reader thread collects it (an accelerometer query comes
/// in several frames) and posts a POSIX semaphore (no Foundation or Dispatch here).
///
/// `@unchecked Sendable`, and why it is safe: `semaphore` is a `let` pointer to a `sem_t`
/// initialised in `init`, destroyed only in `deinit` (no thread holds a reference any more) and
/// never moved; `sem_post`/`sem_timedwait` are thread-safe by POSIX. Everything else is a Mutex.
final class PendingAnswer: @unchecked Sendable {
    private let semaphore: UnsafeMutablePointer<sem_t>
    private let outcome = Lock<(messages: [DaemonMessage], error: DaemonClientError?, done: Bool)>(([], nil, false))

    init() {
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, 0)  // cannot fail: value 0, process-private
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    /// Whether the answer is complete (or failed).
    var isFinished: Bool { outcome.withLock { $0.done } }

    /// Adds a message; `last` ends the answer.
    func take(_ message: DaemonMessage, last: Bool) {
        let finished = outcome.withLock { outcome -> Bool in
            guard !outcome.done else { return false }
            outcome.messages.append(message)
            outcome.done = last
            return last
        }
        if finished { sem_post(semaphore) }
    }

    func fail(_ error: DaemonClientError) {
        let finished = outcome.withLock { outcome -> Bool in
            guard !outcome.done else { return false }
            (outcome.error, outcome.done) = (error, true)
            return true
        }
        if finished { sem_post(semaphore) }
    }

    /// The answer's messages, or its error; `timedOut` after `seconds`.
    func wait(seconds: Double) throws(DaemonClientError) -> [DaemonMessage] {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let total = Int64(now.tv_nsec) + Int64(seconds * 1e9)
        var deadline = timespec(tv_sec: now.tv_sec + Int(total / 1_000_000_000), tv_nsec: Int(total % 1_000_000_000))
        while sem_timedwait(semaphore, &deadline) != 0 {
            if errno == EINTR { continue }
            throw DaemonClientError(.timedOut, "motiond did not answer within \(Int(seconds)) s", advice: "Is it overloaded or stopped? (motionctl status)")
        }
        let result = outcome.withLock { $0 }
        if let error = result.error { throw error }
        return result.messages
    }
}
