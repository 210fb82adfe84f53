import Foundation
import MotionDaemon
import MotionDaemonProtocol
import Testing
import TestSupport

/// Who gets data: the policy's `deny` and `live-only`, and a user outside group motion, each
/// answered with a typed error that says what to do, never with data.
@Suite(.serialized, .blocking) struct AuthorizationTests {
    @Test func aUserDeniedByThePolicyGetsATypedErrorAndNoData() throws {
        let daemon = try DaemonProcess("deny", policy: "# the test user is denied\ndeny \(getuid())\n")
        defer { daemon.remove() }
        try daemon.start()
        let link = try daemon.connect("denied client")
        #expect(link.welcome.authorization == .restricted)
        #expect(!link.welcome.historyAllowed)
        let baseline = daemon.openSockets
        // Each request on a new connection: the daemon closes a user who may not after the
        // error that says so, so that it holds no connection.
        for message in [{ (r: UInt32) in ClientMessage.subscribe(request: r, stream: .accelerometer, interval: 0, from: 0, frame: 0) },
                        { (r: UInt32) in ClientMessage.queryPedometer(request: r, from: 0, to: wallSeconds) },
                        { (r: UInt32) in ClientMessage.status(request: r) }] {
            let link = try daemon.connect("denied client")
            let request = try link.send(message)
            let answer = try link.receive()
            guard case .error(let number, let code, let text, let advice) = answer else {
                Issue.record("a denied client got \(answer)")
                continue
            }
            #expect(number == request && code == .unauthorized)
            #expect(text.contains("may not read motion data") && advice.contains("administrator"), "\(text) / \(advice)")
            // Then the connection ends: no samples, nothing more.
            let after = #expect(throws: DaemonError.self) { try link.receive() }
            #expect(after?.message.contains("closed") == true, "\(String(describing: after))")
        }
        #expect(eventually(seconds: 60) { daemon.openSockets <= baseline }, "\(daemon.openSockets) sockets, \(baseline) before")
    }

    @Test func aLiveOnlyUserGetsStreamsButNoHistory() throws {
        let daemon = try DaemonProcess("live-only", policy: "live-only \(getuid())\n")
        defer { daemon.remove() }
        try daemon.start()
        let link = try daemon.connect("live-only client")
        #expect(link.welcome.authorization == .authorized && !link.welcome.historyAllowed)
        try link.subscribe(.accelerometer, interval: 0.1)
        let error = #expect(throws: DaemonError.self) { try link.pedometer(from: 0, to: wallSeconds) }
        #expect(error?.message.contains("live data only") == true)
    }

    /// A user who is not root and not in group motion (nobody, through setpriv) runs `motionctl
    /// status`: it says "denied" and how to join the group. Needs root to switch users.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func aUserOutsideGroupMotionIsToldToJoinIt() throws {
        let daemon = try DaemonProcess("group")
        defer { daemon.remove() }
        try daemon.start()
        let (status, text) = try runProgram("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups",
                                                                 DaemonProcess.binary("motionctl"), "status", "--socket", daemon.socket])
        print("motionctl status as nobody:\n\(text)")
        #expect(status == 1)
        #expect(text.contains("denied (not in group motion)"), "\(text)")
        #expect(text.contains("usermod -aG motion") || text.contains("groupadd"), "\(text)")
        #expect(!text.contains("clients:"))
    }
}
