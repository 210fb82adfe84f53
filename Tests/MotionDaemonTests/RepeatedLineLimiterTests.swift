import MotionDaemon
import Synchronization
import Locking
import Testing

/// The log's repeat limit on a clock of the test's own: a failure that repeats is one line and
/// then one summary a window, never a line each time.
@Suite struct RepeatedLineLimiterTests {
    /// A log with a settable clock, keeping what it writes.
    final class Log: Sendable {
        let time = Atomic<Int64>(0)
        let lines = Lock<[String]>([])
        var limiter: RepeatedLineLimiter {
            RepeatedLineLimiter(windowNanoseconds: 60_000_000_000, now: { [self] in time.load(ordering: .relaxed) },
                                write: { [self] line in lines.withLock { $0.append(line) } })
        }
        func advance(seconds: Double) { time.add(Int64(seconds * 1e9), ordering: .relaxed) }
        var written: [String] { lines.withLock { $0 } }
    }

    static func diskFull(_ bytes: Int) -> String {
        "history: /var/lib/opencoremotion/walker/accelerometer/1764201600.seg: writing \(bytes) bytes of accelerometer history failed: No space left on device. The disk is full: free some space (the history needs about 100 MB per board), then restart."
    }

    /// A full disk failing every commit for 5 minutes (a different byte count each time): the
    /// first failure in full, then one summary a minute with the count (59 or 60 repeats: the
    /// first minute's first failure is the line itself).
    @Test func aFullDiskIsOneLineAndASummaryAMinute() {
        let log = Log()
        let limiter = log.limiter
        for second in 0..<300 {
            limiter.say(Self.diskFull(4_000 + 37 * second))
            log.advance(seconds: 1)
            limiter.flush()
        }
        let written = log.written
        #expect(written.count == 6, "\(written)")  // the first, then at 60, 120, 180, 240 and 300 s
        #expect(written.first == Self.diskFull(4_000))
        #expect(written.dropFirst().allSatisfy { $0.hasSuffix("(repeated 59 times in the last 60 s)") || $0.hasSuffix("(repeated 60 times in the last 60 s)") },
                "\(written)")
        #expect(written.dropFirst().allSatisfy { $0.contains("No space left on device") })
    }

    /// Another failure is written at once beside a repeating one; a failure that stopped gets
    /// its summary and, when it comes back after a quiet window, is written in full again.
    @Test func otherLinesAndReturningFailuresAreWrittenAtOnce() {
        let log = Log()
        let limiter = log.limiter
        limiter.say("client pid 100 (user mallory): a frame of 0 bytes; closed it")
        limiter.say("client pid 101 (user mallory): a frame of 0 bytes; closed it")
        limiter.say("history: fdatasync failed: Input/output error")
        #expect(log.written == ["client pid 100 (user mallory): a frame of 0 bytes; closed it", "history: fdatasync failed: Input/output error"])
        log.advance(seconds: 61)
        limiter.flush()
        #expect(log.written.last == "client pid 101 (user mallory): a frame of 0 bytes; closed it (repeated 1 time in the last 61 s)")
        log.advance(seconds: 61)
        limiter.flush()  // quiet for a window: forgotten
        limiter.say("client pid 102 (user mallory): a frame of 0 bytes; closed it")
        #expect(log.written.count == 4 && log.written.last == "client pid 102 (user mallory): a frame of 0 bytes; closed it")
    }

    /// A repeat that comes after its window ended, before a flush, writes the summary and
    /// counts itself in the next one: still one line a window.
    @Test func aLateRepeatBringsItsSummaryAndCountsTowardsTheNext() {
        let log = Log()
        let limiter = log.limiter
        limiter.say("refused a connection of pid 7: limit")
        limiter.say("refused a connection of pid 8: limit")
        log.advance(seconds: 90)
        limiter.say("refused a connection of pid 9: limit")
        #expect(log.written == ["refused a connection of pid 7: limit", "refused a connection of pid 8: limit (repeated 1 time in the last 90 s)"])
        log.advance(seconds: 60)
        limiter.flush()
        #expect(log.written.last == "refused a connection of pid 9: limit (repeated 1 time in the last 60 s)")
    }
}
