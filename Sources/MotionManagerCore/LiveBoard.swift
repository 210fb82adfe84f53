import Glibc
package import MotionAlgorithms
package import MotionEngine
import Synchronization
import Locking

/// One board, run live for the whole process: every motion manager opened on the same board
/// file shares it (one engine per board per process: a chip can only be brought up and read by
/// one runtime at a time, and an app that makes two managers must not reset its IMU twice).
///
/// The engine runs on its own thread, started when the first stream starts and ended when the
/// last one stops. That thread alone owns the `BoardRuntime`, the fan-out and the device-motion
/// estimators (`EngineWorker`); other threads talk to it only through `control`, a Mutex holding
/// the commands it applies between two runtime steps (at most `commandLatencyNanoseconds` apart).
package final class LiveBoard: Sendable {
    /// The board file, resolved (absolute).
    package let path: String
    package let description: BoardDescription
    /// The sensors the board's chips give.
    package let channels: Set<SensorChannel>
    /// Samples the board lost or read twice, per sensor (issue 11's timing contract: never silent).
    package let sampleLoss = SampleLossCounts()

    private struct Control {
        /// Whether an engine thread exists (it clears this, under the lock, just before it ends).
        var running = false
        var commands: [Command] = []
        /// The engine thread, to recognise calls made from a subscription's callback.
        var thread: pthread_t?
    }

    private let control = Lock(Control())

    private init(path: String, description: BoardDescription) {
        self.path = path
        self.description = description
        channels = BoardSensors.channels(of: description)
    }

    /// The boards opened so far, by resolved path: kept for the life of the process (an idle
    /// board is its parsed description and no thread).
    private static let boards = Lock<[String: LiveBoard]>([:])

    /// The process's engine for the board file at `path` (resolved by `resolve`), loading the
    /// board file the first time.
    package static func open(path: String) throws(EngineError) -> LiveBoard {
        let resolved = resolve(path)
        if let board = boards.withLock({ $0[resolved] }) { return board }
        let description = try BoardDescription.load(path: resolved)
        return boards.withLock { boards in
            if let existing = boards[resolved] { return existing }
            let board = LiveBoard(path: resolved, description: description)
            boards[resolved] = board
            return board
        }
    }

    /// The process's engine for a board made in memory (`SystemBoard`'s probe), under `key`.
    package static func open(boardFile text: String, key: String) throws(EngineError) -> LiveBoard {
        if let board = boards.withLock({ $0[key] }) { return board }
        let description: BoardDescription
        do {
            description = try BoardFileParser.parse(text, path: key)
        } catch {
            throw .board(error)
        }
        return boards.withLock { boards in
            if let existing = boards[key] { return existing }
            let board = LiveBoard(path: key, description: description)
            boards[key] = board
            return board
        }
    }

    /// The board file for `path`: an absolute path as is; a relative one from the current
    /// directory if it exists there ("boards/sim-gy-521.board" in a checkout), else from its
    /// `boards` folder ("sim-gy-521.board" in a checkout), else from the installed boards
    /// folders (`BoardLocations.boardsFolders`: the program's prefix, /usr/local, /usr). A path found nowhere is returned made absolute from the
    /// current directory, so the loader's error names where it looked. Never from the source
    /// tree the code was built in.
    package static func resolve(_ path: String) -> String {
        if path.hasPrefix("/") { return normalized(path) }
        let current = currentDirectory()
        for candidate in [current + "/" + path, current + "/boards/" + path] + BoardLocations.boardsFolders.map({ $0 + "/" + path })
        where access(candidate, F_OK) == 0 {
            return normalized(candidate)
        }
        return current + "/" + path
    }

    private static func currentDirectory() -> String {
        guard let pointer = getcwd(nil, 0) else { return "." }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    private static func normalized(_ path: String) -> String {
        guard let pointer = realpath(path, nil) else { return path }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    // MARK: Subscriptions

    /// Adds `subscription`, starting the engine if it is idle. Returns once the engine has taken
    /// it (the board is up), or throws why the board could not be brought up. Called from the
    /// engine thread itself (a callback starting another stream), it only queues the command.
    package func add(_ subscription: EngineSubscription, intervalNanoseconds: Int64) throws(MotionManagerError) {
        try send { .add(subscription, intervalNanoseconds: intervalNanoseconds, $0) }
    }

    /// Adds `tap` (every reading of its channels, on the engine thread), as `add` does a
    /// subscription: starting the engine if idle, returning once the board is up.
    package func add(_ tap: ReadingTap) throws(MotionManagerError) {
        try send { .addTap(tap, $0) }
    }

    /// Queues the command `make` builds, starting the engine thread if idle, and waits for it
    /// (unless called from the engine thread).
    private func send(_ make: (Completion?) -> Command) throws(MotionManagerError) {
        let completion = isEngineThread ? nil : Completion()
        let spawn = control.withLock { control -> Bool in
            control.commands.append(make(completion))
            if control.running { return false }
            control.running = true
            return true
        }
        if spawn { spawnEngineThread() }
        if let error = completion?.wait() { throw error }
    }

    /// Adds a batched client (`CMBatchedSensorManager`): the board's FIFO IMU switches to its
    /// highest rate if it is not there yet. Returns once the engine runs it, as `add` does.
    package func add(_ client: BatchedClient) throws(MotionManagerError) {
        try send { .addBatched(client, $0) }
    }

    /// Removes a batched client (its queue ends); the last one puts the IMU back at its rate.
    package func remove(_ client: BatchedClient) {
        client.cancel(nil)
        withdraw { .removeBatched(id: client.id, $0) }
    }

    /// Removes `subscription`: its sink gets nothing more from the moment this is called, and
    /// once this returns the engine holds no reference to it and runs none of its code (unless
    /// called from the engine thread, which is then inside one of the callbacks).
    package func remove(_ subscription: EngineSubscription) {
        subscription.cancel()
        withdraw { .remove(id: subscription.id, $0) }
    }

    /// Removes `tap`, as `remove` does a subscription.
    package func remove(_ tap: ReadingTap) {
        tap.cancel()
        withdraw { .removeTap(id: tap.id, $0) }
    }

    /// Queues the removal `make` builds if the engine runs, and waits for it (unless called from
    /// the engine thread).
    private func withdraw(_ make: (Completion?) -> Command) {
        let completion = isEngineThread ? nil : Completion()
        let queued = control.withLock { control -> Bool in
            guard control.running else { return false }  // no engine thread: nothing holds it
            control.commands.append(make(completion))
            return true
        }
        if queued, let completion { _ = completion.wait() }
    }

    /// Changes a running subscription's interval (takes effect at the next step).
    package func setInterval(_ subscription: EngineSubscription, nanoseconds: Int64) {
        control.withLock { control in
            guard control.running else { return }
            control.commands.append(.setInterval(id: subscription.id, intervalNanoseconds: nanoseconds))
        }
    }

    /// Whether the caller is this board's engine thread.
    package var isEngineThread: Bool {
        control.withLock { control in control.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    // MARK: The engine thread

    /// Starts the engine thread (detached: it ends by itself when no one subscribes). The
    /// thread holds a strong reference to the board until it returns.
    private func spawnEngineThread() {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { context in
            let board = Unmanaged<LiveBoard>.fromOpaque(context!).takeRetainedValue()
            board.threadMain()
            return nil
        }, context)
        // Fails only when the process is out of threads or memory (EAGAIN): no engine can run.
        precondition(created == 0, "OpenCoreMotion: could not start the engine thread (pthread_create: \(created))")
        pthread_detach(thread)
    }

    private func threadMain() {
        control.withLock { $0.thread = pthread_self() }
        while true {
            runSession()
            let finished = control.withLock { control -> Bool in
                guard control.commands.isEmpty else { return false }
                control.running = false
                control.thread = nil
                return true
            }
            if finished { return }
        }
    }

    private func takeCommands() -> [Command] {
        control.withLock { control in
            defer { control.commands = [] }
            return control.commands
        }
    }

    /// Brings the board up and runs it while anyone subscribes; returns when no one does.
    private func runSession() {
        let worker: EngineWorker
        do {
            worker = try EngineWorker(board: self)
        } catch {
            let failure = MotionManagerError(.unknown, "The board file \(path) (\"\(description.name)\") could not be brought up: \(error)")
            for command in takeCommands() { command.complete(with: failure) }
            return
        }
        while true {
            for command in takeCommands() { worker.apply(command) }
            if worker.isIdle {
                if control.withLock({ $0.commands.isEmpty }) { return }
                continue
            }
            worker.step()
        }
    }

    /// How long commands (start, stop, interval changes) wait at most for the engine: the
    /// runtime steps to no later than this much board time ahead.
    static let commandLatencyNanoseconds: Int64 = 20_000_000
}

/// One stream of one manager, as the engine sees it: what it wants and where samples go.
///
/// `sink` runs on the engine thread and gets the subscription with each event (so that work it
/// hands to another thread can check `isLive` there). `cancel()`, from any thread, stops
/// deliveries at once.
package final class EngineSubscription: Sendable {
    package let id: Int
    package let stream: MotionStream
    /// For device motion: the estimator's frame and declination (degrees east).
    package let frame: AttitudeReferenceFrame
    package let declination: Double
    private let sink: @Sendable (EngineSubscription, EngineEvent) -> Void
    private let live = Atomic<Bool>(true)

    private static let nextID = Atomic<Int>(0)

    package init(stream: MotionStream, frame: AttitudeReferenceFrame = .xArbitraryZVertical, declination: Double = 0,
                 sink: @escaping @Sendable (EngineSubscription, EngineEvent) -> Void) {
        id = Self.nextID.wrappingAdd(1, ordering: .relaxed).newValue
        self.stream = stream
        self.frame = frame
        self.declination = declination
        self.sink = sink
    }

    package var isLive: Bool { live.load(ordering: .acquiring) }

    func cancel() { live.store(false, ordering: .releasing) }

    /// Gives `event` to the sink unless the subscription was cancelled.
    func deliver(_ event: EngineEvent) {
        guard isLive else { return }
        sink(self, event)
    }
}

/// What other threads ask the engine thread.
enum Command: Sendable {
    case add(EngineSubscription, intervalNanoseconds: Int64, Completion?)
    case remove(id: Int, Completion?)
    case setInterval(id: Int, intervalNanoseconds: Int64)
    case addTap(ReadingTap, Completion?)
    case removeTap(id: Int, Completion?)
    case addBatched(BatchedClient, Completion?)
    case removeBatched(id: Int, Completion?)

    /// Answers the command without applying it (the board could not be brought up).
    func complete(with failure: MotionManagerError) {
        switch self {
        case .add(_, _, let completion), .addTap(_, let completion), .addBatched(_, let completion): completion?.finish(failure)
        case .remove(_, let completion), .removeTap(_, let completion), .removeBatched(_, let completion): completion?.finish(nil)
        case .setInterval: break
        }
    }
}

/// A one-shot answer from the engine thread to a waiting caller: a POSIX semaphore (the core
/// uses no Foundation or Dispatch) and the outcome in a Mutex.
///
/// `@unchecked Sendable`, and why it is safe: `semaphore` is a `let` pointer to a `sem_t`
/// allocated and initialised in `init`, destroyed and freed only in `deinit` (when no thread can
/// hold a reference any more), and never moved; `sem_post` and `sem_wait` are thread-safe on
/// the same semaphore by POSIX. The outcome is a `Mutex`, itself Sendable. The only reason for
/// `unchecked` is the raw pointer, which the compiler cannot prove is used only that way.
final class Completion: @unchecked Sendable {
    private let semaphore: UnsafeMutablePointer<sem_t>
    private let outcome = Lock<MotionManagerError?>(nil)

    init() {
        semaphore = .allocate(capacity: 1)
        // Cannot fail: the value (0) is below SEM_VALUE_MAX and the semaphore is process-private.
        sem_init(semaphore, 0, 0)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    func finish(_ error: MotionManagerError?) {
        outcome.withLock { $0 = error }
        sem_post(semaphore)
    }

    /// Waits for `finish`; its error, or nil on success.
    func wait() -> MotionManagerError? {
        while sem_wait(semaphore) != 0 && errno == EINTR {}  // a signal handler ran: wait on
        return outcome.withLock { $0 }
    }
}
