import Glibc
import MotionDaemonProtocol

/// One connected Unix stream socket to motiond, after the handshake: frames out (`send`),
/// frames in (`receive`, blocking).
///
/// `@unchecked Sendable`, and why it is safe: `descriptor` and `welcome` are constants; the
/// only mutable part, the frame reader, is used by `receive` alone, which only the client's
/// reader thread calls; `send` is called only under the client's state lock (one at a time);
/// `shutDown` is a single thread-safe system call.
final class DaemonSocket: @unchecked Sendable {
    let descriptor: Int32
    let welcome: DaemonMessage.Welcome
    private var reader = FrameReader()

    /// Connects to `path` and says hello as `name` in this protocol's version, or, when the
    /// daemon is of an older release that refuses it, in each older version in turn until one
    /// is welcome (everything but what later versions added works; `welcome.version` tells
    /// which). Throws `notRunning` when nothing listens there.
    static func open(path: String, name: String) throws(DaemonClientError) -> DaemonSocket {
        var version = Framing.version
        while true {
            do {
                return try DaemonSocket(path: path, name: name, version: version)
            } catch where error.kind == .rejected(.unsupportedVersion) && version > Framing.oldestVersion {
                version -= 1
            }
        }
    }

    /// Connects to `path` and says hello as `name` in protocol `version`; the welcome must come
    /// within `handshakeSeconds`. Throws `notRunning` when nothing listens there.
    private init(path: String, name: String, version: UInt16, handshakeSeconds: Double = 5) throws(DaemonClientError) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else {
            throw DaemonClientError(.notRunning, "the socket path \(path) is \(path.utf8.count) bytes long; Unix sockets allow \(capacity - 1)",
                                    advice: "Set OPENCOREMOTION_SOCKET to a shorter path")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            throw DaemonClientError(.notRunning, "socket(AF_UNIX) failed: \(String(cString: strerror(errno)))", advice: "The process is out of file descriptors")
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            let missing = code == ENOENT || code == ECONNREFUSED
            throw DaemonClientError(missing ? .notRunning : .unauthorized(.denied),
                                    "motiond is not reachable at \(path): \(String(cString: strerror(code)))",
                                    advice: missing ? "Start it (systemctl start motiond), or point OPENCOREMOTION_SOCKET at its --socket"
                                        : "Check the permissions of the socket and its folder")
        }
        descriptor = fd
        do throws(DaemonClientError) {
            Self.setReceiveTimeout(fd, handshakeSeconds)
            do throws(DaemonClientError) {
                try Self.send(ClientMessage.hello(version: version, name: name).frame, on: fd, path: path)
            } catch {
                // motiond may have refused and closed before the hello arrived (its limits are
                // checked at accept): the refusal already waits in this socket, and it, not the
                // broken pipe, says why and what to do.
                if case .error(_, let code, let message, let advice)? = try? Self.receive(&reader, on: fd, path: path) {
                    throw DaemonClientError(.rejected(code), "motiond refused the connection: \(message)", advice: advice)
                }
                throw error
            }
            let answer = try Self.receive(&reader, on: fd, path: path)
            Self.setReceiveTimeout(fd, 0)
            switch answer {
            case .welcome(let welcome):
                self.welcome = welcome
            case .error(_, let code, let message, let advice):
                throw DaemonClientError(.rejected(code), "motiond refused the connection: \(message)", advice: advice)
            default:
                throw DaemonClientError(.protocolViolation, "motiond at \(path) answered hello with a \(answer) message",
                                        advice: "Use OpenCoreMotion of the same release as motiond")
            }
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(descriptor) }

    /// Wakes a `receive` blocked on another thread (it then sees the end of the stream).
    func shutDown() { shutdown(descriptor, Int32(SHUT_RDWR)) }

    func send(_ message: ClientMessage, path: String) throws(DaemonClientError) {
        try Self.send(message.frame, on: descriptor, path: path)
    }

    /// The next message (blocking).
    func receive(path: String) throws(DaemonClientError) -> DaemonMessage {
        try Self.receive(&reader, on: descriptor, path: path)
    }

    private static func setReceiveTimeout(_ fd: Int32, _ seconds: Double) {
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    private static func send(_ frame: Frame, on fd: Int32, path: String) throws(DaemonClientError) {
        let bytes = frame.bytes
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                throw DaemonClientError.disconnected(path, "send: \(String(cString: strerror(errno)))")
            }
            offset += sent
        }
    }

    private static func receive(_ reader: inout FrameReader, on fd: Int32, path: String) throws(DaemonClientError) -> DaemonMessage {
        do throws(ProtocolError) {
            let frame = try reader.nextFrame { buffer in
                while true {
                    let count = recv(fd, buffer.baseAddress, buffer.count, 0)
                    if count >= 0 { return count }
                    if errno != EINTR { return -Int(errno) }
                }
            }
            return try DaemonMessage(frame)
        } catch {
            switch error.kind {
            case .closed: throw DaemonClientError.disconnected(path, error.message)
            case .readFailed where error.code == Int(EAGAIN):
                throw DaemonClientError(.timedOut, "motiond at \(path) did not answer in time", advice: "Is it overloaded or stopped? (motionctl status)")
            case .readFailed: throw DaemonClientError.disconnected(path, error.message)
            default:
                throw DaemonClientError(.protocolViolation, "motiond at \(path) sent bytes that are not its protocol: \(error.message)",
                                        advice: "Check that the socket belongs to motiond of the same release")
            }
        }
    }
}
