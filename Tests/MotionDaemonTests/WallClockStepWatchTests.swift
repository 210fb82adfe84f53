import MotionDaemon
import Testing

/// The wall clock stepped by hours while motiond runs: each step is one log line saying which
/// way, how far from motiond's clock, and what to do; NTP's slewing is no step.
@Suite struct WallClockStepWatchTests {
    static let hour: Int64 = 3_600_000_000_000

    @Test func stepsForwardBackAndHomeAreEachOneLine() throws {
        let start: Int64 = 1_764_201_600_000_000_000  // CLOCK_REALTIME − CLOCK_MONOTONIC at start
        var watch = WallClockStepWatch(startOffsetNanoseconds: start)
        // Slewing: 1.5 s over a long run is no step.
        #expect(watch.check(offsetNanoseconds: start) == nil)
        #expect(watch.check(offsetNanoseconds: start + 1_500_000_000) == nil)
        let forwardLine = watch.check(offsetNanoseconds: start + 3 * Self.hour)
        let forward = try #require(forwardLine)
        #expect(forward.hasPrefix("the wall clock stepped by +3 h 0 min 0 s; it is now 3 h 0 min 0 s ahead of the clock motiond started with"), "\(forward)")
        #expect(forward.contains("miss motiond's last 3 h 0 min 0 s") && forward.contains("systemctl restart motiond"), "\(forward)")
        #expect(watch.check(offsetNanoseconds: start + 3 * Self.hour + 1_000_000_000) == nil, "reported again")
        let backLine = watch.check(offsetNanoseconds: start - 3 * Self.hour)
        let back = try #require(backLine)
        #expect(back.hasPrefix("the wall clock stepped by -6 h 0 min 0 s; it is now 3 h 0 min 0 s behind"), "\(back)")
        #expect(back.contains("Keep motiond running"), "a restart after a step back drops history: \(back)")
        let homeLine = watch.check(offsetNanoseconds: start + 500_000_000)
        let home = try #require(homeLine)
        #expect(home.hasPrefix("the wall clock stepped by +3 h 0 min 1 s and agrees with motiond's clock again"), "\(home)")
    }
}
