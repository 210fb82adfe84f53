import Foundation
import Locking
import MotionDaemon
import MotionDaemonProtocol
import Testing
import TestSupport

/// Many clients at once, each at its own rate; a client that stops reading is told what it
/// lost and costs the others nothing; clients that vanish mid-stream leave the daemon serving.
@Suite(.serialized, .blocking) struct StreamingTests {
    /// The accelerometer samples of one client and its dropped notices, read until `done` says
    /// so. Windows are on the samples' own timestamps, not the wall clock: a loaded machine (or
    /// a sanitizer) delays delivery but cannot change what is judged. The minute is a guard
    /// against a hang only.
    static func collect(_ link: DaemonLink,
                        until done: (_ samples: [VectorSample], _ dropped: UInt64) -> Bool) throws -> (samples: [VectorSample], dropped: UInt64) {
        var samples: [VectorSample] = []
        var dropped: UInt64 = 0
        let safety = wallSeconds + 60
        while !done(samples, dropped) {
            guard wallSeconds < safety else {
                throw DaemonTestError("not done after a minute: \(samples.count) samples, \(dropped) dropped")
            }
            switch try link.receive() {
            case .samples(.vectors(.accelerometer, let batch)): samples += batch
            case .dropped(.accelerometer, let count, _): dropped += count
            default: continue
            }
        }
        return (samples, dropped)
    }

    /// The index of the sample after the last gap of more than two 100 Hz periods (nil: none).
    static func lastJump(_ samples: [VectorSample]) -> Int? {
        samples.indices.dropFirst().last { samples[$0].time - samples[$0 - 1].time > 0.02 }
    }

    /// Whether `samples` span `seconds` of board time (their timestamps).
    static func span(_ samples: [VectorSample], atLeast seconds: Double) -> Bool {
        guard let first = samples.first, let last = samples.last else { return false }
        return last.time - first.time >= seconds
    }

    /// The sim-walker's IMU runs at 100 Hz: a client asking for interval T gets min(100, 1/T)
    /// samples a second (by the samples' own timestamps), with no gap over two intervals.
    @Test func tenConcurrentClientsEachGetTheirRate() throws {
        let daemon = try DaemonProcess("rates")
        defer { daemon.remove() }
        try daemon.start()
        let intervals = [0.0, 0.01, 0.02, 0.025, 0.04, 0.05, 0.1, 0.2, 0.25, 0.5]
        nonisolated(unsafe) let links = try intervals.enumerated().map { index, interval in
            let link = try daemon.connect("rate client \(index)")
            try link.subscribe(.accelerometer, interval: interval)
            return link
        }
        let results = Lock<[Int: (samples: [VectorSample], dropped: UInt64)]>([:])
        let errors = Lock<[String]>([])
        // One thread per client, all reading at once.
        let threads = links.indices.map { index in
            Thread {
                do {
                    let result = try Self.collect(links[index]) { samples, _ in Self.span(samples, atLeast: 5) }
                    results.withLock { $0[index] = result }
                } catch {
                    errors.withLock { $0.append("client \(index): \(error)") }
                }
            }
        }
        for thread in threads { thread.start() }
        while threads.contains(where: { !$0.isFinished }) { usleep(20_000) }
        #expect(errors.withLock { $0 }.isEmpty, "\(errors.withLock { $0 })")
        for (index, interval) in intervals.enumerated() {
            guard let result = results.withLock({ $0[index] }), result.samples.count >= 2 else {
                Issue.record("client \(index) (interval \(interval) s) got fewer than 2 samples")
                continue
            }
            let times = result.samples.map(\.time)
            let rate = Double(times.count - 1) / (times.last! - times.first!)
            let expected = 1 / max(interval, 0.01)
            let largestGap = zip(times.dropFirst(), times).map { $0 - $1 }.max() ?? 0
            print("client \(index): interval \(interval) s → \(String(format: "%.2f", rate)) Hz (expected \(expected)), largest gap \(String(format: "%.3f", largestGap)) s, dropped \(result.dropped)")
            #expect(abs(rate - expected) / expected < 0.1, "interval \(interval): \(rate) Hz")
            #expect(largestGap <= 2 * max(interval, 0.01) + 0.005, "interval \(interval): a gap of \(largestGap) s")
            #expect(result.dropped == 0)
            // g, Core Motion's sign: the walker's device lies flat, so z ≈ −1 g on average.
            let meanZ = result.samples.map(\.z).reduce(0, +) / Double(result.samples.count)
            #expect(abs(meanZ + 1) < 0.2, "mean z \(meanZ) g")
        }
    }

