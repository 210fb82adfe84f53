import Foundation
import MotionDaemon
import MotionDaemonProtocol
import Testing

/// A daemon restarted within a fraction of a second: the sensor recorder's history must show
/// the break as a new continuity run (CMRecordedAccelerometerData.identifier), however short
/// it is, and no stored sample may carry a time after the moment the old daemon was stopped.
@Suite(.serialized) struct QuickRestartTests {
    @Test func aRestartOfAFifthOfASecondStartsANewContinuityRun() throws {
        let daemon = try DaemonProcess("quick-restart")
        defer { daemon.remove() }
        let start = wallSeconds
        try daemon.start()
        usleep(UInt32(ProcessInfo.processInfo.environment["QR_SECONDS"].flatMap(Double.init).map { $0 * 1e6 } ?? 3e6))
        let stoppedAt = wallSeconds
        #expect(daemon.stop() == 0)
        let exitedAt = wallSeconds
        usleep(200_000)
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
