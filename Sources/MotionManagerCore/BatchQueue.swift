import Locking

/// The batches a batched client has not taken yet, bounded: the engine thread pushes without
/// ever waiting (a full queue drops the new batch, and the caller counts its samples), the
/// client pops from any thread. A client waiting for the next batch leaves a waker that the
/// next push (or the end of the stream) calls once, outside the lock: a thread posts a
/// semaphore with it, an async iterator resumes a continuation. No Foundation, no Dispatch.
package final class BatchQueue<Element: Sendable>: Sendable {
    /// Batches the queue holds before it drops new ones (about a second each).
    package let capacity: Int

    private struct State {
        var batches: [[Element]] = []
        var ended = false
        var failure: MotionManagerError?
        var waker: (@Sendable () -> Void)?
    }

    private let state = Lock(State())

    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// What a pop finds.
    package enum Pop: Sendable {
        case batch([Element])
        /// Nothing yet: the waker given will be called when something comes.
        case wait
        /// The stream ended: stopped (nil) or the board failed.
        case ended(MotionManagerError?)
    }

    /// Adds a batch; false (and the batch not kept) when `capacity` batches wait already.
    func push(_ batch: [Element]) -> Bool {
        let (kept, waker) = state.withLock { state -> (Bool, (@Sendable () -> Void)?) in
            guard !state.ended, state.batches.count < capacity else { return (false, nil) }
            state.batches.append(batch)
            defer { state.waker = nil }
            return (true, state.waker)
        }
        waker?()
        return kept
    }

    /// Ends the stream (after the batches already queued): stopped, or failed with `error`.
    func end(_ error: MotionManagerError?) {
        let waker = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.ended else { return nil }
            state.ended = true
            state.failure = error
            defer { state.waker = nil }
            return state.waker
        }
        waker?()
    }

    /// The oldest batch, or the end, or `.wait` after leaving `waker` to be called once when
    /// there is something to pop (a waker left earlier is called now, so no waiter is lost).
    package func pop(orWake waker: (@Sendable () -> Void)?) -> Pop {
        let (pop, replaced) = state.withLock { state -> (Pop, (@Sendable () -> Void)?) in
            if !state.batches.isEmpty { return (.batch(state.batches.removeFirst()), nil) }
            if state.ended { return (.ended(state.failure), nil) }
            defer { state.waker = waker }
            return (.wait, state.waker)
        }
        replaced?()
        return pop
    }

    /// Wakes whoever waits without giving anything (a cancelled task stops waiting).
    package func wakeWaiter() {
        let waker = state.withLock { state -> (@Sendable () -> Void)? in
            defer { state.waker = nil }
            return state.waker
        }
        waker?()
    }

    /// Batches waiting.
    package var count: Int { state.withLock { $0.batches.count } }
}