    /// A client that stops reading: its updates are dropped, counted and reported to it when it
    /// reads again (received + dropped = what the board produced); a client reading meanwhile
    /// gets every sample.
    @Test func aClientThatStopsReadingIsToldWhatItLostAndOthersAreUnaffected() throws {
        let daemon = try DaemonProcess("slow")
        defer { daemon.remove() }
        try daemon.start()
        let slow = try daemon.connect("slow client")
        try slow.subscribe(.accelerometer, interval: 0)
        try slow.subscribe(.deviceMotion, interval: 0)
        let fast = try daemon.connect("fast client")
        try fast.subscribe(.accelerometer, interval: 0)
        // The fast one reads 12 s of samples while the slow one reads nothing.
        let fastResult = try Self.collect(fast) { samples, _ in Self.span(samples, atLeast: 12) }
        // Now the slow one reads everything that is waiting (what its socket holds, the notice
        // of what was dropped, then the 256 samples its outbox kept: those are older than the
        // dropped ones), then the jump over the dropped samples and 2 s of samples after it.
        let slowResult = try Self.collect(slow) { samples, dropped in
            guard dropped > 0, let jump = Self.lastJump(samples) else { return false }
            return Self.span(Array(samples[jump...]), atLeast: 2)
        }
        let fastTimes = fastResult.samples.map(\.time)
        let fastGap = zip(fastTimes.dropFirst(), fastTimes).map { $0 - $1 }.max() ?? 1
        print("fast client: \(fastTimes.count) samples, largest gap \(fastGap) s, dropped \(fastResult.dropped); "
              + "slow client: \(slowResult.samples.count) received, \(slowResult.dropped) dropped (reported)")
        #expect(fastResult.dropped == 0)
        #expect(fastGap < 0.025)
        #expect(slowResult.dropped > 300, "the slow client should have lost several seconds")
        // Nothing lost silently: received + dropped is every sample from its first to its last.
        let slowTimes = slowResult.samples.map(\.time)
        let produced = ((slowTimes.last ?? 0) - (slowTimes.first ?? 0)) * 100 + 1
        let accounted = Double(slowResult.samples.count) + Double(slowResult.dropped)
        #expect(abs(accounted - produced) / produced < 0.03, "received \(slowResult.samples.count) + dropped \(slowResult.dropped) vs \(produced) produced")
        // The status shows the drops against the slow client.
        guard case .status(_, let status) = try fast.ask({ .status(request: $0) }) else { throw DaemonTestError("no status") }
        #expect(status.clients.first { $0.name == "slow client" }.map { $0.dropped > 300 } == true)
    }

    /// Clients that vanish mid-stream (their sockets closed with data in flight, as when a
    /// process is killed) leave the daemon serving a long-lived client without a gap.
    @Test func clientsKilledMidStreamDoNotDisturbTheDaemon() throws {
        let daemon = try DaemonProcess("killed")
        defer { daemon.remove() }
        try daemon.start()
        let steady = try daemon.connect("steady")
        try steady.subscribe(.accelerometer, interval: 0)
        let vanishing = Thread {
            for round in 0..<30 {
                guard let link = try? DaemonLink(path: daemon.socket, name: "vanishing \(round)") else { continue }
                try? link.subscribe(.deviceMotion, interval: 0)
                try? link.subscribe(.gyroscope, interval: 0)
                if round % 2 == 0 { _ = try? link.receive() }
                usleep(UInt32.random(in: 10_000...80_000))
                // The link's deinit closes the socket without unsubscribing.
            }
        }
        vanishing.start()
        // 5 s of samples, and at least until the vanishing clients are done.
        let result = try Self.collect(steady) { samples, _ in Self.span(samples, atLeast: 5) && vanishing.isFinished }
        let times = result.samples.map(\.time)
        let gap = zip(times.dropFirst(), times).map { $0 - $1 }.max() ?? 1
        #expect(times.count > 450 && gap < 0.025 && result.dropped == 0, "\(times.count) samples, gap \(gap) s, \(result.dropped) dropped")
        #expect(daemon.isRunning)
        // Every vanished client is gone from the daemon's list (as soon as it has seen the
        // hang-ups: how soon depends on the load; a minute means it never did).
        var names: [String] = []
        let alone = eventually(seconds: 60) {
            guard case .status(_, let status)? = try? steady.ask({ .status(request: $0) }) else { return false }
            names = status.clients.map(\.name)
            return names == ["steady"]
        }
        #expect(alone, "\(names)")
    }
}
