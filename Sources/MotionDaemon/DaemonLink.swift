internal import Glibc
package import MotionDaemonProtocol

/// A blocking connection to motiond for tools and tests (`motionctl status`, `motionctl
/// history`, MotionDaemonTests): connect, hello, then requests and the frames that answer
/// them. The APIs' own client (reconnecting, streaming) is built on the same protocol module.
package final class DaemonLink {
    package let descriptor: Int32
    package let welcome: DaemonMessage.Welcome
    private var reader = FrameReader()
    private var nextRequest: UInt32 = 1

    /// The socket clients use: `OPENCOREMOTION_SOCKET`, else the system daemon's.
    package static var defaultSocketPath: String {
        getenv("OPENCOREMOTION_SOCKET").map { String(cString: $0) } ?? Framing.defaultSocketPath
    }

    /// Connects to the daemon at `path` and says hello; throws a message for people.
    package init(path: String = DaemonLink.defaultSocketPath, name: String) throws(DaemonError) {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw DaemonError("socket failed: \(String(cString: strerror(errno)))", advice: "") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw DaemonError("motiond is not reachable at \(path): \(String(cString: strerror(code)))",
                              advice: code == ENOENT || code == ECONNREFUSED
                                ? "Start it (systemctl start motiond), or point OPENCOREMOTION_SOCKET at its --socket."
                                : "Check the socket's permissions.")
        }
        descriptor = fd
        do throws(DaemonError) {
            try Self.send(ClientMessage.hello(version: Framing.version, name: name).frame, on: fd)
            var reader = FrameReader()
            let answer = try Self.receive(&reader, on: fd)
            switch answer {
            case .welcome(let welcome):
                self.welcome = welcome
                self.reader = reader
            case .error(_, _, let message, let advice):
                throw DaemonError("motiond refused the connection: \(message)", advice: advice)
            default:
                throw DaemonError("motiond answered hello with \(answer)", advice: "Use motionctl of the same release as motiond.")
            }
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(descriptor) }

    /// Makes `receive` fail after `seconds` without data (SO_RCVTIMEO), instead of waiting forever.
    package func setReceiveTimeout(_ seconds: Double) {
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends `make(request number)`; returns the number.
    @discardableResult
    package func send(_ make: (UInt32) -> ClientMessage) throws(DaemonError) -> UInt32 {
        let request = nextRequest
        nextRequest &+= 1
        try Self.send(make(request).frame, on: descriptor)
        return request
    }

    /// The next message from the daemon (blocking).
    package func receive() throws(DaemonError) -> DaemonMessage {
        try Self.receive(&reader, on: descriptor)
    }

    /// Sends a request and returns the first message answering it (samples and notices
    /// arriving meanwhile are skipped); a typed error is thrown as a `DaemonError`.
    package func ask(_ make: (UInt32) -> ClientMessage) throws(DaemonError) -> DaemonMessage {
        let request = try send(make)
        while true {
            let message = try receive()
            switch message {
            case .error(let number, _, let text, let advice) where number == request || number == 0:
                throw DaemonError(text, advice: advice)
            case .ok(let number) where number == request: return message
            case .pedometerData(let number, _) where number == request: return message
            case .activityRecords(let number, _) where number == request: return message
            case .accelerometerData(let number, _, _) where number == request: return message
            case .recording(let number, _) where number == request: return message
            case .status(let number, _) where number == request: return message
            default: continue
            }
        }
    }

    static func send(_ frame: Frame, on descriptor: Int32) throws(DaemonError) {
        let bytes = frame.bytes
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                throw DaemonError("sending to motiond failed: \(String(cString: strerror(errno)))", advice: "Is motiond still running? (motionctl status)")
            }
            offset += sent
        }
    }

    static func receive(_ reader: inout FrameReader, on descriptor: Int32) throws(DaemonError) -> DaemonMessage {
        do throws(ProtocolError) {
            let frame = try reader.nextFrame { buffer in
                while true {
                    let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
                    if count >= 0 { return count }
                    if errno != EINTR { return -Int(errno) }
                }
            }
            return try DaemonMessage(frame)
        } catch {
            throw DaemonError("reading from motiond failed: \(error)", advice: error.kind == .closed ? "motiond stopped or closed the connection: see its log (journalctl -u motiond)." : "")
        }
    }
}
