import Glibc

/// A private Eclipse Mosquitto broker on a free loopback port, for the tests and the load
/// measurement (`motionctl mqtt-load`): its own configuration, persistence and log in a
/// temporary folder, anonymous clients allowed (it listens on 127.0.0.1 only). Persistence
/// keeps durable sessions and their queued QoS 1 messages across `restart()` (saved at the
/// SIGTERM), as a production broker would be configured.
package final class LocalBroker {
    package private(set) var port: Int32 = 0
    package let folder: String
    package private(set) var pid: Int32 = 0

    /// Starts `mosquitto` (Debian: the `mosquitto` package, /usr/sbin/mosquitto) and waits until
    /// it accepts connections (up to 60 s).
    package init() throws(LocalBrokerError) {
        var template = Array("/tmp/ocm-mosquitto-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw LocalBrokerError("could not make a temporary folder: \(String(cString: strerror(errno)))") }
        folder = String(cString: made)
        // The free port is found by binding port 0 and letting it go: until mosquitto binds it,
        // another process may take it (an outgoing connection's local port comes from the same
        // range, and the tests beside this one open many), and mosquitto then exits at once with
        // status 1 ("Error: Address already in use"), as it did once in a TSan run of the whole
        // suite (2026-12-06). Another port is tried then, up to five in all.
        var attempt = 1
        while true {
            port = try Self.freePort()
            try writeConfiguration()
            do {
                try launch()
                return
            } catch {
                // Only a broker that exited at start: one that could not be spawned or that hung
                // would do the same on another port.
                guard attempt < 5, error.exitedAtStart else { throw error }
                attempt += 1
            }
        }
    }

    /// mosquitto.conf for `port` in `folder`.
    private func writeConfiguration() throws(LocalBrokerError) {
        let configuration = """
            # Written by OpenCoreMotion's LocalBroker for a test or measurement.
            listener \(port) 127.0.0.1
            allow_anonymous true
            persistence true
            persistence_location \(folder)/
            # Durable subscribers may miss a whole restart's worth of QoS 1 messages: keep them all.
            max_queued_messages 1000000
            log_dest file \(folder)/mosquitto.log
            log_type error
            log_type warning
            log_type notice
            \(getuid() == 0 ? "# Started as root, mosquitto would switch to the user mosquitto, who cannot write this folder.\nuser root\n" : "")
            """
        guard let file = fopen(folder + "/mosquitto.conf", "w") else { throw LocalBrokerError("could not write \(folder)/mosquitto.conf") }
        fputs(configuration, file)
        fclose(file)
    }

    deinit {
        if pid > 0 {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        for name in ["mosquitto.conf", "mosquitto.log", "stdout.log", "mosquitto.db", "mosquitto.db.new"] { unlink(folder + "/" + name) }
        rmdir(folder)
    }

    /// The broker's executable: `mosquitto` on PATH or in /usr/sbin.
    static func executable() throws(LocalBrokerError) -> String {
        let path = (getenv("PATH").map { String(cString: $0) } ?? "").split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/local/sbin"]
        for folder in path where access(folder + "/mosquitto", X_OK) == 0 { return folder + "/mosquitto" }
        throw LocalBrokerError("the mosquitto broker was not found on PATH or in /usr/sbin: install it (apt install mosquitto, or tools/setup.sh test)")
    }

    private func launch() throws(LocalBrokerError) {
        let program = try Self.executable()
        let arguments = [program, "-c", folder + "/mosquitto.conf"]
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, folder + "/stdout.log", O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // The broker must get SIGTERM: a test runner's thread may block it, and a child
        // inherits the signal mask and ignored signals unless reset.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let code = posix_spawn(&child, program, &actions, &attributes, &cArguments, environ)
        guard code == 0 else { throw LocalBrokerError("could not start \(program): \(String(cString: strerror(code)))") }
        pid = child
        // A deadline for a broker that hangs, not a claim on how fast it starts: a loaded
        // machine (a CI run beside sanitizers and fuzzers) may take seconds.
        let deadline = MQTTClock.monotonicSeconds() + 60
        while MQTTClock.monotonicSeconds() < deadline {
            if Self.accepts(port) { return }
            var status: Int32 = 0
            if waitpid(child, &status, WNOHANG) == child {
                pid = 0
                throw LocalBrokerError("mosquitto exited at start (status \(status)); see \(folder)/mosquitto.log and \(folder)/stdout.log",
                                       exitedAtStart: true)
            }
            usleep(25_000)
        }
        throw LocalBrokerError("mosquitto did not accept connections on 127.0.0.1:\(port) within 60 s; see \(folder)/mosquitto.log")
    }

    /// Stops the broker with SIGTERM (it saves its persistence file) and waits for it.
    package func stop() {
        guard pid > 0 else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        pid = 0
    }

    /// Stops the broker, waits `downSeconds`, and starts it again on the same port.
    package func restart(downSeconds: Double) throws(LocalBrokerError) {
        stop()
        usleep(UInt32(downSeconds * 1e6))
        try launch()
    }

    /// User + system CPU time the broker used so far, s (/proc/PID/stat: utime and stime).
    package var cpuSeconds: Double { pid > 0 ? Self.cpuSeconds(of: pid) : 0 }

    /// User + system CPU time of process `pid` so far, s; 0 if it cannot be read.
    package static func cpuSeconds(of pid: Int32) -> Double {
        guard let file = fopen("/proc/\(pid)/stat", "r") else { return 0 }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 1024)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return 0 }
        let line = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        // The command name (field 2) is in parentheses and may hold spaces: count after the last ')'.
        guard let close = line.lastIndex(of: ")") else { return 0 }
        let fields = line[line.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state): utime is field 14, stime field 15.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// A TCP port on 127.0.0.1 nobody listens on now (bound to port 0, then released).
    static func freePort() throws(LocalBrokerError) -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw LocalBrokerError("could not open a socket: \(String(cString: strerror(errno)))") }
        defer { close(socket) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw LocalBrokerError("could not find a free loopback port: \(String(cString: strerror(errno)))") }
        return Int32(UInt16(bigEndian: address.sin_port))
    }

    /// 127.0.0.1:`port`.
    static func loopback(port: Int32) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }

    static func accepts(_ port: Int32) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

package struct LocalBrokerError: Error, Sendable, CustomStringConvertible {
    package let description: String
    /// The broker process started and exited before it accepted a connection (its port taken,
    /// a bad configuration), as opposed to one that could not be spawned or did not answer.
    package let exitedAtStart: Bool
    init(_ description: String, exitedAtStart: Bool = false) {
        self.description = description
        self.exitedAtStart = exitedAtStart
    }
}
