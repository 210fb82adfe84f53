import Foundation
import Locking
import TestSupport
import Testing

/// The `.blocking` trait (issue 22): a test that blocks its thread runs on threads of its own,
/// never on Swift concurrency's cooperative pool, which has one thread per core and would stand
/// still for every async test while blocking tests held it.
@Suite struct OwnThreadsTests {
    /// A synchronous test function under the trait runs on one of its threads.
    @Test(.blocking) func aBlockingTestRunsOnAThreadOfItsOwn() {
        #expect(OwnThreads.isCurrent)
    }

    /// More jobs may block at once than the cooperative pool has threads (one per core): each
    /// of cores + 1 child tasks waits until all have started, which on a pool as wide as the
    /// cores never happens (then each gives up after 60 s, a hang's bound, and says so).
    @Test(.blocking) func moreJobsBlockAtOnceThanThePoolHasThreads() async {
        let jobs = ProcessInfo.processInfo.activeProcessorCount + 1
        let started = StartCount()
        let allStarted = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<jobs {
                group.addTask {
                    started.count.withLock { $0 += 1 }
                    let deadline = ContinuousClock.now + .seconds(60)
                    while started.count.withLock({ $0 }) < jobs {
                        if ContinuousClock.now >= deadline { return false }
                        usleep(1_000)  // blocks the thread, as the tests under the trait do
                    }
                    return OwnThreads.isCurrent
                }
            }
            return await group.allSatisfy { $0 }
        }
        #expect(allStarted, "\(started.count.withLock { $0 }) of \(jobs) jobs started, each on a thread of its own")
    }
}

/// How many of the test's jobs have started (shared by its child tasks).
private final class StartCount: Sendable {
    let count = Lock(0)
}
