import Foundation
import MotionDaemon
import MotionDaemonProtocol
import Testing
import TestSupport

/// Bytes that are not the protocol get a typed error and a closed connection, and the daemon
/// goes on serving everyone else.
@Suite(.blocking) struct GarbageTests {
    /// Connects a raw socket, sends `bytes`, and returns everything the daemon sends back
    /// until it closes (a minute without a byte: a hang, not a latency).
    static func exchange(_ bytes: [UInt8], socket path: String, hangUp: Bool = false) throws -> [UInt8] {
        let connection = try RawConnection(path: path)
        connection.send(bytes)
        if hangUp { connection.shutdownWriting() }
        return connection.receiveUntilClosed(seconds: 60).bytes
    }

    static func onlyMessage(_ bytes: [UInt8]) throws -> DaemonMessage? {
        var reader = FrameReader()
        reader.append(bytes)
        guard let frame = try reader.nextFrame() else { return nil }
        #expect(reader.bufferedByteCount == 0, "more than one frame")
        return try DaemonMessage(frame)
    }

    @Test func garbageIsRefusedWithATypedErrorAndTheDaemonServesOn() throws {
        let daemon = try DaemonProcess("garbage")
        defer { daemon.remove() }
        try daemon.start()
        let steady = try daemon.connect("steady")
        let cases: [(String, [UInt8])] = [
            ("HTTP", Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)),
            ("oversize", [0xFF, 0xFF, 0xFF, 0x00, 0x01]),
            ("not hello first", ClientMessage.status(request: 1).frame.bytes),
            ("wrong magic", Frame(type: 0x01, body: Array("HELO".utf8) + [1, 0, 0, 0]).bytes),
            ("other version", ClientMessage.hello(version: 99, name: "future").frame.bytes),
        ]
        for (name, bytes) in cases {
            let answer = try Self.onlyMessage(Self.exchange(bytes, socket: daemon.socket))
            guard case .error(let request, let code, let message, let advice) = answer else {
                Issue.record("\(name): answered \(String(describing: answer))")
                continue
            }
            #expect(request == 0 && !advice.isEmpty, "\(name)")
            #expect(code == (name == "other version" ? .unsupportedVersion : .badRequest), "\(name): \(code) \(message)")
        }
        // Versions 2 and 3 only add (the altitude, then the batched streams): a version 1 client
        // is still welcome, with version 2's welcome (no batch rates), which it reads to the end.
        let old = try Self.onlyMessage(Self.exchange(ClientMessage.hello(version: 1, name: "version 1").frame.bytes, socket: daemon.socket, hangUp: true))
        guard case .welcome(let welcome) = old else { throw DaemonTestError("a version 1 hello was answered \(String(describing: old))") }
        #expect(welcome.version == 2 && Framing.version == 3)
        // A client that hangs up mid-frame costs nothing either.
        _ = try? Self.exchange(Array(ClientMessage.hello(version: 1, name: "half").frame.bytes.prefix(7)), socket: daemon.socket, hangUp: true)
        #expect(daemon.isRunning)
        guard case .status(_, let status) = try steady.ask({ .status(request: $0) }) else { throw DaemonTestError("no status") }
        #expect(status.clients.map(\.name) == ["steady"])
    }

    /// Version 2's additions never reach a version 1 client: while another client has an
    /// altitude stream, a version 1 client's status lists that client without it (a stream byte
    /// above 6 would be an error to it); a version 2 client sees it.
    @Test func aVersion1ClientIsNeverSentAnAltitudeStream() throws {
        let daemon = try DaemonProcess("version1-status")
        defer { daemon.remove() }
        try daemon.start()
        let altitude = try daemon.connect("altitude")
        guard case .ok = try altitude.ask({ .subscribeAltitude(request: $0, stream: .relativeAltitude, seaLevelPressure: 101.325, uncertainty: 1) }) else {
            throw DaemonTestError("subscribeAltitude was refused")
        }
        guard case .status(_, let current) = try altitude.ask({ .status(request: $0) }) else { throw DaemonTestError("no status") }
        #expect(current.clients.first { $0.name == "altitude" }?.streams.map(\.stream) == [.relativeAltitude])
        let old = ClientMessage.hello(version: 1, name: "version 1").frame.bytes + ClientMessage.status(request: 1).frame.bytes
        var reader = FrameReader()
        reader.append(try Self.exchange(old, socket: daemon.socket, hangUp: true))
        var answers: [DaemonMessage] = []
        while let frame = try reader.nextFrame() { answers.append(try DaemonMessage(frame)) }
        guard answers.count == 2, case .status(_, let status) = answers[1] else { throw DaemonTestError("answered \(answers)") }
        let listed = try #require(status.clients.first { $0.name == "altitude" })
        #expect(listed.streams.isEmpty, "\(listed.streams)")
    }
}
