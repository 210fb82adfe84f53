import Foundation
import MotionDaemonClient
import MotionDaemonProtocol
import Testing
import TestSupport

/// A client of this release and a motiond of an older one (protocol version 1, which refuses
/// other versions): the client says hello again in each older version until version 1 is
/// welcome, keeps everything version 1 has, and asks for no altitude (which would break the
/// connection there).
@Suite(.blocking) struct OlderDaemonTests {
    /// A stand-in for a version 1 motiond on `path`: refuses any hello but version 1 with
    /// `unsupportedVersion` (as that release does) and welcomes version 1; serves `connections`
    /// connections, then stops.
    static func serveAsVersion1(path: String, connections: Int) throws -> Thread {
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(listener, 4) == 0 else { throw ClientTestError("cannot listen on \(path): \(errno)") }
        let thread = Thread {
            defer { close(listener) }
            for _ in 0..<connections {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                var reader = FrameReader()
                var buffer = [UInt8](repeating: 0, count: 4096)
                var hello: ClientMessage?
                while hello == nil {
                    let count = recv(client, &buffer, buffer.count, 0)
                    guard count > 0 else { break }
                    reader.append(Array(buffer.prefix(count)))
                    if let frame = try? reader.nextFrame() { hello = try? ClientMessage(frame) }
                }
                let answer: DaemonMessage = if case .hello(1, _) = hello {
                    .welcome(.init(version: 1, daemonVersion: "old", boardName: "old board", sensors: [.accelerometer, .barometer],
                                   authorization: .authorized, historyAllowed: true, clockOffset: 0))
                } else {
                    .error(request: 0, code: .unsupportedVersion, message: "This motiond speaks protocol version 1", advice: "Use the same release")
                }
                _ = answer.frame.bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if case .welcome = answer { usleep(300_000) }  // the client looks at the welcome, then this one hangs up
                close(client)
            }
        }
        thread.start()
        return thread
    }

    @Test func aVersion1DaemonIsSpokenToInVersion1AndAskedForNoAltitude() throws {
        let path = "/tmp/ocm-old-daemon-\(getpid())-\(UInt16.random(in: 0...UInt16.max)).sock"
        defer { unlink(path) }
        _ = try Self.serveAsVersion1(path: path, connections: 3)  // hellos in versions 3 and 2 refused, then 1
        let client = try DaemonClient(path: path, name: "new client", reconnectLimitSeconds: 0.2)
        defer { client.close() }
        #expect(client.welcome.version == 1 && client.welcome.boardName == "old board")
        let error = #expect(throws: DaemonClientError.self) {
            try client.subscribeAltitude(.relativeAltitude, seaLevelPressure: 101.325, uncertainty: 1) { _ in }
        }
        #expect(error?.kind == .rejected(.notAvailable), "\(String(describing: error))")
        #expect(error?.description.contains("protocol version 1") == true, "\(String(describing: error))")
    }
}
