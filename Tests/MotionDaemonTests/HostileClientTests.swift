import Foundation
import MotionDaemon
import MotionDaemonProtocol
import Testing
import TestSupport

/// motiond under clients that mean harm (issue 22): crowds of connections, slowloris, hostile
/// frames, a client that never reads. Each asserts what the daemon holds (descriptors, memory)
/// and that an honest client beside the attack is answered every time, without an error. The
/// latencies are printed, not asserted tighter than "answered": a loaded 2-core CI machine
/// stretches them, and timing claims belong in benchmarks (the honest client's p99 during 1 000
/// hostile connection attempts: tools/benchmarks/motiond_hostile.py, docs/motiond.md). Every
/// wait here is a minute, a guard against a hang; what is asserted is counted (descriptors,
/// sockets, bytes, answers, messages), never how long something took.
@Suite(.serialized, .blocking) struct HostileClientTests {
    /// 3 000 connections from one user: past the per-user limit each is refused with the reason
    /// and closed as it is accepted, so the daemon holds no more descriptors than the limit
    /// allows; another user is still served during the attack, and when it ends the
    /// descriptors return to where they were.
    @Test func thousandsOfConnectionsOfOneUserAreRefusedAndClosedAtOnce() throws {
        let wanted = 3000
        // Room for the crowd and for the tests running beside this one in the same process.
        let limit = raiseDescriptorLimit(to: wanted + 1000)
        let count = min(wanted, limit - 1000)
        let perUser = 32
        let daemon = try DaemonProcess("crowd", policy: "allow 65534\n", options: ["--max-clients-per-user", "\(perUser)"])
        defer { daemon.remove() }
        try daemon.start()
        let honest = try HonestClient(socket: daemon.socket)
        honest.waitForAnswers(3)
        let baseline = daemon.openSockets
        var crowd: [RawConnection] = []
        crowd.reserveCapacity(count)
        for _ in 0..<count { crowd.append(try RawConnection(path: daemon.socket)) }
        // The last connection was refused with the reason (the daemon accepts in order).
        let (messages, closed) = try crowd[count - 1].readUntilClosed(seconds: 60)
        guard case .error(0, .notAvailable, let message, let advice)? = messages.first else {
            throw DaemonTestError("connection \(count) got \(messages)")
        }
        #expect(closed && message.contains("limit per user") && advice.contains("--max-clients-per-user"), "\(message) / \(advice)")
        let during = daemon.openSockets
        print("motiond held \(during) sockets (\(daemon.openDescriptors) descriptors in all) with \(count) connections of one user open (\(baseline) sockets before)")
        // The honest client is that user's too: the crowd got the rest of its places.
        #expect(during <= baseline + perUser - 1, "\(during) sockets, \(baseline) before")
        if getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            let (status, text) = try runProgram("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups",
                                                                     DaemonProcess.binary("motionctl"), "status", "--socket", daemon.socket])
            #expect(status == 0 && text.contains("clients:"), "another user during the attack: \(text)")
        }
        honest.waitForAnswers(5)
        crowd.removeAll()
        #expect(eventually(seconds: 60) { daemon.openSockets <= baseline }, "\(daemon.openSockets) sockets after, \(baseline) before")
        let (latencies, errors) = honest.stop()
        print("honest client during the crowd: \(latencySummary(latencies))")
        #expect(errors.isEmpty, "\(errors)")
        #expect(latencies.count >= 8)
        #expect(daemon.isRunning)
        // One line for the refusals and their summary later, not one line each.
        #expect(daemon.log.components(separatedBy: "refused a connection").count - 1 <= 2, "\(daemon.log.suffix(2000))")
    }

    /// Connections that say nothing, drip a hello a byte at a time, or leave a frame unfinished
    /// are closed at the deadline (1 s here) with the reason; the daemon's descriptors return
    /// to where they were.
    @Test func silentAndSlowClientsAreClosedAtTheDeadline() throws {
        let daemon = try DaemonProcess("slowloris", options: ["--handshake-timeout", "1", "--max-clients-per-user", "400"])
        defer { daemon.remove() }
        try daemon.start()
        let honest = try HonestClient(socket: daemon.socket)
        honest.waitForAnswers(3)
        let baseline = daemon.openSockets
        let started = Date()
        let silent = try (0..<200).map { _ in try RawConnection(path: daemon.socket) }
        let hello = ClientMessage.hello(version: Framing.version, name: "slow").frame.bytes
        // The dripped hello is long (a 240-byte name: a minute at a byte every 250 ms), so that
        // what stops the drip is the daemon closing, however late a loaded machine lets it.
        let longHello = ClientMessage.hello(version: Framing.version, name: String(repeating: "s", count: 240)).frame.bytes
        let halfHello = try RawConnection(path: daemon.socket)
        halfHello.send(Array(hello.prefix(6)))
        let halfRequest = try RawConnection(path: daemon.socket)
        halfRequest.send(hello + Array(ClientMessage.status(request: 1).frame.bytes.prefix(6)))
        // A byte every 250 ms.
        let dripper = try RawConnection(path: daemon.socket)
        var dripped = 0
        while dripped < longHello.count, dripper.send([longHello[dripped]]) {
            dripped += 1
            usleep(250_000)
        }
        #expect(dripped < longHello.count, "the whole hello was taken a byte at a time")
        for (name, connection, expected) in [("half a hello", halfHello, "No hello within 1 s"), ("a dripped hello", dripper, "No hello within 1 s"),
                                             ("half a request", halfRequest, "Only 6 bytes of a frame arrived within 1 s"),
                                             ("a silent connection", silent[0], "No hello within 1 s")] {
            let (messages, closed) = try connection.readUntilClosed(seconds: 60)
            let refusal = messages.compactMap { message -> String? in
                if case .error(0, .badRequest, let text, _) = message { return text }
                return nil
            }
            #expect(closed && refusal.count == 1 && refusal[0].hasPrefix(expected), "\(name): \(messages), closed \(closed)")
        }
        #expect(Date().timeIntervalSince(started) >= 1, "closed before the deadline")
        #expect(eventually(seconds: 60) { daemon.openSockets <= baseline }, "\(daemon.openSockets) sockets after, \(baseline) before")
        for connection in silent.dropFirst() {
            let (_, closed) = try connection.readUntilClosed(seconds: 60)
            #expect(closed)
        }
        honest.waitForAnswers(3)
        let (latencies, errors) = honest.stop()
        print("honest client during slowloris: \(latencySummary(latencies))")
        #expect(errors.isEmpty, "\(errors)")
        #expect(daemon.isRunning)
    }

    /// Frames that decode but mean harm: unknown enum values, lengths and counts past the
    /// frame, negative, infinite and NaN numbers. A bad value in a request is that request's
    /// `badRequest`; a frame that is not the protocol closes the connection; nothing reaches
    /// the board and the daemon serves on.
    @Test func hostileFramesAreRefusedOneByOne() throws {
        let daemon = try DaemonProcess("hostile-frames")
        defer { daemon.remove() }
        try daemon.start()
        let honest = try HonestClient(socket: daemon.socket)
        let hello = ClientMessage.hello(version: Framing.version, name: "hostile").frame.bytes
        // Request-level: answered with an error for that request, the connection stays.
        let badRequests: [(String, ClientMessage)] = [
            ("negative interval", .subscribe(request: 1, stream: .accelerometer, interval: -1, from: 0, frame: 0)),
            ("NaN interval", .subscribe(request: 2, stream: .gyroscope, interval: .nan, from: 0, frame: 0)),
            ("infinite interval", .subscribe(request: 3, stream: .deviceMotion, interval: .infinity, from: 0, frame: 0)),
            ("unknown reference frame", .subscribe(request: 4, stream: .deviceMotion, interval: 0.01, from: 0, frame: 0xFF)),
            ("negative recording", .recordAccelerometer(request: 5, duration: -60)),
            ("NaN recording", .recordAccelerometer(request: 6, duration: .nan)),
            ("backwards range", .queryPedometer(request: 7, from: 100, to: -100)),
            ("NaN range", .queryActivity(request: 8, from: .nan, to: 0)),
            ("all of time", .queryAccelerometer(request: 9, from: -.greatestFiniteMagnitude, to: .greatestFiniteMagnitude)),
            ("NaN sea level", .subscribeAltitude(request: 10, stream: .relativeAltitude, seaLevelPressure: .nan, uncertainty: 1)),
        ]
        let connection = try RawConnection(path: daemon.socket)
        connection.send(hello + badRequests.flatMap { $0.1.frame.bytes } + ClientMessage.status(request: 99).frame.bytes)
        var reader = FrameReader()
        var answers: [DaemonMessage] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var timeout = timeval(tv_sec: 60, tv_usec: 0)  // a hang, not a latency
        setsockopt(connection.descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        while !answers.contains(where: { if case .status(99, _) = $0 { true } else { false } }) {
            let count = recv(connection.descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { throw DaemonTestError("the daemon closed or went quiet after \(answers)") }
            reader.append(Array(buffer.prefix(count)))
            while let frame = try reader.nextFrame() { answers.append(try DaemonMessage(frame)) }
        }
        for (name, message) in badRequests {
            let answer = answers.first { if case .error(message.request, _, _, _) = $0 { true } else { false } }
            guard case .error(_, .badRequest, let text, let advice)? = answer else {
                Issue.record("\(name): answered \(String(describing: answer))")
                continue
            }
            #expect(!text.isEmpty && !advice.isEmpty, "\(name)")
        }
        guard case .status(_, let status)? = answers.last else { throw DaemonTestError("no status") }
        #expect(status.clients.first { $0.name == "hostile" }?.streams.isEmpty == true, "a hostile request started a stream")
        // Connection-level: refused with the reason, then closed.
        var subscribe = ClientMessage.subscribe(request: 1, stream: .accelerometer, interval: 0, from: 0, frame: 0).frame
        subscribe.body[4] = 200  // stream 200
        var unsubscribe = ClientMessage.unsubscribe(request: 1, stream: .accelerometer).frame
        unsubscribe.body[4] = 0xFF
        let hugeName = Frame(type: 0x01, body: Framing.magic + [3, 0, 0xFF, 0xFF] + Array("short".utf8))
        let longHello = ClientMessage.hello(version: Framing.version, name: String(repeating: "x", count: 65_535)).frame.bytes
        let closing: [(String, [UInt8])] = [
            ("unknown stream", hello + subscribe.bytes),
            ("unknown stream in unsubscribe", hello + unsubscribe.bytes),
            ("unknown message type", hello + Frame(type: 0x7F, body: [1, 0, 0, 0]).bytes),
            ("a name's count past the frame", hugeName.bytes),
            ("a frame over the longest a client sends", [0x0A, 0x00, 0x01, 0x00, 0x01]),
            ("bytes after the last field", hello + Frame(type: 0x08, body: [1, 0, 0, 0, 0xAA]).bytes),
            ("a request before hello", ClientMessage.status(request: 1).frame.bytes),
        ]
        for (name, bytes) in closing {
            let attacker = try RawConnection(path: daemon.socket)
            attacker.send(bytes)
            let (messages, closed) = try attacker.readUntilClosed(seconds: 60)
            let refused = messages.contains { if case .error(0, .badRequest, _, let advice) = $0 { !advice.isEmpty } else { false } }
            #expect(closed && refused, "\(name): \(messages)")
        }
        // The longest hello a client can send is still welcome.
        let longest = try RawConnection(path: daemon.socket)
        longest.send(longHello)
        shutdown(longest.descriptor, Int32(SHUT_WR))
        let (welcome, _) = try longest.readUntilClosed(seconds: 60)
        #expect(welcome.contains { if case .welcome = $0 { true } else { false } }, "\(welcome)")
        honest.waitForAnswers(3)
        let (latencies, errors) = honest.stop()
        print("honest client during hostile frames: \(latencySummary(latencies))")
        #expect(errors.isEmpty, "\(errors)")
        #expect(daemon.isRunning)
    }

    /// A client that subscribes to every stream and sends requests without ever reading: its
    /// samples are dropped and counted (the protocol's contract), its answers are never
    /// dropped but its requests are read no further while 256 KiB of them wait, so the
    /// daemon's memory stays bounded. Before, every request was read and answered into memory.
    @Test func aClientThatNeverReadsCannotGrowTheDaemon() throws {
        let daemon = try DaemonProcess("never-reads")
        defer { daemon.remove() }
        try daemon.start()
        let honest = try HonestClient(socket: daemon.socket)
        honest.waitForAnswers(3)
        let before = daemon.residentBytes
        let greedy = try RawConnection(path: daemon.socket)
        var requests = ClientMessage.hello(version: Framing.version, name: "never reads").frame.bytes
        for (index, stream) in [WireStream.accelerometer, .gyroscope, .deviceMotion, .pedometer, .pedometerEvents, .activity, .relativeAltitude].enumerated() {
            requests += ClientMessage.subscribe(request: UInt32(index + 1), stream: stream, interval: 0, from: 0, frame: 0).frame.bytes
        }
        greedy.send(requests)
        // Status answers are the largest a request can ask for again and again.
        let status = (0..<512).flatMap { ClientMessage.status(request: UInt32(100 + $0)).frame.bytes }
        // It sends until the socket has taken nothing for 3 s in a row: the daemon has stopped
        // reading it. A daemon that read every request would go on taking them and the minute
        // would run out; how soon it stops depends on the load, and is not asserted.
        let started = Date()
        var lastTaken = Date()
        var taken = 0
        while Date().timeIntervalSince(lastTaken) < 3, Date().timeIntervalSince(started) < 60 {
            let sent = greedy.sendWithoutWaiting(status)
            taken += sent
            if sent > 0 { lastTaken = Date() } else { usleep(10_000) }
        }
        #expect(Date().timeIntervalSince(lastTaken) >= 3, "motiond went on reading the requests of a client that reads no answer")
        let after = daemon.residentBytes
        print("never-reading client: the socket took \(taken / 13) status requests; motiond's resident memory \(before / 1024) KiB before, \(after / 1024) KiB after")
        #expect(after - before < 8 << 20, "motiond grew by \((after - before) / 1024) KiB")
        // It was counted as dropping samples, and the daemon still answers everyone else.
        let link = try daemon.connect("observer")
        var greedyStatus: ClientStatus?
        let dropped = eventually(seconds: 60) {
            guard case .status(_, let current)? = try? link.ask({ .status(request: $0) }) else { return false }
            greedyStatus = current.clients.first { $0.name == "never reads" }
            return (greedyStatus?.dropped ?? 0) > 0
        }
        #expect(dropped && greedyStatus?.streams.count == 7, "\(String(describing: greedyStatus))")
        #expect(daemon.residentBytes - before < 8 << 20, "motiond grew by \((daemon.residentBytes - before) / 1024) KiB")
        let (latencies, errors) = honest.stop()
        print("honest client beside a never-reading client: \(latencySummary(latencies))")
        #expect(errors.isEmpty, "\(errors)")
    }
}

extension HostileClientTests {
    /// motiond run with only 40 descriptors (prlimit) and limits that would allow more: when
    /// accept fails with EMFILE, the waiting connection is still told why and closed (the spare
    /// descriptor), the daemon does not spin on a listener it cannot accept from, and the
    /// clients it has are served.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit")))
    func outOfDescriptorsTheWaitingConnectionIsRefusedAndTheDaemonDoesNotSpin() throws {
        let daemon = try DaemonProcess("emfile", options: ["--max-clients-per-user", "200", "--max-clients", "200"],
                                       wrapper: ["/usr/bin/prlimit", "--nofile=40:40", "--"])
        defer { daemon.remove() }
        try daemon.start()
        let honest = try HonestClient(socket: daemon.socket)
        honest.waitForAnswers(3)
        // The daemon's CPU time over 2 idle seconds, the measure of "no busy loop" below: the
        // engine's own work (larger under a sanitizer) is not a spin.
        let idleStart = daemon.processorSeconds
        Thread.sleep(forTimeInterval: 2)
        let idle = daemon.processorSeconds - idleStart
        let hello = ClientMessage.hello(version: Framing.version, name: "crowd").frame.bytes
        let held = try (0..<60).map { _ in try RawConnection(path: daemon.socket) }
        for connection in held { connection.send(hello) }
        // Each is welcome, or refused and closed: none left waiting.
        #expect(eventually(seconds: 60) {
            for connection in held { try? connection.readAvailable() }
            return held.allSatisfy { $0.closed || !$0.received.isEmpty }
        })
        let refusals = held.compactMap { connection -> String? in
            guard connection.closed, case .error(0, .notAvailable, let message, _)? = connection.received.first else { return nil }
            return message
        }
        let welcomed = held.filter { if case .welcome? = $0.received.first { !$0.closed } else { false } }.count
        #expect(!refusals.isEmpty && refusals.allSatisfy { $0.contains("no file descriptor left") }, "\(refusals)")
        #expect(welcomed + refusals.count == held.count, "\(welcomed) welcome, \(refusals.count) refused of \(held.count)")
        // Two more waiting connections: refused too, and no busy loop meanwhile.
        let before = daemon.processorSeconds
        for _ in 0..<2 {
            let connection = try RawConnection(path: daemon.socket)
            let (messages, closed) = try connection.readUntilClosed(seconds: 60)
            #expect(closed && messages.count == 1, "\(messages)")
        }
        Thread.sleep(forTimeInterval: 2)
        let used = daemon.processorSeconds - before
        print("out of descriptors after \(welcomed) connections: motiond used \(String(format: "%.2f", used)) s of CPU in the next 2 s (\(String(format: "%.2f", idle)) s idle)")
        #expect(used < idle + 1, "motiond spun: \(used) s of CPU in 2 s, \(idle) s when idle")
        honest.waitForAnswers(3)
        let (latencies, errors) = honest.stop()
        #expect(errors.isEmpty && latencies.count >= 6, "\(errors)")
        #expect(daemon.log.contains("no file descriptor left"))
    }
}
