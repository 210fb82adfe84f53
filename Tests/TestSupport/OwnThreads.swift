import Glibc
import Locking
public import Testing

/// For suites and tests that keep their thread for long: sleep (`usleep`, `Thread.sleep`, a
/// simulated board paced in real time), wait for a process (`waitUntilExit`), a socket, a
/// semaphore or the disk, or compute for more than about a second. Each of their tests runs on
/// threads of its own (`OwnThreads.executor`) instead of Swift concurrency's cooperative pool
/// (issue 22).
///
/// Why: swift-testing calls a synchronous test function on the cooperative pool, which has one
/// thread per core (two on the CI machine) and never adds one for a thread that blocks. Two
/// daemon tests sleeping at once held the whole pool for up to 28 s at a time, and every async
/// test in the process stood still meanwhile: a 10 ms `Task.sleep` woke 28 s late while a plain
/// thread's 10 ms sleep woke at most 15 ms late, the talks' batched-sensor and dive programs
/// took 50 s instead of 2 and 9, and OperationQueues (whose Dispatch workers are the pool's
/// threads until Dispatch adds one) stalled for up to 0.9 s, long enough to drop 50 Hz motion
/// updates. Nothing was wrong with the library or the machine's CPU: the pool was asleep.
public struct OwnThreadsTrait: SuiteTrait, TestTrait, TestScoping {
    /// Applies to every test of a suite it is given to.
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        // One turn per test case (a suite's own scope, if asked for, takes none: it holds its
        // tests, which take theirs).
        if testCase != nil { await OwnThreads.turns.take() }
        defer { if testCase != nil { OwnThreads.turns.give() } }
        // The test's body, a nonisolated async thunk calling the (synchronous) test function,
        // runs on the preferred task executor: a thread of its own, however long it blocks.
        try await withTaskExecutorPreference(OwnThreads.executor) { try await function() }
    }
}

extension Trait where Self == OwnThreadsTrait {
    /// The suite's or test's code keeps its thread for long (it blocks, or computes for seconds):
    /// it runs on threads of its own, off Swift concurrency's cooperative pool, so that it cannot
    /// starve the async tests beside it.
    public static var blocking: Self { Self() }
}

/// A task executor that runs every job on a new thread of its own: any number of jobs may block
/// at once and none waits for another to give its thread back (no width, unlike the cooperative
/// pool). A test's jobs are few (its body, the resumptions after its awaits), so a thread each
/// costs nothing that matters.
public final class OwnThreads: TaskExecutor, Sendable {
    public static let executor = OwnThreads()

    /// At most one test under the trait per core runs at a time, as many as the pool ran before
    /// (the daemon and broker tests start processes that need the CPU): their threads no longer
    /// take the pool's, but the machine's load stays what it was. Waiting for a turn holds no
    /// thread.
    static let turns = Turns(count: max(2, sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    /// Set (to any non-nil value) on these threads only, for `isCurrent`.
    private static let marker: pthread_key_t = {
        var key = pthread_key_t()
        // Fails only when the process has used up its keys (PTHREAD_KEYS_MAX, 1024).
        precondition(pthread_key_create(&key, nil) == 0, "OwnThreads: no thread-specific key left")
        return key
    }()

    private init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let work = Unmanaged.passRetained(Work(job: UnownedJob(job), executor: asUnownedTaskExecutor())).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { context in
            let work = Unmanaged<Work>.fromOpaque(context!).takeRetainedValue()
            pthread_setspecific(OwnThreads.marker, UnsafeRawPointer(bitPattern: 1))  // only its being set counts
            work.job.runSynchronously(on: work.executor)
            return nil
        }, work)
        // Fails only when the process is out of threads or memory (EAGAIN): the test cannot run.
        precondition(created == 0, "OwnThreads: could not start a thread for a blocking test's job (pthread_create: \(created))")
        pthread_detach(thread)
    }

    /// Whether the caller runs on one of these threads (a test under `.blocking` does).
    public static var isCurrent: Bool { pthread_getspecific(marker) != nil }

    /// A job and the executor it runs on, handed to the new thread.
    private final class Work: Sendable {
        let job: UnownedJob
        let executor: UnownedTaskExecutor
        init(job: UnownedJob, executor: UnownedTaskExecutor) {
            self.job = job
            self.executor = executor
        }
    }
}

/// A counting semaphore for tasks: `take` waits without holding a thread (a continuation resumed
/// by `give`), first come first served.
final class Turns: Sendable {
    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state: Lock<State>

    init(count: Int) {
        state = Lock(State(free: count))
    }

    func take() async {
        await withCheckedContinuation { (turn: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard state.free > 0 else {
                    state.waiting.append(turn)
                    return false
                }
                state.free -= 1
                return true
            }
            if now { turn.resume() }
        }
    }

    func give() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
