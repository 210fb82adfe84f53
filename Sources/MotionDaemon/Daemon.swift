internal import Glibc
import MotionDaemonProtocol
import MotionEngine
import MotionHistory
import MotionManagerCore
import Synchronization
import Locking

/// `motiond`: one board's sensors run from start to exit, their history kept
/// (`HistoryRecorder`), and local clients served over a Unix socket (PROTOCOL.md).
///
/// Threads: the board's engine thread (`LiveBoard`) runs the pipeline and hands every client's
/// samples to its `ClientOutbox`; the history thread owns the store; this thread runs the poll
/// loop: accepts, reads requests, answers them, and moves outboxes to sockets. Nothing the
/// engine thread does waits for a client.
package final class Daemon {
    package let configuration: DaemonConfiguration
    let policy: AccessPolicy
    let board: LiveBoard
    /// The board file the daemon runs, resolved.
    package var boardPath: String { board.path }
    let clock = DaemonClock()
    let recorder: HistoryRecorder
    let wakeup: Wakeup
    let listener: UnixListener
    /// The signal that asked the daemon to stop (0: none yet), set by the signal thread.
    private let stopSignal = Atomic<Int32>(0)
    let started = WallClock.engineNanoseconds
    /// When the board's live pedometer started counting (engine ns): steps before are in the history.
    private(set) var pedometerStarted: Int64 = .max
    /// The connections, by descriptor (the poll loop's alone).
    var sessions: [Int32: ClientSession] = [:]
    /// Connections per uid, for `maximumClientsPerUser`.
    var connectionsByUser: [UInt32: Int] = [:]
    /// Held open to be given up when accept fails for want of descriptors (`Daemon+Connections`).
    var spareDescriptor: Int32 = -1
    /// Tells the log when the wall clock steps away from the clock motiond started with.
    private lazy var wallClockWatch = WallClockStepWatch(startOffsetNanoseconds: clock.offsetNanoseconds)
    /// The last `storageUse` measured, and when (CLOCK_MONOTONIC ns).
    private var storageCache: (measuredAt: Int64, uses: [StorageUse])?
    /// Accepting pauses until then (CLOCK_MONOTONIC ns) when even the spare descriptor is gone.
    var acceptPausedUntil: Int64 = 0
    /// When `wallClockStepFile` was last read (CLOCK_MONOTONIC ns).
    private var stepFileReadAt: Int64?
    /// Set by the history thread when it ends (nil: stopped as asked; text: why it failed).
    private let historyEnded = Lock<String??>(nil)
    private var historyThread = pthread_t()

    /// Loads the policy and the board, opens the history and the socket; nothing runs yet.
    package init(configuration: DaemonConfiguration) throws(DaemonError) {
        self.configuration = configuration
        // Before any thread exists (the engine's inherit the mask): SIGTERM and SIGINT are
        // taken by the signal thread's sigwait, SIGPIPE never (a client that went away is an
        // error on its send, not the daemon's death).
        signal(SIGPIPE, SIG_IGN)
        var mask = Self.stopSignals
        pthread_sigmask(SIG_BLOCK, &mask, nil)
        policy = try AccessPolicy.load(path: configuration.policyPath)
        if let path = configuration.board {
            do { board = try LiveBoard.open(path: path) } catch {
                throw DaemonError("the board file could not be loaded: \(error)", advice: "Give an existing board file with --board (see boards/README.md).")
            }
        } else {
            do { board = try LiveBoard.openSystemBoard() } catch {
                // The message ends a sentence of its own; the advice follows it.
                let message = error.message.hasSuffix(".") ? String(error.message.dropLast()) : error.message
                throw DaemonError("no system board: \(message)", advice: "Or give a board file with --board (see boards/README.md).")
            }
        }
        let directory = HistoryStore.directory(root: configuration.historyRoot, board: board.path)
        for folder in [configuration.historyRoot, directory] where mkdir(folder, 0o750) != 0 && errno != EEXIST {
            throw DaemonError("cannot create the history folder \(folder): \(String(cString: strerror(errno)))",
                              advice: "Create it writable by motiond's user (systemd's StateDirectory does), or use --history.")
        }
        let store: HistoryStore
        do {
            var historyConfiguration = HistoryConfiguration()
            historyConfiguration.report = { DaemonLog.say("history: \($0)") }
            store = try HistoryStore(directory: directory, configuration: historyConfiguration)
        } catch {
            throw DaemonError("the history could not be opened: \(error.description)", advice: "")
        }
        recorder = try HistoryRecorder(board: board, clock: clock, store: store)
        wakeup = try Wakeup()
        listener = try UnixListener(path: configuration.socketPath)
        spareDescriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    /// Runs until SIGTERM or SIGINT (returns 0) or until the board or the history fails
    /// (returns 1, for systemd's Restart=on-failure).
    package func run() -> Int32 {
        do {
            try recorder.start()
            // Live pedometer and activity streams come from the board's shared stages, kept
            // running for the daemon's life.
            try BoardPedometer.of(board).open()
            pedometerStarted = WallClock.engineNanoseconds
            try BoardActivity.of(board).open()
        } catch {
            DaemonLog.say("\(error)")
            listener.close()
            return 1
        }
        startHistoryThread()
        startSignalThread()
        DaemonLog.say("serving \(board.path) (\"\(board.description.name)\") on \(listener.path); history in \(recorder.directory)")
        let exitCode = pollLoop()
        for session in Array(sessions.values) { drop(session) }
        listener.close()
        if spareDescriptor >= 0 { close(spareDescriptor) }
        recorder.stop()
        pthread_join(historyThread, nil)
        let failure = historyEnded.withLock { $0 } ?? nil
        if let failure {
            DaemonLog.say("stopping: \(failure)")
            return 1
        }
        return exitCode
    }

    /// Starts the history thread. It and the signal thread get the daemon through a raw
    /// pointer (pthread takes no Swift closure) and touch only its Sendable members
    /// (`recorder`, `historyEnded`, `stopSignal`, `wakeup`); the rest is the poll loop's.
    private func startHistoryThread() {
        let context = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(&historyThread, nil, { context in
            let daemon = Unmanaged<Daemon>.fromOpaque(context!).takeRetainedValue()
            let failure = daemon.recorder.run()
            daemon.historyEnded.withLock { $0 = .some(failure) }
            daemon.wakeup.signal()
            return nil
        }, context)
        precondition(created == 0, "motiond: could not start the history thread (pthread_create: \(created))")
    }

    static var stopSignals: sigset_t {
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGTERM)
        sigaddset(&mask, SIGINT)
        return mask
    }

    /// A detached thread that waits for SIGTERM or SIGINT and wakes the poll loop to stop.
    private func startSignalThread() {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { context in
            let daemon = Unmanaged<Daemon>.fromOpaque(context!).takeRetainedValue()
            var mask = Daemon.stopSignals
            var received: Int32 = 0
            while sigwait(&mask, &received) != 0 {}
            daemon.stopSignal.store(received, ordering: .releasing)
            daemon.wakeup.signal()
            return nil
        }, context)
        precondition(created == 0, "motiond: could not start the signal thread (pthread_create: \(created))")
        pthread_detach(thread)
    }

    /// The clock test's simulated step of the wall clock: `file`'s ns, read at most every
    /// 100 ms (a missing or unreadable file leaves the step as it was).
    private func followSimulatedStep(_ file: String) {
        let now = WallClock.engineNanoseconds
        if let last = stepFileReadAt, now - last < 100_000_000 { return }
        stepFileReadAt = now
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = read(descriptor, &bytes, bytes.count)
        let text = String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" }).first
        guard let text, let step = Int64(text) else { return }
        WallClock.simulatedStepNanoseconds.store(step, ordering: .relaxed)
    }

    // MARK: The poll loop

    private func pollLoop() -> Int32 {
        while true {
            DaemonLog.lines.flush()
            if let file = configuration.wallClockStepFile { followSimulatedStep(file) }
            if let step = wallClockWatch.check(offsetNanoseconds: WallClock.offsetNanoseconds) { DaemonLog.say(step) }
            let now = WallClock.engineNanoseconds
            var descriptors = [pollfd(fd: acceptsConnections(now: now) ? listener.descriptor : -1, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0)]
            let order = Array(sessions.keys)
            var reading: [Bool] = []
            for descriptor in order {
                let session = sessions[descriptor]!
                // A client whose answers pile up is not read: its requests wait in the kernel.
                let readsRequests = session.unsentAnswerBytes < configuration.unsentBytesLimit
                reading.append(readsRequests)
                descriptors.append(pollfd(fd: descriptor, events: (readsRequests ? Int16(POLLIN) : 0) | (session.wantsToWrite ? Int16(POLLOUT) : 0), revents: 0))
            }
            let ready = poll(&descriptors, nfds_t(descriptors.count), pollTimeoutMilliseconds(now: now))
            if ready < 0 && errno != EINTR {
                DaemonLog.say("poll failed: \(String(cString: strerror(errno)))")
                return 1
            }
            let signal = stopSignal.load(ordering: .acquiring)
            if signal != 0 {
                DaemonLog.say("signal \(signal): stopping")
                return 0
            }
            if historyEnded.withLock({ $0 }) != nil { return 1 }
            if descriptors[0].revents != 0 { acceptClients() }
            for (index, descriptor) in order.enumerated() {
                let events = descriptors[index + 2].revents
                guard events != 0, let session = sessions[descriptor] else { continue }
                let hungUp = events & Int16(POLLHUP | POLLERR) != 0
                if hungUp && !reading[index] {  // gone, with answers it will never read
                    drop(session)
                    continue
                }
                if events & Int16(POLLIN) != 0 || hungUp {
                    guard readRequests(session) else { drop(session); continue }
                }
                flushOrEnd(session)
            }
            if descriptors[1].revents != 0 {
                wakeup.reset()
                for session in Array(sessions.values) { flushOrEnd(session) }
            }
            // Requests held back while a client's answers waited are served once those went out.
            for session in Array(sessions.values) where session.reader.bufferedByteCount > 0 && session.partialFrameSince == nil {
                serveRequests(session)
                flushOrEnd(session)
            }
            // After reading what arrived: a hello that waited in the socket while the daemon was
            // stopped (SIGSTOP, a loaded machine) counts as in time.
            closeLateClients(now: WallClock.engineNanoseconds)
        }
    }

    /// Moves the session's output to its socket; ends it when the connection broke or after a
    /// refusal (at once: a refused client holds nothing, even if it never reads the reason).
    func flushOrEnd(_ session: ClientSession) {
        guard sessions[session.descriptor] === session else { return }
        if !session.flush() || session.closing { drop(session) }
    }

    /// Reads what the client sent and handles its whole frames; false if the connection ended.
    private func readRequests(_ session: ClientSession) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let count = buffer.withUnsafeMutableBytes { recv(session.descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count == 0 { return false }
        if count < 0 { return errno == EAGAIN || errno == EINTR }
        session.reader.append(Array(buffer.prefix(count)))
        serveRequests(session)
        return true
    }

    /// Handles the client's whole frames while its unsent answers stay under the limit; notes
    /// when a part of a frame is left waiting for the rest. A frame that breaks the protocol
    /// refuses the connection (after telling it why).
    private func serveRequests(_ session: ClientSession) {
        do throws(ProtocolError) {
            while !session.closing, session.unsentAnswerBytes < configuration.unsentBytesLimit {
                guard let frame = try session.reader.nextFrame() else {
                    if session.reader.bufferedByteCount == 0 {
                        session.partialFrameSince = nil
                    } else if session.partialFrameSince == nil {
                        session.partialFrameSince = WallClock.engineNanoseconds
                    }
                    return
                }
                session.partialFrameSince = nil
                handle(try ClientMessage(frame), from: session)
            }
        } catch {
            DaemonLog.say("client pid \(session.peer.pid) (user \(session.peer.userName)): \(error); closed it")
            refuse(session, code: .badRequest, "The daemon could not read your request: \(error)",
                   advice: "Use a client built with the same OpenCoreMotion (protocol version \(Framing.version)).")
        }
    }

    /// Sends a connection-level error; the connection is closed right after (`flushOrEnd`).
    func refuse(_ session: ClientSession, code: WireErrorCode, _ message: String, advice: String) {
        session.outbox.reply(.error(request: 0, code: code, message: message, advice: advice))
        session.closing = true
    }

    /// Ends a session: its streams stop (the engine holds none of them when this returns).
    func drop(_ session: ClientSession) {
        for (stream, subscription) in session.subscriptions {
            unsubscribe(subscription)
            session.outbox.clear(stream)
        }
        session.subscriptions = [:]
        session.outbox.close()
        close(session.descriptor)
        sessions[session.descriptor] = nil
        let remaining = (connectionsByUser[session.peer.uid] ?? 1) - 1
        connectionsByUser[session.peer.uid] = remaining > 0 ? remaining : nil
    }

    func unsubscribe(_ subscription: StreamSubscription) {
        switch subscription {
        case .engine(let engine, _): board.remove(engine)
        case .pedometer(let pedometer): BoardPedometer.of(board).unsubscribe(pedometer)
        case .activity(let activity): BoardActivity.of(board).unsubscribe(activity)
        case .altitude(let altimeter, let tap):
            altimeter.cancel()
            board.remove(tap)
        case .batched(let client): board.remove(client)
        }
    }

    /// The history's use of the disk, measured at most once a second: measuring lists and
    /// stats every segment file, and a client asking `status` in a loop must not make the poll
    /// loop do that for each request while other clients wait.
    private func storageUse() -> [StorageUse] {
        let now = WallClock.engineNanoseconds
        if let cached = storageCache, now - cached.measuredAt < 1_000_000_000 { return cached.uses }
        let uses = HistoryDiskUsage.measure(recorder.directory)
        storageCache = (now, uses)
        return uses
    }

    /// The daemon's status now, as a client of protocol `version` can decode it.
    func status(forVersion version: UInt16 = Framing.version) -> DaemonStatus {
        let statistics = recorder.currentStatistics
        return DaemonStatus(daemonVersion: OpenCoreMotionVersion.string, boardName: board.description.name, boardPath: board.path,
                            boardRunning: historyEnded.withLock { $0 } == nil,
                            uptime: Double(WallClock.engineNanoseconds - started) / 1e9, historyPath: recorder.directory,
                            storage: storageUse(), bytesWrittenSinceStart: UInt64(statistics.bytesWritten),
                            clients: sessions.values.filter(\.greeted).sorted { $0.peer.pid < $1.peer.pid }.map { $0.status(forVersion: version) })
    }
}
