import Foundation
import Testing

/// Waits until `condition` holds, looking every 10 ms, and returns whether it does. The
/// deadline, 60 s, is for a real hang only (a loaded machine makes the wait longer, never
/// fails it): how soon something happens is a timing claim, measured by the benchmarks and
/// `motionctl timing`, not here.
func eventually(_ condition: () -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .seconds(60)
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        try await Task.sleep(for: .milliseconds(10))
    }
    return true
}

/// Returns once every operation `queue` held has run (or was skipped). On a serial queue
/// (`maxConcurrentOperationCount == 1`) an operation added now runs after them; any other is
/// waited for until it is empty.
func drain(_ queue: OperationQueue) async throws {
    if queue.maxConcurrentOperationCount == 1 {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            queue.addOperation { done.resume() }
        }
    } else {
        #expect(try await eventually { queue.operationCount == 0 })
    }
}
