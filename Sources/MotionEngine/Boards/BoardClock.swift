import Glibc

/// A running board's time, in nanoseconds from when the board started.
///
/// - A simulated board (every chip emulated) runs on virtual time: the runtime jumps to the
///   next moment something is due, paced against the wall clock at `speed` (0: as fast as
///   possible), so a simulated board delivers samples when a real one would, or faster.
/// - A board with any real chip runs on CLOCK_MONOTONIC, the clock the kernel stamps GPIO
///   edges and IIO buffers with, so edge timestamps convert by subtracting the origin.
struct BoardClock {
    let isSimulated: Bool
    /// CLOCK_MONOTONIC at board time 0, for real boards.
    let originNanoseconds: Int64
    private var pacing: PacedClock

    init(simulated: Bool, speed: Double) {
        isSimulated = simulated
        originNanoseconds = PacedClock.monotonicNanoseconds()
        pacing = PacedClock(speed: speed)
    }

    /// The board time now (real boards); simulated boards have no "now" but the one they reach.
    func now() -> Int64 { PacedClock.monotonicNanoseconds() - originNanoseconds }

    /// Board time of a CLOCK_MONOTONIC timestamp (a GPIO edge's).
    func boardTime(monotonic nanoseconds: Int64) -> Int64 { nanoseconds - originNanoseconds }

    /// Waits until board time `time`: paced for simulated boards, slept on CLOCK_MONOTONIC
    /// (absolute deadline, so EINTR and early wake-ups just sleep again) for real ones.
    mutating func wait(until time: Int64) {
        if isSimulated {
            pacing.wait(until: time)
            return
        }
        let deadline = originNanoseconds + time
        var request = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while PacedClock.monotonicNanoseconds() < deadline {
            _ = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &request, nil)
        }
    }
}
