import Foundation
import MotionManagerCore
import Locking

/// Runs `work`, which waits for a board to come up (chips reset, calibration read: tens of
/// milliseconds on a real bus, seconds on a slow one), on a thread of its own, and resumes the
/// caller when it returns. An async caller would otherwise hold one of the cooperative pool's
/// threads (one per core) the whole time, and every other task in the process would wait.
func awayFromThePool<T: Sendable>(_ work: @escaping @Sendable () throws(MotionManagerError) -> T) async throws(MotionManagerError) -> T {
    let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, MotionManagerError>, Never>) in
        Thread {
            do throws(MotionManagerError) { continuation.resume(returning: .success(try work())) }
            catch { continuation.resume(returning: .failure(error)) }
        }.start()
    }
    return try outcome.get()
}

/// Waits for a batched client's next batch without holding a thread: the queue's waker resumes
/// the continuation. A cancelled task stops waiting and gets `nil`.
func nextBatch<Element: Sendable>(_ queue: BatchQueue<Element>) async -> BatchQueue<Element>.Pop? {
    while !Task.isCancelled {
        let pop: BatchQueue<Element>.Pop? = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<BatchQueue<Element>.Pop?, Never>) in
                let found = queue.pop(orWake: { continuation.resume(returning: nil) })
                if case .wait = found {
                    // Cancelled before the waker was left: the handler found nothing to wake.
                    if Task.isCancelled { queue.wakeWaiter() }
                } else {
                    continuation.resume(returning: found)
                }
            }
        } onCancel: {
            queue.wakeWaiter()
        }
        if let pop { return pop }
    }
    return nil
}

/// One `…Updates()` sequence's source: starts its stream at the first `next()` (so creating the
/// sequence costs nothing; the board is brought up away from the cooperative pool), then hands out batches until the stream stops, the board fails
/// (thrown) or the iterating task is cancelled (which stops the stream).
final class BatchSource<Element: Sendable>: Sendable {
    private let start: @Sendable () throws(MotionManagerError) -> BatchClient<Element>
    private let stop: @Sendable (BatchClient<Element>) -> Void
    private let client = Lock<BatchClient<Element>?>(nil)

    init(start: @escaping @Sendable () throws(MotionManagerError) -> BatchClient<Element>,
         stop: @escaping @Sendable (BatchClient<Element>) -> Void) {
        self.start = start
        self.stop = stop
    }

    func next() async throws(CMError) -> [Element]? {
        let running: BatchClient<Element>
        if let existing = client.withLock({ $0 }) {
            running = existing
        } else {
            do { running = try await awayFromThePool(start) } catch { throw CMError(error) }
            client.withLock { $0 = running }
        }
        switch await nextBatch(running.queue) {
        case .batch(let batch)?: return batch
        case .ended(let failure?)?: throw CMError(failure)
        case .ended(nil)?, .wait?: return nil
        case nil:
            stop(running)  // the iterating task was cancelled
            return nil
        }
    }
}
