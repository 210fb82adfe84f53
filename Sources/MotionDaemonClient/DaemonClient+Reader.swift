import Glibc
import MotionDaemonProtocol

/// The reader thread: every frame from the daemon, dispatched to stream handlers and waiting
/// queries; a broken connection reported and repaired.
extension DaemonClient {
    /// Starts the reader thread (detached; it holds the client until it returns).
    func spawnReader() {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { context in
            let client = Unmanaged<DaemonClient>.fromOpaque(context!).takeRetainedValue()
            client.readerMain()
            return nil
        }, context)
        // Fails only when the process is out of threads or memory (EAGAIN).
        precondition(created == 0, "OpenCoreMotion: could not start the motiond reader thread (pthread_create: \(created))")
        pthread_detach(thread)
    }

    private func readerMain() {
        var socket = state.withLock { state in
            state.readerThread = pthread_self()
            return state.socket
        }
        while true {
            for message in state.withLock({ state in defer { state.deferred = [] }; return state.deferred }) { dispatch(message) }
            if let connected = socket {
                do {
                    dispatch(try connected.receive(path: path))
                } catch {
                    socket = nil
                    // motiond closes a user who may not have data after the error that says so:
                    // nothing to reconnect for. The reader ends; the next request connects
                    // again (`connectIfIdle`) and hears the same error.
                    if let refusal = state.withLock({ $0.refusalStandingIn }) { return finish(failing: refusal) }
                    guard connectionBroke(error) else { return finish() }
                }
            } else {
                guard let reconnected = reconnect() else { return finish() }
                socket = reconnected
            }
        }
    }

    /// Ends the reader; answers still awaited fail with `failing` (default: closed).
    private func finish(failing: DaemonClientError = DaemonClientError(.closed, "this motiond client was closed", advice: "Make a new one")) {
        let pending = state.withLock { state in
            defer { (state.pending, state.socket, state.readerRunning, state.readerThread, state.deferred) = ([:], nil, false, nil, []) }
            return Array(state.pending.values)
        }
        for answer in pending { answer.fail(failing) }
    }

    /// Routes one message: samples and drop notices to their stream's handler, answers to
    /// the query waiting for them.
    func dispatch(_ message: DaemonMessage) {
        switch message {
        case .samples(let batch):
            handler(of: batch.stream)?(.samples(batch))
        case .dropped(let stream, let count, let total):
            handler(of: stream)?(.dropped(count: count, total: total))
        case .batch(let batch):
            handler(of: batch.stream)?(.batch(batch))
        case .droppedBatches(let drops):
            handler(of: drops.stream)?(.droppedBatches(drops))
        case .ok(let request), .pedometerData(let request, _), .activityRecords(let request, _), .recording(let request, _),
             .status(let request, _):
            answer(request, with: message, last: true)
        case .accelerometerData(let request, let isLast, _):
            answer(request, with: message, last: isLast)
        case .error(let request, let code, let text, let advice):
            let (pending, ended, authorization) = state.withLock { state in
                (state.pending.removeValue(forKey: request), state.resubscriptions.removeValue(forKey: request).flatMap { stream in
                    state.subscriptions.removeValue(forKey: stream)
                }, state.welcome.authorization)
            }
            let error = DaemonClientError.answer(code: code, message: text, advice: advice, authorization: authorization)
            if code == .unauthorized { state.withLock { $0.refusal = error } }
            pending?.fail(error)
            ended?.handler(.ended(error))
        case .welcome:
            break
        }
    }

    private func handler(of stream: WireStream) -> (@Sendable (StreamDelivery) -> Void)? {
        state.withLock { $0.subscriptions[stream]?.handler }
    }

    private func answer(_ request: UInt32, with message: DaemonMessage, last: Bool) {
        let pending = state.withLock { state in
            state.resubscriptions[request] = nil
            return last ? state.pending.removeValue(forKey: request) : state.pending[request]
        }
        pending?.take(message, last: last)
    }

    /// The connection broke: waiting queries fail, streams hear `.interrupted`. False when
    /// the client was closed (the reader then ends).
    private func connectionBroke(_ error: DaemonClientError) -> Bool {
        let (closed, pending, handlers) = state.withLock { state in
            defer { (state.socket, state.pending, state.resubscriptions) = (nil, [:], [:]) }
            return (state.closed, Array(state.pending.values), state.subscriptions.values.map(\.handler))
        }
        let broken = error.kind == .disconnected ? error : DaemonClientError.disconnected(path, error.message)
        for answer in pending { answer.fail(broken) }
        guard !closed else { return false }
        for handler in handlers { handler(.interrupted(broken)) }
        return true
    }

    /// Connects again with backoff, re-subscribes every stream and reports the gap; nil when
    /// closed or after `reconnectLimitSeconds` (the streams then hear `.ended`).
    private func reconnect() -> DaemonSocket? {
        let brokeAt = Self.monotonicSeconds
        var delay = 0.02
        var lastError = DaemonClientError.disconnected(path, "the daemon went away")
        while Self.monotonicSeconds - brokeAt < reconnectLimitSeconds {
            if state.withLock({ $0.closed }) { return nil }
            do {
                let socket = try DaemonSocket.open(path: path, name: name)
                if resubscribe(on: socket, gap: Self.monotonicSeconds - brokeAt) { return socket }
                return nil
            } catch {
                lastError = error
            }
            Self.sleep(seconds: delay)
            delay = min(delay * 2, Self.longestRetryDelay)
        }
        let gaveUp = DaemonClientError(.closed, "motiond at \(path) did not come back within \(Int(reconnectLimitSeconds)) s (last: \(lastError.message))",
                                       advice: "Start motiond (systemctl start motiond); the next request connects again")
        let handlers = state.withLock { state in
            defer { state.subscriptions = [:] }
            return state.subscriptions.values.map(\.handler)
        }
        for handler in handlers { handler(.ended(gaveUp)) }
        return nil
    }

    /// Installs `socket` and sends every stream's subscribe again (the answers come to the
    /// reader, an error ending its stream); each handler hears `.resumed`.
    private func resubscribe(on socket: DaemonSocket, gap: Double) -> Bool {
        let handlers = state.withLock { state -> [@Sendable (StreamDelivery) -> Void]? in
            guard !state.closed else { return nil }
            (state.socket, state.welcome) = (socket, socket.welcome)
            state.reconnections += 1
            state.gaps.append(gap)
            for (stream, subscription) in state.subscriptions {
                let request = state.takeRequestNumber()
                state.resubscriptions[request] = stream
                try? socket.send(subscription.message(request: request, stream: stream), path: path)  // a failed send shows as the next receive's error
            }
            return state.subscriptions.values.map(\.handler)
        }
        guard let handlers else { return false }
        for handler in handlers { handler(.resumed(gapSeconds: gap)) }
        return true
    }

    /// The longest wait between two reconnection tries, s: a try is one connect(2) on a Unix
    /// socket (microseconds), so a daemon that is back is found within a quarter second.
    static let longestRetryDelay = 0.25

    static var monotonicSeconds: Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    private static func sleep(seconds: Double) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}

extension DaemonMessage {
    /// Whether this answers a request (and so completes a pending answer), rather than being
    /// stream data or a notice.
    var answersRequest: Bool {
        switch self {
        case .ok, .pedometerData, .activityRecords, .accelerometerData, .recording, .status: true
        case .error(let request, _, _, _): request != 0
        case .samples, .dropped, .welcome, .batch, .droppedBatches: false
        }
    }
}
