internal import Glibc
import Synchronization

/// Wakes the daemon's poll loop from other threads (the engine's sinks, the history thread,
/// the signal thread): a non-blocking pipe the loop polls, written only when no wake is already
/// pending, so a burst of samples costs one write.
package final class Wakeup: Sendable {
    /// The end the loop polls.
    package let descriptor: Int32
    private let writeEnd: Int32
    private let pending = Atomic<Bool>(false)

    package init() throws(DaemonError) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw DaemonError("pipe failed: \(String(cString: strerror(errno)))", advice: "The system is out of file descriptors: raise the limit (LimitNOFILE) or close some.")
        }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        (descriptor, writeEnd) = (ends[0], ends[1])
    }

    deinit {
        close(descriptor)
        close(writeEnd)
    }

    /// Asks the loop to flush the outboxes.
    package func signal() {
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var one: UInt8 = 1
        _ = write(writeEnd, &one, 1)
    }

    /// The loop took the wake: later signals wake it again. Call before flushing. The pipe is
    /// drained before the flag is cleared: the other way round, a signal between the two would
    /// leave the flag set with its byte drained, and no signal would ever wake the loop again.
    package func reset() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(descriptor, &bytes, bytes.count) > 0 {}
        pending.store(false, ordering: .releasing)
    }
}
