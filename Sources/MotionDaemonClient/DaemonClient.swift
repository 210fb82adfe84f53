import Glibc
public import MotionDaemonProtocol
import Locking

/// A connection to motiond for one API object (a motion manager, a pedometer, a recorder):
/// streams delivered to handlers on the client's reader thread, queries answered to the
/// calling thread, and a daemon that goes away handled by itself.
///
/// **Surviving a daemon restart**: when the connection breaks, every stream's handler gets
/// `.interrupted`; the reader thread reconnects (20 ms, doubling to 250 ms between tries, for
/// at most `reconnectLimitSeconds`), says hello again, re-subscribes every stream with its
/// interval (a pedometer stream keeps its `from`, so its counts continue from the daemon's
/// history), and each handler gets `.resumed(gapSeconds:)`. Past the limit, handlers get
/// `.ended` and later requests try to connect afresh. Queries made while disconnected fail at
/// once with `disconnected` (the caller decides whether to retry); they are never answered twice.
///
/// Thread-safe: every member may be used from any thread. `close()` ends the reader thread
/// (which holds the client alive until then).
public final class DaemonClient: Sendable {
    /// The socket path used.
    public let path: String
    /// The name `motionctl status` shows for this client.
    public let name: String
    /// How long the reader tries to reconnect before it gives up, s.
    public let reconnectLimitSeconds: Double
    /// How long a query waits for its answer, s.
    public let answerTimeoutSeconds: Double

    struct Subscription {
        var interval: Double
        var from: Double
        var frame: UInt8
        /// An altitude stream's sea-level pressure and its uncertainty, kPa (nil for the others).
        var altitudeReference: (seaLevelPressure: Double, uncertainty: Double)? = nil
        var handler: @Sendable (StreamDelivery) -> Void

        /// The request that starts it (again, after a reconnect).
        func message(request: UInt32, stream: WireStream) -> ClientMessage {
            if let altitudeReference {
                return .subscribeAltitude(request: request, stream: stream, seaLevelPressure: altitudeReference.seaLevelPressure,
                                          uncertainty: altitudeReference.uncertainty)
            }
            return .subscribe(request: request, stream: stream, interval: interval, from: from, frame: frame)
        }
    }

    struct State {
        var socket: DaemonSocket?
        var welcome: DaemonMessage.Welcome
        var subscriptions: [WireStream: Subscription] = [:]
        var pending: [UInt32: PendingAnswer] = [:]
        /// Re-subscriptions sent by the reader after a reconnect, by request: an error answer ends that stream.
        var resubscriptions: [UInt32: WireStream] = [:]
        var nextRequest: UInt32 = 1
        var readerRunning = false
        /// The reader thread, to recognise calls made from a stream handler.
        var readerThread: pthread_t?
        /// What the reader read while a handler on it waited for an answer (samples, notices):
        /// dispatched once the handler returns, in order.
        var deferred: [DaemonMessage] = []
        /// The daemon's last `unauthorized` answer. motiond closes a user who may not have data
        /// after that answer, so a request that then finds the connection gone gets it instead
        /// of `disconnected`.
        var refusal: DaemonClientError?
        var closed = false
        /// Successful reconnections after a break.
        var reconnections = 0
        /// Wall-clock seconds of each break, from the break to the re-subscription.
        var gaps: [Double] = []

        /// The refusal that explains a connection gone, for a user the daemon does not authorize.
        var refusalStandingIn: DaemonClientError? { welcome.authorization == .authorized ? nil : refusal }

        mutating func takeRequestNumber() -> UInt32 {
            defer { nextRequest = nextRequest == UInt32.max ? 1 : nextRequest + 1 }
            return nextRequest
        }
    }

    let state: Lock<State>
    /// One query at a time: the daemon answers a second one with `busy`.
    private let queryGate = Lock(())

    /// `OPENCOREMOTION_SOCKET`, else the system daemon's `/run/opencoremotion/motiond.sock`.
    public static var socketPath: String {
        getenv("OPENCOREMOTION_SOCKET").map { String(cString: $0) } ?? Framing.defaultSocketPath
    }

    /// `OPENCOREMOTION_NO_DAEMON=1` (any value but empty or 0): the APIs use the in-process engine
    /// even when motiond runs.
    public static var isDisabledByEnvironment: Bool {
        guard let value = getenv("OPENCOREMOTION_NO_DAEMON").map({ String(cString: $0) }) else { return false }
        return !value.isEmpty && value != "0"
    }

