import Foundation
import Locking
import TestSupport
import Testing

/// Locking.Lock excludes, and ThreadSanitizer sees it do so also when it is contended.
@Suite(.blocking) struct LockTests {
    /// Two threads add 1 to a Lock<Int> 200 times each, holding it 200 µs so that the other one
    /// waits; they start while this thread holds it, so both wait from their first lock on. The
    /// total is 400 (the lock excludes). Under `tools/test-sanitizers.sh thread` this is also
    /// the regression test of the annotations: a bare Synchronization.Mutex here makes TSan
    /// report a race on the value, which fails the stage (tools/sanitizers/mutex-contention.swift).
    @Test func contendedLockExcludesAndKeepsEveryAddition() {
        let counter = Lock(0)
        let done = Lock(0)
        counter.withLock { _ in
            for _ in 0..<2 {
                Thread.detachNewThread {
                    for _ in 0..<200 {
                        counter.withLock { total in
                            total += 1
                            usleep(200)
                        }
                    }
                    done.withLock { $0 += 1 }
                }
            }
            usleep(50_000)  // both threads are now waiting for the lock
        }
        let deadline = Date().addingTimeInterval(60)  // a hang, not a bound
        while done.withLock({ $0 }) < 2, Date() < deadline { usleep(1_000) }
        #expect(done.withLock { $0 } == 2)
        #expect(counter.withLock { $0 } == 400)
    }

    /// A body's error comes out of withLock, and the value keeps what the body did before it.
    @Test func aThrowingBodyRethrowsAndKeepsItsChanges() {
        struct Refused: Error {}
        let list = Lock<[Int]>([])
        #expect(throws: Refused.self) {
            try list.withLock { (items: inout [Int]) throws(Refused) in
                items.append(1)
                throw Refused()
            }
        }
        #expect(list.withLock { $0 } == [1])
    }
}
