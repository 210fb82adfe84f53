import Glibc

/// The two clocks publishing needs: CLOCK_MONOTONIC for waiting, CLOCK_REALTIME for timestamps
/// a subscriber on another host can compare.
package enum MQTTClock {
    package static func monotonicNanoseconds() -> Int64 { nanoseconds(CLOCK_MONOTONIC) }
    package static func realtimeNanoseconds() -> Int64 { nanoseconds(CLOCK_REALTIME) }
    package static func monotonicSeconds() -> Double { Double(monotonicNanoseconds()) / 1e9 }

    private static func nanoseconds(_ clock: clockid_t) -> Int64 {
        var now = timespec()
        clock_gettime(clock, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