    /// Connects to motiond at `path` and says hello as `name`. Throws `notRunning` when no
    /// daemon listens there (the caller then uses the in-process engine).
    public init(path: String = DaemonClient.socketPath, name: String, reconnectLimitSeconds: Double = 30,
                answerTimeoutSeconds: Double = 30) throws(DaemonClientError) {
        let socket = try DaemonSocket.open(path: path, name: name)
        (self.path, self.name) = (path, name)
        (self.reconnectLimitSeconds, self.answerTimeoutSeconds) = (reconnectLimitSeconds, answerTimeoutSeconds)
        state = Lock(State(socket: socket, welcome: socket.welcome, readerRunning: true))
        spawnReader()
    }

    /// Ends the connection and the reader thread; pending queries fail with `closed`. Streams
    /// get nothing more.
    public func close() {
        let socket = state.withLock { state -> DaemonSocket? in
            state.closed = true
            state.subscriptions = [:]
            return state.socket
        }
        socket?.shutDown()
    }

    /// The daemon's welcome on the current (or last) connection: its board, sensors and what
    /// this user may do.
    public var welcome: DaemonMessage.Welcome { state.withLock { $0.welcome } }

    public var isConnected: Bool { state.withLock { $0.socket != nil } }

    /// Reconnections after a break so far, and the gap of each (s).
    public var reconnections: (count: Int, gapSeconds: [Double]) { state.withLock { ($0.reconnections, $0.gaps) } }

    // MARK: Streams

    /// Starts `stream` (or changes its interval, s) with `handler` for its deliveries; `from`
    /// (wall-clock s) is where a pedometer stream's cumulative counts start; `frame` a
    /// `CMAttitudeReferenceFrame` bit for device motion. Returns once the daemon accepted it;
    /// while the daemon is away (reconnecting) it is kept and sent when the connection is back.
    public func subscribe(_ stream: WireStream, interval: Double = 0, from: Double = 0, frame: UInt8 = 0,
                          handler: @escaping @Sendable (StreamDelivery) -> Void) throws(DaemonClientError) {
        try checkVersion(for: stream)
        try start(stream, Subscription(interval: interval, from: from, frame: frame, handler: handler))
    }

    /// Starts (or restarts, relative altitude from 0 again) the altitude `stream`, absolute
    /// altitude measured against `seaLevelPressure` kPa known to `uncertainty` kPa; as
    /// `subscribe` otherwise. A reconnect restarts it the same way (a new first update).
    public func subscribeAltitude(_ stream: WireStream, seaLevelPressure: Double, uncertainty: Double,
                                  handler: @escaping @Sendable (StreamDelivery) -> Void) throws(DaemonClientError) {
        try checkVersion(for: stream)
        try start(stream, Subscription(interval: 0, from: 0, frame: 0, altitudeReference: (seaLevelPressure, uncertainty), handler: handler))
    }

    /// Throws unless the daemon's protocol version has `stream` (an older daemon would close the
    /// connection on its byte).
    private func checkVersion(for stream: WireStream) throws(DaemonClientError) {
        let version = welcome.version
        guard version < stream.introducedInVersion else { return }
        let what = stream.isAltitude ? "altitude" : stream.isBatched ? "batched sensors" : stream.name
        throw DaemonClientError(.rejected(.notAvailable), "motiond at \(path) speaks protocol version \(version), which has no \(what)",
                                advice: "Update motiond to the release of this OpenCoreMotion")
    }

    private func start(_ stream: WireStream, _ subscription: Subscription) throws(DaemonClientError) {
        do {
            let sent = try send(keeping: { $0.subscriptions[stream] = subscription }) { subscription.message(request: $0, stream: stream) }
            if let sent { _ = try answer(sent) }
        } catch {
            if case .disconnected = error.kind { return }  // kept: re-sent when reconnected
            state.withLock { state in _ = state.subscriptions.removeValue(forKey: stream) }
            throw error
        }
    }

    /// Stops `stream`: once this returns, its handler gets nothing more.
    public func unsubscribe(_ stream: WireStream) {
        let sent = try? send(keeping: { $0.subscriptions[stream] = nil }) { .unsubscribe(request: $0, stream: stream) }
        if let sent { _ = try? answer(sent) }
    }

    // MARK: Queries

    /// What was counted in [from, to) (wall-clock s), from the daemon's history.
    public func pedometer(from: Double, to: Double) throws(DaemonClientError) -> PedometerSample {
        for message in try query({ .queryPedometer(request: $0, from: from, to: to) }) {
            if case .pedometerData(_, let data) = message { return data }
        }
        throw unexpected("a pedometer query")
    }

