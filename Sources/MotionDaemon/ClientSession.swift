internal import Glibc
import MotionDaemonProtocol
import MotionManagerCore

/// One connected client, confined to the poll loop's thread: its socket, who it is and what it
/// may do, the frames it sent not yet whole, what waits to go out, and its live streams.
final class ClientSession {
    let descriptor: Int32
    let peer: PeerCredentials
    let decision: AccessPolicy.Decision
    let outbox: ClientOutbox
    /// The name from its hello (empty before).
    var name = ""
    /// The protocol version of its hello: what it can decode.
    var version = Framing.version
    var greeted = false
    /// Set after a refusal (a connection-level error, or a request of a user who may not): what
    /// the socket takes of the output is sent, then it is closed at once.
    var closing = false
    /// Frames up to the longest a client can send: a peer cannot make the daemon buffer more.
    var reader = FrameReader(maximumFrameLength: Framing.longestClientFrameLength)
    /// When the connection was accepted (CLOCK_MONOTONIC ns): its hello must come within
    /// `DaemonConfiguration.handshakeTimeoutNanoseconds`.
    let acceptedAt: Int64
    /// Since when part of a frame has waited for the rest (nil: none): a frame must be whole
    /// within the same deadline, or a client sending a byte now and then holds the connection.
    var partialFrameSince: Int64?
    /// Bytes taken from the outbox and not yet accepted by the socket, from `writeOffset`.
    private var writeBuffer: [UInt8] = []
    private var writeOffset = 0
    var subscriptions: [WireStream: StreamSubscription] = [:]

    /// Bytes held here before the outbox is left to fill (and drop).
    static let writeBufferLimit = 16 * 1024
    /// The socket's send buffer (SO_SNDBUF; the kernel doubles it for its bookkeeping): what a
    /// client that stopped reading can have in flight.
    static let socketBufferBytes: Int32 = 64 * 1024

    init(descriptor: Int32, peer: PeerCredentials, decision: AccessPolicy.Decision, outbox: ClientOutbox, acceptedAt: Int64) {
        (self.descriptor, self.peer, self.decision, self.outbox, self.acceptedAt) = (descriptor, peer, decision, outbox, acceptedAt)
    }

    var wantsToWrite: Bool { writeOffset < writeBuffer.count }

    /// Bytes of answers waiting for this client, in the outbox and here (samples are bounded
    /// by the outbox; answers are never dropped, so their growth is bounded by reading no
    /// more requests while this is large).
    var unsentAnswerBytes: Int { outbox.replyBacklog + writeBuffer.count - writeOffset }

    /// Moves what waits in the outbox to the socket as far as it takes it without blocking.
    /// Returns false if the connection broke.
    func flush() -> Bool {
        if writeBuffer.count - writeOffset < Self.writeBufferLimit {
            let bytes = outbox.takeBytes()
            if !bytes.isEmpty {
                if writeOffset > 0 {
                    writeBuffer.removeFirst(writeOffset)
                    writeOffset = 0
                }
                writeBuffer += bytes
            }
        }
        while writeOffset < writeBuffer.count {
            let sent = writeBuffer.withUnsafeBytes { buffer in
                send(descriptor, buffer.baseAddress! + writeOffset, buffer.count - writeOffset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if sent > 0 {
                writeOffset += sent
            } else if sent < 0 && errno == EINTR {
                continue
            } else if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                return true
            } else {
                return false
            }
        }
        writeBuffer.removeAll(keepingCapacity: writeBuffer.capacity <= 4 * Self.writeBufferLimit)
        writeOffset = 0
        return true
    }

    /// Its line in `status`.
    var status: ClientStatus {
        ClientStatus(name: name, pid: peer.pid, uid: peer.uid, authorization: decision.status,
                     streams: subscriptions.sorted { $0.key.rawValue < $1.key.rawValue }.map { ($0.key, $0.value.intervalSeconds) },
                     dropped: outbox.droppedTotal)
    }

    /// `status` as a reader of protocol `version` can decode it: a version 1 reader knows
    /// streams 0…6 only, a version 2 reader 0…8 (an unknown stream byte is an error to it), so
    /// the streams of later versions are left out of what it is told.
    func status(forVersion version: UInt16) -> ClientStatus {
        var status = status
        status.streams.removeAll { $0.stream.introducedInVersion > version }
        return status
    }
}

/// One live stream of one client, as the board's engine, pedometer or activity classifier
/// holds it.
enum StreamSubscription {
    case engine(EngineSubscription, intervalSeconds: Double)
    case pedometer(PedometerSubscription)
    case activity(ActivitySubscription)
    /// An altitude stream: its own stage (`AltimeterSubscription`) fed by its own tap on the
    /// board's barometer and thermometer, as an in-process altimeter's start has.
    case altitude(AltimeterSubscription, ReadingTap)
    /// A batched stream: the engine's batched client, whose batches go to the outbox.
    case batched(BatchedClient)

    var intervalSeconds: Double {
        if case .engine(_, let interval) = self { return interval }
        return 0
    }
}
