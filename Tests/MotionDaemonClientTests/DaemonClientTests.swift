import Foundation
import MotionDaemonClient
import MotionDaemonProtocol
import Locking
import Testing
import TestSupport

/// The client on its own: streams, queries, a restart survived with the gap reported, and the
/// typed errors.
@Suite(.serialized, .blocking) struct DaemonClientTests {
    @Test func noDaemonIsNotRunningWithAdvice() {
        let error = #expect(throws: DaemonClientError.self) { try DaemonClient(path: "/tmp/ocm-no-such-\(getpid()).sock", name: "test") }
        #expect(error?.kind == .notRunning)
        #expect(error?.advice.contains("systemctl start motiond") == true, "\(String(describing: error))")
    }

    /// motiond SIGKILLed and started again while the client streams the accelerometer: the
    /// handler hears `interrupted`, then `resumed` with the gap, and samples flow again without
    /// the caller doing anything.
    @Test func aStreamResumesByItselfAfterTheDaemonRestarts() throws {
        let daemon = try Motiond("restart")
        defer { daemon.remove() }
        try daemon.start()
        let client = try DaemonClient(path: daemon.socket, name: "restart test")
        defer { client.close() }
        let times = Collected<Double>()
        let notices = Collected<String>()
        try client.subscribe(.accelerometer, interval: 0.02) { delivery in
            switch delivery {
            case .samples(.vectors(_, let samples)): for sample in samples { times.append(sample.time) }
            case .samples, .batch, .droppedBatches: break
            case .dropped(let count, _): notices.append("dropped \(count)")
            case .interrupted: notices.append("interrupted")
            case .resumed(let gap): notices.append("resumed \(gap)")
            case .ended(let error): notices.append("ended \(error)")
            }
        }
        #expect(eventually(within: 5) { times.count >= 25 })
        daemon.stop(signal: SIGKILL)
        #expect(eventually(within: 5) { notices.all.contains("interrupted") })
        usleep(500_000)  // down for half a second (systemd's RestartSec is of that order)
        let before = times.count
        let restart = Date()
        try daemon.start()
        let answered = Date()
        #expect(eventually(within: 10) { times.count > before }, "samples resume after the restart")
        let resumedAfter = Date().timeIntervalSince(answered)
        #expect(eventually(within: 10) { times.count > before + 25 })
        let gaps = client.reconnections.gapSeconds
        print("restart: \(before) samples before; motiond took \(String(format: "%.2f", answered.timeIntervalSince(restart))) s to answer, the first sample came \(String(format: "%.3f", resumedAfter)) s later; client gap \(gaps) s; notices \(notices.all)")
        #expect(client.reconnections.count == 1 && gaps.count == 1)
        #expect(notices.all.first == "interrupted" && notices.all.contains { $0.hasPrefix("resumed") })
        #expect(!notices.all.contains { $0.hasPrefix("ended") })
        // Time goes forward across the gap, and the gap shows in the samples' times too.
        let all = times.all
        #expect(zip(all, all.dropFirst()).allSatisfy { $0 < $1 })
        #expect(zip(all, all.dropFirst()).map { $1 - $0 }.max() ?? 0 > 0.5)
        // At least the half second it was down; how much longer depends on the machine's load
        // (a minute only on a hang).
        #expect(gaps.allSatisfy { $0 >= 0.5 && $0 < 60 }, "\(gaps)")
    }

    /// A handler (on the reader thread, as a C callback is) that queries and then stops its own
    /// stream gets its answers at once instead of waiting for itself; the samples read meanwhile
    /// are delivered afterwards, and nothing after the stop.
    @Test func aHandlerMayQueryAndStopItsStream() throws {
        let daemon = try Motiond("reentrant")
        defer { daemon.remove() }
        try daemon.start()
        let client = try DaemonClient(path: daemon.socket, name: "reentrant test")
        defer { client.close() }
        let outcomes = Collected<String>()
        let batches = Collected<Int>()
        let asked = Lock(false)
        let started = Date()
        try client.subscribe(.accelerometer, interval: 0.01) { delivery in
            guard case .samples(let batch) = delivery else { return }
            batches.append(batch.count)
            guard asked.withLock({ done in defer { done = true }; return !done }) else { return }
            let steps = Result { try client.pedometer(from: 0, to: Date().timeIntervalSince1970) }
            outcomes.append((try? steps.get()).map { "steps \($0.steps)" } ?? "query failed: \(steps)")
            client.unsubscribe(.accelerometer)
            outcomes.append("stopped")
        }
        #expect(eventually(within: 5) { outcomes.count == 2 })
        print("reentrant: \(outcomes.all) after \(String(format: "%.3f", Date().timeIntervalSince(started))) s; \(batches.count) batches")
        #expect(outcomes.all.first?.hasPrefix("steps") == true && outcomes.all.last == "stopped", "\(outcomes.all)")
        // Well under the 30 s timeout a handler waiting for itself would hit, whatever the load.
        #expect(Date().timeIntervalSince(started) < 20, "answered without waiting for the 30 s timeout")
        let after = batches.count
        usleep(300_000)
        #expect(batches.count <= after + 1, "nothing after the stop but what was read before it")
    }

    /// The policy denies the test's user: the welcome says `restricted`, and each request is
    /// refused with an `unauthorized` error that says to ask the administrator.
    @Test func aDeniedUserGetsTheTypedError() throws {
        let daemon = try Motiond("deny", policy: "deny \(getuid())\n")
        defer { daemon.remove() }
        try daemon.start()
        let client = try DaemonClient(path: daemon.socket, name: "denied")
        defer { client.close() }
        #expect(client.welcome.authorization == .restricted)
        let error = #expect(throws: DaemonClientError.self) { try client.subscribe(.accelerometer, interval: 0.1) { _ in } }
        #expect(error?.kind == .unauthorized(.restricted))
        #expect(error?.advice.contains("administrator") == true, "\(String(describing: error))")
        let query = #expect(throws: DaemonClientError.self) { try client.pedometer(from: 0, to: Date().timeIntervalSince1970) }
        #expect(query?.kind == .unauthorized(.restricted))
    }
}