    /// The activity records overlapping [from, to) (wall-clock s), oldest first.
    public func activity(from: Double, to: Double) throws(DaemonClientError) -> [ActivitySample] {
        for message in try query({ .queryActivity(request: $0, from: from, to: to) }) {
            if case .activityRecords(_, let records) = message { return records }
        }
        throw unexpected("an activity query")
    }

    /// The recorded accelerometer in [from, to) (wall-clock s, at most 12 h), oldest first.
    public func accelerometer(from: Double, to: Double) throws(DaemonClientError) -> [RecordedSample] {
        var samples: [RecordedSample] = []
        for case .accelerometerData(_, _, let part) in try query({ .queryAccelerometer(request: $0, from: from, to: to) }) {
            samples += part
        }
        return samples
    }

    /// Asks the daemon to keep recording the accelerometer for `duration` s (≤ 12 h); returns
    /// until when it records (wall-clock s).
    public func recordAccelerometer(duration: Double) throws(DaemonClientError) -> Double {
        for message in try query({ .recordAccelerometer(request: $0, duration: duration) }) {
            if case .recording(_, let until) = message { return until }
        }
        throw unexpected("a recording request")
    }

    public func status() throws(DaemonClientError) -> DaemonStatus {
        for message in try query({ .status(request: $0) }) {
            if case .status(_, let status) = message { return status }
        }
        throw unexpected("a status request")
    }

    // MARK: Sending

    /// Sends `make(request)` with a pending answer, after applying `keep` to the state (under
    /// the same lock, so the reader never sees one without the other). Nil when disconnected
    /// but `keep` made it worth keeping (a subscription); throws when the client is closed.
    private func send(keeping keep: (inout State) -> Void = { _ in },
                      _ make: (UInt32) -> ClientMessage) throws(DaemonClientError) -> PendingAnswer? {
        try connectIfIdle()
        let pending = PendingAnswer()
        return try state.withLock { state throws(DaemonClientError) -> PendingAnswer? in
            guard !state.closed else { throw DaemonClientError(.closed, "this motiond client was closed", advice: "Make a new one") }
            keep(&state)
            guard let socket = state.socket else {
                if let refusal = state.refusalStandingIn { throw refusal }
                return nil
            }
            let request = state.takeRequestNumber()
            state.pending[request] = pending
            do throws(DaemonClientError) {
                try socket.send(make(request), path: path)
            } catch {
                state.pending[request] = nil
                if error.kind == .disconnected, let refusal = state.refusalStandingIn { throw refusal }
                throw error
            }
            return pending
        }
    }

    private func query(_ make: (UInt32) -> ClientMessage) throws(DaemonClientError) -> [DaemonMessage] {
        try queryGate.withLock { _ throws(DaemonClientError) -> [DaemonMessage] in
            guard let pending = try send(make) else {
                throw DaemonClientError.disconnected(path, "the client is reconnecting")
            }
            return try answer(pending)
        }
    }

    /// `pending`'s messages. A handler running on the reader thread (a C callback that queries
    /// or stops a stream, as opencoremotion.h allows) cannot wait for the reader: it reads the
    /// socket itself until its answer comes, keeping everything else for after it returns.
    private func answer(_ pending: PendingAnswer) throws(DaemonClientError) -> [DaemonMessage] {
        guard isReaderThread else { return try pending.wait(seconds: answerTimeoutSeconds) }
        while !pending.isFinished {
            guard let socket = state.withLock({ $0.socket }) else { throw DaemonClientError.disconnected(path, "the client is reconnecting") }
            let message = try socket.receive(path: path)
            if message.answersRequest {
                dispatch(message)
            } else {
                state.withLock { $0.deferred.append(message) }
            }
        }
        return try pending.wait(seconds: 0)
    }

    /// Whether the caller is this client's reader thread (inside a stream handler).
    var isReaderThread: Bool {
        state.withLock { state in state.readerThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    private func unexpected(_ what: String) -> DaemonClientError {
        DaemonClientError(.protocolViolation, "motiond answered \(what) with another message", advice: "Use OpenCoreMotion of the same release as motiond")
    }

    /// After the reader gave up reconnecting, a new request tries once more to connect (and
    /// restarts the reader).
    private func connectIfIdle() throws(DaemonClientError) {
        let idle = state.withLock { !$0.closed && $0.socket == nil && !$0.readerRunning }
        guard idle else { return }
        let socket = try DaemonSocket.open(path: path, name: name)
        let spawn = state.withLock { state -> Bool in
            guard !state.readerRunning, !state.closed else { return false }
            (state.socket, state.welcome, state.readerRunning) = (socket, socket.welcome, true)
            return true
        }
        if spawn { spawnReader() }
    }
}
