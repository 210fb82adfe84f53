import Foundation
import MotionDaemon
import MotionDaemonProtocol
import Testing
import TestSupport

/// A daemon restarted at once: the sensor recorder's history must show the break as a new
/// continuity run (CMRecordedAccelerometerData.identifier), however short it is, and no stored
/// sample may carry a time after the old daemon exited.
///
/// Why it could fail: the run rule is a gap of more than two 50 Hz periods (40 ms), and a
/// release motiond stops and starts again in about that (measured: the old daemon's last
/// stored sample 20–45 ms before its exit, the new one answering 25–55 ms after it, the first
/// new sample 30–75 ms after it). The stamps are not ahead of the wall clock (measured: a
/// sample arrives 0.2–0.5 ms after its time). So the daemon tells its store that its engine is
/// a new stream (`HistoryStore.startNewRun`), whatever the gap; MotionHistoryTests checks the
/// store's side with a break of one period, which this end-to-end test cannot force.
@Suite(.serialized, .blocking) struct QuickRestartTests {
    @Test func anImmediateRestartStartsANewContinuityRun() throws {
        let daemon = try DaemonProcess("quick-restart")
        defer { daemon.remove() }
        let start = wallSeconds
        try daemon.start()
        usleep(3_000_000)
        let stoppedAt = wallSeconds
        #expect(daemon.stop() == 0)
        let exitedAt = wallSeconds
        try daemon.start()
        usleep(3_000_000)
        let link = try daemon.connect("history")
        var samples = try link.accelerometer(from: start, to: wallSeconds)
        for _ in 0..<20 where Set(samples.map(\.run)).count < 2 {
            usleep(250_000)
            samples = try link.accelerometer(from: start, to: wallSeconds)
        }
        let runs = Set(samples.map(\.run)).sorted()
        let firstRun = samples.filter { $0.run == runs.first }
        let lastBefore = firstRun.last?.time ?? 0
        let firstAfter = samples.first { $0.run != runs.first }?.time ?? 0
        print("quick restart: runs \(runs.count); old run ends \(String(format: "%.3f", lastBefore - stoppedAt)) s after SIGTERM (exit \(String(format: "%.3f", exitedAt - stoppedAt)) s), new run starts \(String(format: "%.3f", firstAfter - exitedAt)) s after the exit; gap \(String(format: "%.3f", firstAfter - lastBefore)) s")
        #expect(runs.count == 2, "runs \(runs), \(samples.count) samples")
        #expect(lastBefore <= exitedAt, "the old daemon stored a sample stamped after it exited")
        #expect(firstAfter > exitedAt, "the new run starts after the old daemon exited")
    }
}
