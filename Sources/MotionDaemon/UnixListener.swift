internal import Glibc

/// The daemon's listening Unix stream socket.
///
/// The socket file is made connectable by everyone (0666): who may have data is decided per
/// connection from SO_PEERCRED, so that a user who may not is told why and what to do. A stale
/// socket file (no one listens on it: a daemon that was killed) is replaced; a live one means
/// another motiond runs, and this one refuses to start.
struct UnixListener {
    let descriptor: Int32
    let path: String

    init(path: String) throws(DaemonError) {
        self.path = path
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else {
            throw DaemonError("the socket path \(path) is \(path.utf8.count) bytes long; Unix sockets allow \(capacity - 1)", advice: "Use a shorter --socket path.")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
        }
        if Self.someoneListens(&address) {
            throw DaemonError("another motiond already listens on \(path)", advice: "Stop it first (systemctl stop motiond), or give this one another --socket.")
        }
        unlink(path)  // a stale socket of a killed daemon, or nothing
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Self.failure("socket", path) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            let error = Self.failure("bind", path)
            Glibc.close(descriptor)
            throw error
        }
        chmod(path, 0o666)
        guard listen(descriptor, 64) == 0 else {
            let error = Self.failure("listen", path)
            Glibc.close(descriptor)
            throw error
        }
    }

    /// Removes the socket file and closes the socket.
    func close() {
        unlink(path)
        Glibc.close(descriptor)
    }

    private static func someoneListens(_ address: inout sockaddr_un) -> Bool {
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { Glibc.close(probe) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
    }

    private static func failure(_ call: String, _ path: String) -> DaemonError {
        let code = errno
        let advice = code == EACCES || code == ENOENT
            ? "Create the socket's folder and make it writable by motiond's user (systemd's RuntimeDirectory does), or use --socket."
            : "Check the socket's folder and file system."
        return DaemonError("\(call) on \(path) failed: \(String(cString: strerror(code)))", advice: advice)
    }
}
