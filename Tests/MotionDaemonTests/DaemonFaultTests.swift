import Foundation
import MotionDaemon
import MotionDaemonProtocol
import Testing
import TestSupport

/// Faults around motiond (issue 22): the daemon stopped and continued with clients attached; a
/// history folder it may not write.
@Suite(.blocking) struct DaemonFaultTests {
    /// SIGSTOP for 5 s with a streaming client attached and a new connection's hello waiting in
    /// the socket: after SIGCONT the stream carries on over the same connection, the waiting
    /// hello is welcome (not closed as late: deadlines are judged after reading what arrived)
    /// and `status` is answered.
    @Test func stoppedAndContinuedTheClientsCarryOn() throws {
        let daemon = try DaemonProcess("sigstop", options: ["--handshake-timeout", "1"])
        defer { daemon.remove() }
        try daemon.start()
        let pid = try #require(daemon.process?.processIdentifier)
        let streaming = try daemon.connect("streaming")
        try streaming.subscribe(.accelerometer, interval: 0.02)
        _ = try Self.nextSample(streaming)
        // A connection the daemon has accepted, whose hello comes while the daemon is stopped.
        // The daemon must not have closed it as late before the stop: sure when the stop came
        // within the 1 s deadline of the connect (the daemon accepted after it; both on the
        // monotonic clock). A loaded machine may take longer from one to the other: then the
        // daemon goes on, closes that one, and it is tried again (a minute in all: a hang).
        var accepted: RawConnection?
        let tryUntil = Date().addingTimeInterval(60)
        while accepted == nil, Date() < tryUntil {
            let sockets = daemon.openSockets
            let connectedAt = ProcessInfo.processInfo.systemUptime
            let connection = try RawConnection(path: daemon.socket)
            guard eventually(seconds: 60, { daemon.openSockets > sockets }) else { break }
            kill(pid, SIGSTOP)
            if ProcessInfo.processInfo.systemUptime - connectedAt < 1 {
                accepted = connection
            } else {
                kill(pid, SIGCONT)
                _ = connection.receiveUntilClosed(seconds: 60)  // closed as late: the count is back
            }
        }
        let waiting = try #require(accepted, "no connection was accepted and stopped within its 1 s deadline in a minute")
        waiting.send(ClientMessage.hello(version: Framing.version, name: "waited").frame.bytes)
        Thread.sleep(forTimeInterval: 5)
        let resumed = wallSeconds
        kill(pid, SIGCONT)
        #expect(eventually(seconds: 60) { (try? waiting.readAvailable()) != nil && !waiting.received.isEmpty })
        guard case .welcome? = waiting.received.first else { throw DaemonTestError("the waiting hello got \(waiting.received)") }
        #expect(!waiting.closed)
        // Samples from after the stop arrive on the same connection.
        var latest = 0.0
        let deadline = Date().addingTimeInterval(60)  // a hang, not a latency
        while latest < resumed + 0.5, Date() < deadline { latest = try Self.nextSample(streaming) }
        #expect(latest >= resumed + 0.5, "the stream did not carry on after SIGCONT")
        guard case .status(_, let status) = try streaming.ask({ .status(request: $0) }) else { throw DaemonTestError("no status") }
        #expect(Set(status.clients.map(\.name)).isSuperset(of: ["streaming", "waited"]), "\(status.clients.map(\.name))")
    }

    /// A history folder motiond's user may not write (run as nobody under a root-owned folder):
    /// it does not start, and says which folder and what to do. Running, motiond keeps its
    /// segment files open, so a folder made read-only later bites at the next segment (each
    /// hour), as the full disk does: logged once, then summarized (FullDiskLogTests).
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func aHistoryFolderItMayNotWriteStopsTheStartWithTheFolderNamed() throws {
        let daemon = try DaemonProcess("read-only")
        defer { daemon.remove() }
        try FileManager.default.createDirectory(atPath: daemon.history, withIntermediateDirectories: true)
        chmod(daemon.history, 0o755)
        let (status, text) = try runProgram("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", DaemonProcess.binary("motiond"),
                                                                 "--board", daemon.board, "--history", daemon.history, "--socket", daemon.socket, "--policy", daemon.policy])
        #expect(status == 2, "\(text)")
        #expect(text.contains("cannot create the history folder \(daemon.history)/") && text.contains("Permission denied")
                && text.contains("writable by motiond's user"), "\(text)")
    }

    /// The time of the next accelerometer sample on `link` (wall s).
    static func nextSample(_ link: DaemonLink) throws -> Double {
        while true {
            if case .samples(.vectors(.accelerometer, let samples)) = try link.receive(), let last = samples.last { return last.time }
        }
    }
}
