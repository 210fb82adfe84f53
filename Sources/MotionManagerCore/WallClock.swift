import Glibc
package import Synchronization

/// Converts between the engine's clock (CLOCK_MONOTONIC, ns: what samples and the pedometer's
/// history are stamped with) and the wall clock (CLOCK_REALTIME, ns since 1970: Core Motion's
/// dates, `Date`, and the C API's `_unix_ns` fields), at the offset between the two now. The
/// engine keeps the monotonic clock because the wall clock can jump (NTP, the user); a jump
/// moves the dates of what was counted before it, not the counts.
package enum WallClock {
    /// CLOCK_REALTIME − CLOCK_MONOTONIC now, ns (with `simulatedStepNanoseconds`).
    package static var offsetNanoseconds: Int64 {
        nanoseconds(CLOCK_REALTIME) &+ simulatedStepNanoseconds.load(ordering: .relaxed) - nanoseconds(CLOCK_MONOTONIC)
    }

    /// A step of the wall clock as this process sees it, ns: 0, except in motiond's clock test
    /// (`motiond --wall-clock-step-file`, MotionDaemonTests' WallClockStepTests). Stepping the
    /// real CLOCK_REALTIME would need root and move every process on the machine; this moves
    /// every wall-clock reading of this process that goes through `WallClock`, and nothing else.
    package static let simulatedStepNanoseconds = Atomic<Int64>(0)

    /// Now on the engine's clock, ns.
    package static var engineNanoseconds: Int64 { nanoseconds(CLOCK_MONOTONIC) }

    /// The engine time (ns) of the wall-clock time `unixNanoseconds`.
    package static func engineTime(unixNanoseconds: Int64) -> Int64 { saturating(unixNanoseconds, -offsetNanoseconds) }

    /// The wall-clock time (ns since 1970) of the engine time `engineNanoseconds`.
    package static func unixTime(engineNanoseconds: Int64) -> Int64 { saturating(engineNanoseconds, offsetNanoseconds) }

    /// a + b, held at the ends of Int64 (a date like `.distantPast` must not wrap).
    private static func saturating(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : sum
    }

    private static func nanoseconds(_ clock: clockid_t) -> Int64 {
        var now = timespec()
        clock_gettime(clock, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
