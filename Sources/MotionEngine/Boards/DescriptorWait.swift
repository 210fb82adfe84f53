import Glibc

/// Waits on several file descriptors at once (GPIO data-ready lines' event descriptors) with
/// poll(2), until one is readable or a CLOCK_MONOTONIC deadline passes. The pollfd array is
/// built once: no allocation per wait.
final class DescriptorWait {
    private var descriptors: [pollfd]

    init(_ fileDescriptors: [Int32]) {
        descriptors = fileDescriptors.map { pollfd(fd: $0, events: Int16(POLLIN | POLLPRI), revents: 0) }
    }

    /// The index of a readable descriptor (the first, in order), or nil when the deadline came
    /// first. EINTR waits again for the remaining time; any other failure is returned as errno.
    func wait(untilMonotonic deadline: Int64) -> Result<Int?, POSIXErrno> {
        while true {
            let remaining = deadline - PacedClock.monotonicNanoseconds()
            // Round up to whole milliseconds so a wait never ends just before its deadline.
            let milliseconds = remaining <= 0 ? 0 : Int32(clamping: (remaining + 999_999) / 1_000_000)
            let ready = descriptors.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), milliseconds) }
            if ready < 0 {
                if errno == EINTR { continue }
                return .failure(POSIXErrno(code: errno))
            }
            if ready == 0 { return .success(nil) }
            for index in descriptors.indices where descriptors[index].revents != 0 { return .success(index) }
            return .success(nil)
        }
    }
}

/// An errno value, as a typed error.
struct POSIXErrno: Error {
    var code: Int32
}
