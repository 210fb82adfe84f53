import Glibc

/// Sleeping the calling thread, for a chip's fixed waits (a PROM reload after a reset) where
/// the datasheet gives a time and the chip offers no status to poll.
public enum ThreadSleep {
    /// Sleeps `nanoseconds` (nanosleep, resumed after a signal).
    public static func sleep(nanoseconds: Int64) {
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
