import Foundation
import MotionManagerCore
import Testing
import TestSupport

/// The wall clock ↔ engine clock conversion is exact both ways, however the threads doing it
/// are scheduled: a pedometer's `startDate` is the date it was given, also after motiond
/// restarts (APIThroughDaemonTests' restart test broke on a few µs, under load and sanitizers).
@Suite(.blocking) struct WallClockTests {
    /// Four threads (two cores: they preempt each other, as a loaded machine does) each take
    /// 20 000 wall times to engine time and back: every one comes back to the nanosecond.
    @Test func wallToEngineAndBackIsExactUnderContention() {
        let mismatches = Total()
        let group = DispatchGroup()
        for thread in 0..<4 {
            group.enter()
            Thread.detachNewThread {
                var wrong = 0
                let base: Int64 = 1_764_201_600_000_000_000 + Int64(thread) * 1_000_000_007
                for index in 0..<20_000 {
                    let wall = base + Int64(index) * 999_983
                    if WallClock.unixTime(engineNanoseconds: WallClock.engineTime(unixNanoseconds: wall)) != wall { wrong += 1 }
                }
                mismatches.add(wrong)
                group.leave()
            }
        }
        #expect(group.wait(timeout: .now() + 60) == .success)  // a hang, not a bound
        #expect(mismatches.total == 0, "\(mismatches.total) of 80 000 round trips were off")
    }
}

/// A total the test's threads add to.
private final class Total: @unchecked Sendable {  // NSLock-guarded
    private let lock = NSLock()
    private var sum = 0
    func add(_ value: Int) { lock.withLock { sum += value } }
    var total: Int { lock.withLock { sum } }
}
