internal import Glibc
import MotionDaemonProtocol
import MotionManagerCore

/// Who gets a connection and for how long (poll loop thread).
///
/// A connection costs the daemon a descriptor and a session, so nothing that cannot be served
/// is kept: a connection over the limits (`maximumClients` in all, `maximumClientsPerUser` per
/// uid) is told why and closed as it is accepted; one that does not say hello in time, or
/// leaves a frame unfinished as long, is closed; a user who may not have motion data is closed
/// after the answer that says so (the welcome told it its status). When the process runs out
/// of descriptors anyway, the spare one is given up to accept and refuse the waiting
/// connection, so the listener never stays readable with nothing accepted (a busy loop).
extension Daemon {
    /// Accepts what waits, at most a listen backlog's worth (64) a round, so that a flood of
    /// connections cannot keep the loop from the clients it has.
    func acceptClients() {
        for _ in 0..<64 {
            let descriptor = accept(listener.descriptor, nil, nil)
            guard descriptor >= 0 else {
                if errno == EINTR { continue }
                if errno == EMFILE || errno == ENFILE { refuseWithoutDescriptors() }
                return  // EAGAIN: none left; other errors: that client is gone
            }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            guard let peer = PeerCredentials.of(socket: descriptor) else {
                close(descriptor)
                continue
            }
            if let (message, advice) = refusal(of: peer) {
                DaemonLog.say("refused a connection of pid \(peer.pid) (user \(peer.userName), uid \(peer.uid)): \(message)")
                Self.refuseAndClose(descriptor, message, advice: advice)
                continue
            }
            var size = ClientSession.socketBufferBytes
            setsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            sessions[descriptor] = ClientSession(descriptor: descriptor, peer: peer, decision: policy.decide(peer),
                                                 outbox: ClientOutbox(wakeup: wakeup), acceptedAt: WallClock.engineNanoseconds)
            connectionsByUser[peer.uid, default: 0] += 1
        }
    }

    /// Why `peer` gets no connection now (message, advice), or nil.
    private func refusal(of peer: PeerCredentials) -> (String, String)? {
        if sessions.count >= configuration.maximumClients {
            return ("motiond already serves \(configuration.maximumClients) connections, its limit",
                    "Close some motion clients (motionctl status lists them), or raise motiond's --max-clients.")
        }
        let held = connectionsByUser[peer.uid] ?? 0
        if held >= configuration.maximumClientsPerUser {
            return ("user \(peer.userName) (uid \(peer.uid)) already has \(held) connection\(held == 1 ? "" : "s") to motiond, its limit per user",
                    "Close some of that user's motion clients (motionctl status lists them), or raise motiond's --max-clients-per-user.")
        }
        return nil
    }

    /// Out of descriptors: gives up the spare to accept one waiting connection, tells it why
    /// and closes it, then takes the spare again. Without a spare, accepting pauses 100 ms
    /// (the waiting connections stay in the kernel's backlog).
    private func refuseWithoutDescriptors() {
        let problem = "motiond has no file descriptor left (\(String(cString: strerror(errno))))"
        DaemonLog.say("\(problem) with \(sessions.count) connections: refusing new ones. Raise LimitNOFILE in motiond.service, or lower --max-clients and --max-clients-per-user.")
        if spareDescriptor < 0 { spareDescriptor = open("/dev/null", O_RDONLY | O_CLOEXEC) }  // a descriptor freed since
        guard spareDescriptor >= 0 else {
            acceptPausedUntil = WallClock.engineNanoseconds + 100_000_000
            return
        }
        close(spareDescriptor)
        let descriptor = accept(listener.descriptor, nil, nil)
        if descriptor >= 0 {
            Self.refuseAndClose(descriptor, problem, advice: "Try again later; the administrator can raise motiond's LimitNOFILE.")
        }
        spareDescriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    /// Sends a connection-level error on a socket that has no session and closes it. The send
    /// does not block (a new connection's send buffer is empty); what the client sent is read
    /// first, because closing a Unix socket with unread data makes the peer's next read fail
    /// with ECONNRESET instead of returning the error.
    static func refuseAndClose(_ descriptor: Int32, _ message: String, advice: String) {
        let bytes = DaemonMessage.error(request: 0, code: .notAvailable, message: message, advice: advice).frame.bytes
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        var scratch = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<16 {  // a hello's worth, not a stream the client keeps sending
            guard recv(descriptor, &scratch, scratch.count, Int32(MSG_DONTWAIT)) > 0 else { break }
        }
        close(descriptor)
    }

    func acceptsConnections(now: Int64) -> Bool { now >= acceptPausedUntil }

    /// Closes the connections that did not say hello, or finish a frame, in time.
    func closeLateClients(now: Int64) {
        let timeout = configuration.handshakeTimeoutNanoseconds
        let seconds = Self.secondsText(timeout)
        for session in Array(sessions.values) {
            if !session.greeted, now - session.acceptedAt >= timeout {
                refuse(session, code: .badRequest, "No hello within \(seconds) s of connecting",
                       advice: "Send hello at once after connecting (the OpenCoreMotion client libraries do).")
            } else if let since = session.partialFrameSince, now - since >= timeout {
                refuse(session, code: .badRequest, "Only \(session.reader.bufferedByteCount) bytes of a frame arrived within \(seconds) s",
                       advice: "Send each frame whole (the OpenCoreMotion client libraries do).")
            } else {
                continue
            }
            DaemonLog.say("closed the connection of pid \(session.peer.pid) (user \(session.peer.userName)): \(session.greeted ? "a frame left unfinished" : "no hello") for \(seconds) s")
            flushOrEnd(session)
        }
    }

    /// How long poll may wait: a second at most (the log's summaries), less until the next
    /// deadline of a connection.
    func pollTimeoutMilliseconds(now: Int64) -> Int32 {
        var next = now + 1_000_000_000
        if acceptPausedUntil > now { next = min(next, acceptPausedUntil) }
        let timeout = configuration.handshakeTimeoutNanoseconds
        for session in sessions.values {
            if !session.greeted { next = min(next, session.acceptedAt + timeout) }
            if let since = session.partialFrameSince { next = min(next, since + timeout) }
        }
        return Int32(max(0, (next - now + 999_999) / 1_000_000))
    }

    static func secondsText(_ nanoseconds: Int64) -> String {
        let seconds = Double(nanoseconds) / 1e9
        return seconds == seconds.rounded() ? String(Int64(seconds)) : String(seconds)
    }
}
