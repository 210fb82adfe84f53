import Foundation
import OpenCoreMotion
import Synchronization
import Testing

/// A 100 Hz accelerometer client while a batched client comes and goes on the same board: the
/// board's MPU-6050 switches to 1 kHz and back in place, so the client's stream goes on
/// without a gap, a timestamp going back, a new time origin, or a sample lost or repeated
/// (issue 9).
@Suite(.serialized) struct BatchedRateSwitchTests {
    static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    @Test func a100HertzClientSeesNoGapAcrossTheSwitchAndBack() async throws {
        let path = try isolatedBoard("sim-gy-521.board")
        let manager = CMMotionManager(board: path)
        manager.accelerometerUpdateInterval = 0.01
        let stamps = Mutex<[Int64]>([])
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let dispatchQueue = DispatchQueue(label: "BatchedRateSwitchTests")  // a thread of its own (see ClientTimingTests)
        queue.underlyingQueue = dispatchQueue
        defer { withExtendedLifetime(dispatchQueue) {} }
        manager.startAccelerometerUpdates(to: queue) { data, _ in
            guard let data else { return }
            stamps.withLock { $0.append(data.timestampNanoseconds) }
        }
        try await Task.sleep(for: .seconds(1))
        let batched = CMBatchedSensorManager(board: path)
        let switchedAt = Self.monotonicNanoseconds()
        var batches: [[CMAccelerometerData]] = []
        for try await batch in batched.accelerometerUpdates() {
            batches.append(batch)
            if batches.count == 2 { break }
        }
        batched.stopAccelerometerUpdates()
        let switchedBackAt = Self.monotonicNanoseconds()
        try await Task.sleep(for: .seconds(1))
        manager.stopAccelerometerUpdates()
        try await Task.sleep(for: .milliseconds(50))

        #expect(batches.allSatisfy { $0.count == 1000 }, "\(batches.map(\.count))")
        let times = stamps.withLock { $0 }
        let gaps = zip(times.dropFirst(), times).map { (time: $1, gap: $0 - $1) }
        #expect(gaps.allSatisfy { $0.gap > 0 }, "a timestamp went back")
        // Longest gap within 200 ms of each switch, and anywhere.
        func longest(near moment: Int64) -> Int64 { gaps.filter { abs($0.time - moment) < 200_000_000 }.map(\.gap).max() ?? 0 }
        let longestGap = gaps.map(\.gap).max() ?? .max
        print("100 Hz client across the switch to 1 kHz and back: \(times.count) updates, longest gap "
              + "\(Double(longestGap) / 1e6) ms (near the switch up \(Double(longest(near: switchedAt)) / 1e6) ms, "
              + "back \(Double(longest(near: switchedBackAt)) / 1e6) ms)")
        #expect(longestGap <= 15_000_000, "longest gap \(Double(longestGap) / 1e6) ms")
        // One time origin across each switch: the stamps within 200 ms of it all on the chip's
        // 1 ms internal sample clock, counted from the first of them (a new runtime would start
        // a new origin, off that grid). Only near the switches: on a loaded machine the test can
        // outlast the simulated recording, whose restart rightly starts a new origin.
        for moment in [switchedAt, switchedBackAt] {
            let near = times.filter { abs($0 - moment) < 200_000_000 }
            let offGrid = near.filter { ($0 - near[0]) % 1_000_000 != 0 }
            #expect(near.count > 20 && offGrid.isEmpty, "\(offGrid.count) of \(near.count) stamps near a switch off the 1 ms grid")
        }
        #expect(times.first.map { $0 < switchedAt - 500_000_000 } == true && times.last.map { $0 > switchedBackAt + 500_000_000 } == true)
        #expect(manager.lostAccelerometerSamples == 0 && manager.repeatedAccelerometerSamples == 0 && manager.droppedAccelerometerUpdates == 0)
    }
}
