import Foundation
import MotionDaemon
import MotionDaemonProtocol
import Locking

/// A bare Unix socket to motiond, for what no client library does: connect and say nothing,
/// send part of a frame, send hostile bytes, never read.
final class RawConnection {
    let descriptor: Int32

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw DaemonTestError("socket failed: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            throw DaemonTestError("connect to \(path) failed: \(String(cString: strerror(code)))")
        }
    }

    deinit { close(descriptor) }

    /// Sends all of `bytes` (false if the daemon closed the connection).
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Sends what the socket takes without waiting; the bytes it took.
    func sendWithoutWaiting(_ bytes: [UInt8]) -> Int {
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        return max(sent, 0)
    }

    private var pending = FrameReader()
    private(set) var received: [DaemonMessage] = []
    private(set) var closed = false

    /// Reads what has arrived without waiting: adds to `received`, sets `closed`.
    func readAvailable() throws {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !closed {
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count < 0 && errno == EINTR { continue }
            if count == 0 || (count < 0 && errno == ECONNRESET) { closed = true }
            guard count > 0 else { return }
            pending.append(Array(buffer.prefix(count)))
            while let frame = try pending.nextFrame() { received.append(try DaemonMessage(frame)) }
        }
    }

    /// Every message the daemon sends until it closes the connection (`closed`) or `seconds`
    /// pass without a byte.
    func readUntilClosed(seconds: Double) throws -> (messages: [DaemonMessage], closed: Bool) {
        let (bytes, closed) = receiveUntilClosed(seconds: seconds)
        var reader = FrameReader()
        reader.append(bytes)
        var messages: [DaemonMessage] = []
        while let frame = try reader.nextFrame() { messages.append(try DaemonMessage(frame)) }
        return (messages, closed)
    }

    /// Every byte the daemon sends until it closes the connection or `seconds` pass without a
    /// byte, and whether it closed.
    func receiveUntilClosed(seconds: Double) -> (bytes: [UInt8], closed: Bool) {
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return (bytes, count == 0 || errno == ECONNRESET) }
            bytes += buffer.prefix(count)
        }
    }

    /// Tells the daemon nothing more will come (a client that hangs up half-way).
    func shutdownWriting() { shutdown(descriptor, Int32(SHUT_WR)) }
}

/// An honest client beside the attack: a thread asking motiond's status every 20 ms over its
/// own connection, timing each answer.
final class HonestClient: Sendable {
    private struct Record {
        var latencies: [Double] = []
        var errors: [String] = []
        var running = true
    }

    private let record = Lock(Record())
    private let finished = Lock(false)

    init(socket: String) throws {
        let link = try DaemonLink(path: socket, name: "honest")
        link.setReceiveTimeout(60)  // an answer later than a minute is a hang; the latencies are printed
        let box = LinkBox(link)
        Thread.detachNewThread { [self] in
            defer { finished.withLock { $0 = true } }
            while record.withLock({ $0.running }) {
                let start = Date()
                do {
                    guard case .status = try box.link.ask({ .status(request: $0) }) else { throw DaemonTestError("not a status") }
                    let latency = Date().timeIntervalSince(start)
                    record.withLock { $0.latencies.append(latency) }
                } catch {
                    record.withLock { $0.errors.append("\(error)") }
                    return
                }
                usleep(20_000)
            }
        }
    }

    /// Answers so far.
    var answered: Int { record.withLock { $0.latencies.count } }

    /// Stops the thread; every latency (s) and every error.
    func stop() -> (latencies: [Double], errors: [String]) {
        record.withLock { $0.running = false }
        while !finished.withLock({ $0 }) { usleep(5_000) }
        return record.withLock { ($0.latencies, $0.errors) }
    }

    /// Waits until `count` more answers came (at most `seconds`: against a hang; the callers
    /// check the answers' count and errors after).
    func waitForAnswers(_ count: Int, seconds: Double = 60) {
        let target = answered + count
        let deadline = Date().addingTimeInterval(seconds)
        while answered < target, Date() < deadline, record.withLock({ $0.errors.isEmpty }) { usleep(10_000) }
    }
}

/// The link, handed to the honest client's thread, which alone uses it after.
private final class LinkBox: @unchecked Sendable {
    let link: DaemonLink
    init(_ link: DaemonLink) { self.link = link }
}

/// The 99th percentile and the largest of `values`, in ms, for the log.
func latencySummary(_ values: [Double]) -> String {
    guard !values.isEmpty else { return "no answers" }
    let sorted = values.sorted()
    let p99 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
    return String(format: "%d answers, median %.1f ms, p99 %.1f ms, max %.1f ms", sorted.count, sorted[sorted.count / 2] * 1000, p99 * 1000, sorted.last! * 1000)
}

/// Raises this process's soft RLIMIT_NOFILE towards `wanted` (not above the hard limit); the
/// soft limit now.
func raiseDescriptorLimit(to wanted: Int) -> Int {
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    if limit.rlim_cur < rlim_t(wanted) {
        limit.rlim_cur = min(rlim_t(wanted), limit.rlim_max)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
    return Int(limit.rlim_cur)
}

/// Waits until `condition` holds (at most `seconds`); whether it did.
func eventually(seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}
