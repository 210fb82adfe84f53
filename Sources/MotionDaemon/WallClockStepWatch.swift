/// Notices a step of the wall clock while motiond runs (NTP's first sync on a board without a
/// real-time clock, `date -s`, a wrong RTC corrected) and says what it means.
///
/// motiond does not follow the step: every time it sends or stores is CLOCK_MONOTONIC plus the
/// offset read at start (`DaemonClock`), so the live streams and the history go on without a
/// jump, a gap or a sample out of order. What changes is that motiond's times and the wall
/// clock no longer agree, and people must hear of it: history queries by the new wall time are
/// off by the step. Following the step instead would tear the history: forward, a hole of the
/// step's length; backward, every new sample would land before the last stored one and be
/// dropped until the wall clock caught up.
package struct WallClockStepWatch: Sendable {
    /// CLOCK_REALTIME − CLOCK_MONOTONIC when motiond started (its clock), ns.
    package let startOffsetNanoseconds: Int64
    /// The wall clock's difference from motiond's clock last reported, ns (0: none).
    private var reportedDifference: Int64 = 0
    /// The smallest change of that difference that is a step to report: NTP slews far slower.
    package static let thresholdNanoseconds: Int64 = 2_000_000_000

    package init(startOffsetNanoseconds: Int64) {
        self.startOffsetNanoseconds = startOffsetNanoseconds
    }

    /// The line to log when the wall clock (CLOCK_REALTIME − CLOCK_MONOTONIC now: `offset`)
    /// stepped by the threshold or more since the last report; nil otherwise.
    package mutating func check(offsetNanoseconds offset: Int64) -> String? {
        let difference = offset &- startOffsetNanoseconds
        guard abs(difference &- reportedDifference) >= Self.thresholdNanoseconds else { return nil }
        let step = difference &- reportedDifference
        reportedDifference = difference
        guard abs(difference) >= Self.thresholdNanoseconds else {
            return "the wall clock stepped by \(Self.durationText(step)) and agrees with motiond's clock again: history queries by wall time are right again"
        }
        let advice = difference > 0
            ? "History queries by the new wall time miss motiond's last \(Self.durationText(difference, signed: false)). Restart motiond (systemctl restart motiond) to follow the new clock; what it stored before stays on the old times."
            : "History queries by the new wall time reach \(Self.durationText(difference, signed: false)) too far back. Keep motiond running: restarted now, it would drop new history until the wall clock passes the last stored time."
        return "the wall clock stepped by \(Self.durationText(step)); it is now \(Self.durationText(difference, signed: false)) \(difference > 0 ? "ahead of" : "behind") the clock motiond started with. Live and history times go on on motiond's clock (nothing lost, nothing out of order). \(advice)"
    }

    /// "+3 h 0 min 5 s", "-12 s".
    static func durationText(_ nanoseconds: Int64, signed: Bool = true) -> String {
        let seconds = (nanoseconds.magnitude + 500_000_000) / 1_000_000_000
        let sign = signed ? (nanoseconds < 0 ? "-" : "+") : ""
        if seconds < 60 { return "\(sign)\(seconds) s" }
        if seconds < 3600 { return "\(sign)\(seconds / 60) min \(seconds % 60) s" }
        return "\(sign)\(seconds / 3600) h \(seconds % 3600 / 60) min \(seconds % 60) s"
    }
}
