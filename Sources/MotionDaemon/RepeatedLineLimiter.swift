import MotionManagerCore
import Locking

/// Keeps a failure that repeats from flooding the log: the first line of a kind is written at
/// once, the same line again within `windowNanoseconds` is only counted, and when the window
/// ends the count is written as one summary ("… repeated 59 times in the last 60 s"). A full
/// disk fails every commit (about once a second, each kind of history in turn): one line, then
/// one summary a minute, however long it lasts.
///
/// Lines are "the same" when they differ only in their numbers: a failed write names its byte
/// count, a refused client its pid, and those change from one repetition to the next. A line
/// that did not come back for a whole window is forgotten: when it does, it is written again.
///
/// Thread-safe: the poll loop, the history thread and the engine's threads all log.
package final class RepeatedLineLimiter: Sendable {
    private struct Entry {
        var windowStart: Int64
        var repeats: Int
        var lastLine: String
    }

    private struct State {
        var windowNanoseconds: Int64
        var entries: [String: Entry] = [:]
    }

    private let state: Lock<State>
    private let now: @Sendable () -> Int64
    private let write: @Sendable (String) -> Void

    /// `now`: a monotonic clock, ns (the tests' own); `write`: where a line goes.
    package init(windowNanoseconds: Int64 = 60_000_000_000, now: @escaping @Sendable () -> Int64 = { WallClock.engineNanoseconds },
                 write: @escaping @Sendable (String) -> Void) {
        state = Lock(State(windowNanoseconds: windowNanoseconds))
        (self.now, self.write) = (now, write)
    }

    /// How long repeats are counted before their summary is written, ns.
    package var windowNanoseconds: Int64 {
        get { state.withLock { $0.windowNanoseconds } }
        set { state.withLock { $0.windowNanoseconds = newValue } }
    }

    /// Writes `line`, or counts it if the same line was written within the window.
    package func say(_ line: String) {
        let key = Self.key(line)
        let time = now()
        state.withLock { state in
            if var entry = state.entries[key], time - entry.windowStart < state.windowNanoseconds {
                entry.repeats += 1
                entry.lastLine = line
                state.entries[key] = entry
                return
            }
            if let ended = state.entries[key], ended.repeats > 0 {
                // Still going on: the summary, and this one counts towards the next.
                write(Self.summary(ended, until: time))
                state.entries[key] = Entry(windowStart: time, repeats: 1, lastLine: line)
                return
            }
            write(line)
            state.entries[key] = Entry(windowStart: time, repeats: 0, lastLine: line)
        }
    }

    /// Writes the summary of every window that has ended (call about once a second): a failure
    /// that goes on is reported once a window; one that stopped is forgotten after its summary.
    package func flush() {
        let time = now()
        state.withLock { state in
            for (key, entry) in state.entries where time - entry.windowStart >= state.windowNanoseconds {
                if entry.repeats > 0 {
                    write(Self.summary(entry, until: time))
                    state.entries[key] = Entry(windowStart: time, repeats: 0, lastLine: entry.lastLine)
                } else {
                    state.entries[key] = nil
                }
            }
        }
    }

    private static func summary(_ entry: Entry, until time: Int64) -> String {
        let seconds = max(1, (time - entry.windowStart + 500_000_000) / 1_000_000_000)
        return "\(entry.lastLine) (repeated \(entry.repeats) time\(entry.repeats == 1 ? "" : "s") in the last \(seconds) s)"
    }

    /// The line with every run of digits as one `#`: what stays the same across repetitions.
    static func key(_ line: String) -> String {
        var key = ""
        key.reserveCapacity(line.utf8.count)
        var inNumber = false
        for character in line.unicodeScalars {
            let digit = character.value >= 48 && character.value <= 57
            if digit {
                if !inNumber { key.unicodeScalars.append("#") }
            } else {
                key.unicodeScalars.append(character)
            }
            inNumber = digit
        }
        return key
    }
}
