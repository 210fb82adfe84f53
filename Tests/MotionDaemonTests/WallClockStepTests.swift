import Foundation
import MotionDaemon
import MotionDaemonProtocol
import Testing
import TestSupport

/// The wall clock stepped forward and back by hours while motiond runs (issue 22), without root
/// and without moving the machine's clock: motiond's hidden `--wall-clock-step-file` steps
/// CLOCK_REALTIME as motiond reads it (`WallClock.simulatedStepNanoseconds`). motiond keeps the
/// clock it started with: the live stream goes on without a jump, a drop or a sample misdated
/// by the step; the history holds the whole run, continuous and on the same clock, and its
/// pedometer queries still sum; each step is one log line saying which way.
@Suite(.blocking) struct WallClockStepTests {
    @Test func steppedForwardAndBackByHoursNothingIsLostOrMisdated() throws {
        let hour: Int64 = 3_600_000_000_000
        let stepFile = "/tmp/motiond-clock-step-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(stepFile) }
        func step(_ nanoseconds: Int64) throws { try "\(nanoseconds)\n".write(toFile: stepFile, atomically: true, encoding: .utf8) }
        try step(0)
        let daemon = try DaemonProcess("clock-step", options: ["--wall-clock-step-file", stepFile])
        defer { daemon.remove() }
        let start = wallSeconds
        try daemon.start()
        let live = try daemon.connect("live")
        try live.subscribe(.accelerometer, interval: 0)
        func stepLines() -> [String] { daemon.log.split(separator: "\n").map(String.init).filter { $0.contains("the wall clock stepped") } }

        // 2 s of samples (by their timestamps) before the first step, then after each step 2 s
        // more, read on until motiond has logged it (reading all along: a stalled reader would
        // be dropped for, which is not what is tested here). Boundaries on this process's clock,
        // the real one, which motiond's times must stay on.
        var samples: [VectorSample] = []
        var dropped: UInt64 = 0
        var boundaries = [start]
        for (index, nanoseconds) in [Int64?.none, 3 * hour, -3 * hour, 0].enumerated() {
            if let nanoseconds { try step(nanoseconds) }
            let part = try StreamingTests.collect(live) { new, _ in StreamingTests.span(new, atLeast: 2) && stepLines().count >= index }
            samples += part.samples
            dropped += part.dropped
            boundaries.append(wallSeconds)
        }
        let end = boundaries.last!

        // Each step one line: forward 3 h, back 6 h (3 h behind), home again.
        let lines = stepLines()
        #expect(lines.count == 3, "\(lines)")
        if lines.count == 3 {
            #expect(lines[0].contains("the wall clock stepped by +3 h 0 min") && lines[0].contains("ahead of the clock motiond started with"), "\(lines[0])")
            #expect(lines[1].contains("the wall clock stepped by -6 h 0 min") && lines[1].contains("behind the clock motiond started with"), "\(lines[1])")
            #expect(lines[2].contains("agrees with motiond's clock again"), "\(lines[2])")
        }

        // Live: 100 Hz throughout, in order, nothing dropped, every time on the real clock (a
        // step followed would put them hours off; a minute is a clock-domain check only).
        let times = samples.map(\.time)
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        print("clock steps: \(times.count) live samples over \(String(format: "%.1f", (times.last ?? 0) - (times.first ?? 0))) s, gaps \(String(format: "%.4f", gaps.min() ?? 0))…\(String(format: "%.4f", gaps.max() ?? 0)) s, \(dropped) dropped")
        #expect(dropped == 0)
        #expect(gaps.allSatisfy { $0 > 0 && $0 < 0.025 }, "gaps from \(gaps.min() ?? 0) to \(gaps.max() ?? 0) s")
        #expect(times.allSatisfy { $0 > start - 60 && $0 < end + 60 }, "live times from \(times.min() ?? 0) to \(times.max() ?? 0), run \(start)…\(end)")

        // History: the recorder's 50 Hz accelerometer over the whole run, one continuity run, no
        // gap, on the same clock (committed once a second: waited for up to a minute).
        let history = try daemon.connect("history")
        var recorded = try history.accelerometer(from: start - 60, to: end + 60)
        for _ in 0..<240 where (recorded.last?.time ?? 0) < end - 1.5 {
            usleep(250_000)
            recorded = try history.accelerometer(from: start - 60, to: end + 60)
        }
        let recordedGaps = zip(recorded.dropFirst(), recorded).map { $0.time - $1.time }
        print("clock steps: recorder \(recorded.count) samples, runs \(Set(recorded.map(\.run)).count), longest gap \(String(format: "%.4f", recordedGaps.max() ?? 0)) s")
        #expect(Set(recorded.map(\.run)).count == 1)
        #expect(recordedGaps.allSatisfy { $0 > 0 && $0 < 0.03 }, "history gaps from \(recordedGaps.min() ?? 0) to \(recordedGaps.max() ?? 0) s")
        #expect((recorded.first?.time ?? .infinity) < boundaries[1] && (recorded.last?.time ?? 0) > boundaries[3],
                "the history does not span the steps: \(recorded.first?.time ?? 0)…\(recorded.last?.time ?? 0), steps at \(boundaries[1...3])")
        #expect(recorded.allSatisfy { $0.time > start - 60 && $0.time < end + 60 }, "history times off the real clock")

        // Pedometer queries by the real clock: the slices between the steps sum to the whole.
        let total = try history.pedometer(from: start, to: end)
        let slices = try zip(boundaries, boundaries.dropFirst()).map { try history.pedometer(from: $0, to: $1).steps }
        print("clock steps: \(total.steps) steps in all, by slice \(slices)")
        #expect(slices.reduce(0, +) == total.steps, "\(slices) vs \(total.steps)")
    }
}
