import Foundation
import MotionDaemon
import MotionDaemonProtocol
import Testing

/// Faults around a running motiond (issue 22): the daemon stopped and continued with clients
/// attached.
@Suite struct DaemonFaultTests {
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
        let sockets = daemon.openSockets
        let waiting = try RawConnection(path: daemon.socket)
        #expect(eventually(seconds: 10) { daemon.openSockets > sockets })
        kill(pid, SIGSTOP)
        waiting.send(ClientMessage.hello(version: Framing.version, name: "waited").frame.bytes)
        Thread.sleep(forTimeInterval: 5)
        let resumed = wallSeconds
        kill(pid, SIGCONT)
        #expect(eventually(seconds: 10) { (try? waiting.readAvailable()) != nil && !waiting.received.isEmpty })
        guard case .welcome? = waiting.received.first else { throw DaemonTestError("the waiting hello got \(waiting.received)") }
        #expect(!waiting.closed)
        // Samples from after the stop arrive on the same connection.
        var latest = 0.0
        let deadline = Date().addingTimeInterval(15)
        while latest < resumed + 0.5, Date() < deadline { latest = try Self.nextSample(streaming) }
        #expect(latest >= resumed + 0.5, "the stream did not carry on after SIGCONT")
        guard case .status(_, let status) = try streaming.ask({ .status(request: $0) }) else { throw DaemonTestError("no status") }
        #expect(Set(status.clients.map(\.name)).isSuperset(of: ["streaming", "waited"]), "\(status.clients.map(\.name))")
    }

    /// The time of the next accelerometer sample on `link` (wall s).
    static func nextSample(_ link: DaemonLink) throws -> Double {
        while true {
            if case .samples(.vectors(.accelerometer, let samples)) = try link.receive(), let last = samples.last { return last.time }
        }
    }
}
