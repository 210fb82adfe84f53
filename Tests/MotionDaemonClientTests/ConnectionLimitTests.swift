import Foundation
import MotionDaemonClient
import OpenCoreMotion
import Testing
import TestSupport

/// A manager for the system's board that motiond refuses (its per-user connection limit,
/// issue 22) says why, and does not run the board in-process beside the daemon, which would
/// drive the same chips from two processes.
@Suite(.blocking) struct ConnectionLimitTests {
    @Test func aManagerTheDaemonRefusesSaysWhyAndLeavesTheBoardAlone() throws {
        let daemon = try Motiond("limit", options: ["--max-clients-per-user", "1"])
        defer { daemon.remove() }
        try daemon.start()
        // The user's one place (the start probe's comes free once motiond sees it closed).
        let holder = Collected<DaemonClient>()
        #expect(eventually(within: 10) {
            if let client = try? DaemonClient(path: daemon.socket, name: "holder") { holder.append(client) }
            return holder.count > 0
        })
        defer { holder.all.first?.close() }
        let pedometer = CMPedometer(daemonSocket: daemon.socket)
        #expect(!pedometer.isUsingDaemon)
        let errors = Collected<CMError>()
        pedometer.startUpdates(from: Date()) { data, error in
            #expect(data == nil)
            if let error = error as? CMError { errors.append(error) }
        }
        #expect(eventually(within: 5) { errors.count >= 1 })
        pedometer.stopUpdates()
        let error = try #require(errors.all.first)
        print("over the limit: \(error.localizedDescription)")
        #expect(error.code == .notAvailable)
        #expect(error.localizedDescription.contains("limit per user") && error.localizedDescription.contains("--max-clients-per-user"),
                "\(error.localizedDescription)")
    }
}
