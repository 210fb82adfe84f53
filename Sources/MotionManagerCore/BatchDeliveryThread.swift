import Glibc
import Locking

/// The thread that hands one started batched stream's batches to its handler (a Swift closure, a
/// C callback), so that a slow handler makes batches wait in the stream's bounded queue (and newer ones be dropped and
/// counted) instead of stalling the engine thread.
///
/// `@unchecked Sendable`, and why it is safe: `semaphore` is a `let` pointer to a `sem_t`
/// initialised in `init` and destroyed only in `deinit`, when no thread holds a reference (the
/// thread holds one until its loop ends); `sem_post`/`sem_wait` are thread-safe by POSIX. The
/// thread id sits in a Mutex; everything else is immutable and Sendable.
final class BatchDeliveryThread<Element: Sendable>: @unchecked Sendable {
    private let client: BatchClient<Element>
    private let deliver: @Sendable ([Element]?, MotionManagerError?) -> Void
    private let semaphore: UnsafeMutablePointer<sem_t>
    private let thread = Lock<pthread_t?>(nil)

    /// Starts a thread for `client`: `deliver` gets each batch, or once (nil, the failure) if
    /// the board fails.
    static func start(client: BatchClient<Element>,
                      deliver: @escaping @Sendable ([Element]?, MotionManagerError?) -> Void) -> BatchDeliveryThread {
        let delivery = BatchDeliveryThread(client: client, deliver: deliver)
        delivery.spawn()
        return delivery
    }

    private init(client: BatchClient<Element>, deliver: @escaping @Sendable ([Element]?, MotionManagerError?) -> Void) {
        self.client = client
        self.deliver = deliver
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, 0)  // cannot fail: value 0, process-private
    }

    /// The thread holds a strong reference to the delivery until its loop ends.
    private func spawn() {
        let entry = ThreadEntry { [self] in run() }
        var id = pthread_t()
        let created = pthread_create(&id, nil, { context in
            Unmanaged<ThreadEntry>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, Unmanaged.passRetained(entry).toOpaque())
        // Fails only when the process is out of threads or memory (EAGAIN).
        precondition(created == 0, "OpenCoreMotion: could not start a batch delivery thread (pthread_create: \(created))")
        thread.withLock { $0 = id }
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    private func run() {
        let semaphore = UInt(bitPattern: self.semaphore)
        while true {
            switch client.queue.pop(orWake: { _ = UnsafeMutablePointer<sem_t>(bitPattern: semaphore).map(sem_post) }) {
            case .wait:
                while sem_wait(self.semaphore) != 0 && errno == EINTR {}
            case .batch(let batch):
                guard client.isLive else { continue }  // stopped: discard what is queued
                deliver(batch, nil)
            case .ended(let failure):
                if let failure { deliver(nil, failure) }
                return
            }
        }
    }

    /// After the stream was stopped (its queue ended): waits for the thread to end, so that the
    /// callback is not running once this returns; from the callback itself, lets it end alone.
    func finish() {
        guard let id = thread.withLock({ $0 }) else { return }
        if pthread_equal(id, pthread_self()) != 0 {
            pthread_detach(id)
        } else {
            pthread_join(id, nil)
        }
    }
}

/// What a new thread runs (a C thread entry cannot be generic, so it gets this).
private final class ThreadEntry: Sendable {
    let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
