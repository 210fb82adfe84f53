import Glibc
package import Synchronization

/// Converts between the engine's clock (CLOCK_MONOTONIC, ns: what samples and the pedometer's
/// history are stamped with) and the wall clock (CLOCK_REALTIME, ns since 1970: Core Motion's
/// dates, `Date`, and the C API's `_unix_ns` fields), at the offset between the two now. The
/// engine keeps the monotonic clock because the wall clock can jump (NTP, the user); a jump
/// moves the dates of what was counted before it, not the counts.
package enum WallClock {
    /// CLOCK_REALTIME − CLOCK_MONOTONIC now, ns (with `simulatedStepNanoseconds`), held steady:
    /// the value last returned stays while a new measurement is within 1 ms of it.
    ///
    /// Why steady: a time goes wall → engine → wall (a `from:` date sent to motiond and back, a
    /// wire time turned into a `Date`) through two readings of this offset, and a thread
    /// preempted between its two clock readings measured the offset off by however long it
    /// waited: under load (or a sanitizer) a pedometer's `startDate` came back a few µs from the
    /// date it was given. Held, the round trip is exact; a real step (NTP, `date -s`) is far
    /// over 1 ms and is followed at once, and NTP's slewing moves it 1 ms at a time.
    package static var offsetNanoseconds: Int64 {
        let measured = measuredOffset() &+ simulatedStepNanoseconds.load(ordering: .relaxed)
        let held = heldOffset.load(ordering: .relaxed)
        if held != .min, abs(measured &- held) < 1_000_000 { return held }
        // Two threads storing at once store measurements within the tolerance of each other.
        heldOffset.store(measured, ordering: .relaxed)
        return measured
    }

    /// The offset `offsetNanoseconds` returned last (.min: none yet).
    private static let heldOffset = Atomic<Int64>(.min)

    /// CLOCK_REALTIME − CLOCK_MONOTONIC from the tightest of up to 3 tries of (monotonic,
    /// real, monotonic): the real reading is set against the middle of the monotonic pair, so
    /// a preemption inside a try shows as a wide pair and that try is not used.
    private static func measuredOffset() -> Int64 {
        var best = (spread: Int64.max, offset: Int64(0))
        for _ in 0..<3 {
            let before = nanoseconds(CLOCK_MONOTONIC)
            let real = nanoseconds(CLOCK_REALTIME)
            let after = nanoseconds(CLOCK_MONOTONIC)
            if after - before < best.spread { best = (after - before, real - (before + (after - before) / 2)) }
            if best.spread < 20_000 { break }
        }
        return best.offset
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
