import MotionManagerCore

/// The daemon's one conversion between the engine's clock (CLOCK_MONOTONIC, ns: every reading's
/// stamp) and the wire's and the history's (CLOCK_REALTIME): the offset between the two is read
/// once when the daemon starts and used for everything it sends or stores until it exits.
///
/// Why fixed: a wall clock set by NTP or by hand mid-run would otherwise move some samples'
/// times and not others, and the history's times must never go back. Why CLOCK_REALTIME for
/// storage: it goes on across reboots (CLOCK_MONOTONIC restarts at 0), so history written
/// before a reboot lines up with what comes after. The clock a restarted daemon reads is the
/// same timeline; if it was set back, the history drops what would land before its last record.
package struct DaemonClock: Sendable {
    /// CLOCK_REALTIME − CLOCK_MONOTONIC, ns, at start.
    package let offsetNanoseconds: Int64

    package init(offsetNanoseconds: Int64 = WallClock.offsetNanoseconds) {
        self.offsetNanoseconds = offsetNanoseconds
    }

    /// Engine (CLOCK_MONOTONIC) ns → wall (CLOCK_REALTIME) ns.
    package func wallNanoseconds(_ engine: Int64) -> Int64 { engine &+ offsetNanoseconds }

    /// Engine ns → the wire's CLOCK_REALTIME seconds.
    package func wireSeconds(_ engine: Int64) -> Double { Double(wallNanoseconds(engine)) / 1e9 }

    /// Wire seconds → wall ns (held at the ends of Int64: `distantPast` must not trap).
    package static func wallNanoseconds(wireSeconds seconds: Double) -> Int64 {
        guard seconds.isFinite else { return seconds > 0 ? .max : .min }
        let nanoseconds = (seconds * 1e9).rounded()
        if nanoseconds >= 9.2e18 { return .max }
        if nanoseconds <= -9.2e18 { return .min }
        return Int64(nanoseconds)
    }

    /// Wire seconds → engine ns.
    package func engineNanoseconds(wireSeconds seconds: Double) -> Int64 {
        let wall = Self.wallNanoseconds(wireSeconds: seconds)
        let (engine, overflow) = wall.subtractingReportingOverflow(offsetNanoseconds)
        return overflow ? (offsetNanoseconds > 0 ? .min : .max) : engine
    }

    /// Now on the wall clock, ns (as the history's "now").
    package var nowWallNanoseconds: Int64 { wallNanoseconds(WallClock.engineNanoseconds) }
}
