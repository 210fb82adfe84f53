import Foundation
import OpenCoreMotion
import Testing
import TestSupport

/// A copy of a board file in a fresh directory: its own engine in this process, so that running
/// its IMU fast for batches does not touch what other suites stream from the original.
func isolatedBoard(_ name: String) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocm-batched-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let copy = directory.appendingPathComponent(name).path
    // A relative `motion` path starts from the folder above the board file's: made absolute
    // here, so the copy replays the checkout's recording.
    let text = try String(contentsOfFile: board(name), encoding: .utf8)
        .replacingOccurrences(of: "motion = Tests/", with: "motion = \(ProjectPaths.root)/Tests/")
    try text.write(toFile: copy, atomically: true, encoding: .utf8)
    return copy
}

/// The boards with a FIFO IMU: file, FIFO rate (Hz), FIFO period (ns).
let fifoBoards: [(name: String, hertz: Int, periodNanoseconds: Int64)] = [
    ("sim-gy-521.board", 1000, 1_000_000),       // MPU-6050, INT wired (not used when batched)
    ("sim-mpu-9250.board", 1000, 1_000_000),     // MPU-9250 + AK8963
    ("sim-bmi160-bmp280.board", 1600, 625_000),  // BMI160 + BMP280
]

/// Consecutive timestamp differences in ns across `batches`, in order.
func steps(_ timestamps: [Int64]) -> Set<Int64> {
    Set(zip(timestamps.dropFirst(), timestamps).map { $0 - $1 })
}

// Live boards run in real time: one test at a time (each runs its boards side by side).
@Suite(.serialized) struct BatchedSensorManagerTests {
    @Test func supportAndRatesFollowTheBoardsFIFOChip() {
        for (name, hertz, _) in fifoBoards {
            let manager = CMBatchedSensorManager(board: board(name))
            #expect(manager.isAccelerometerSupported && manager.isDeviceMotionSupported, "\(name)")
            #expect(manager.accelerometerDataFrequency == hertz, "\(name)")
            #expect(manager.deviceMotionDataFrequency == 200, "\(name)")
            #expect(!manager.isAccelerometerActive && !manager.isDeviceMotionActive)
        }
        // The class properties answer for the system's board (in-process here: none configured).
        let system = CMBatchedSensorManager(daemonSocket: "/tmp/ocm-no-daemon-\(getpid()).sock")
        #expect(CMBatchedSensorManager.isAccelerometerSupported == system.isAccelerometerSupported)
        // Polled IMUs (no FIFO driver): nothing batched, and starting says why.
        for name in ["sim-sense-hat.board", "sim-lsm6dsox-lis3mdl.board"] {
            let manager = CMBatchedSensorManager(board: board(name))
            #expect(!manager.isAccelerometerSupported && !manager.isDeviceMotionSupported, "\(name)")
            #expect(manager.accelerometerDataFrequency == 0 && manager.deviceMotionDataFrequency == 0)
        }
    }

    @Test func unsupportedBoardThrowsFromTheSequenceAndCallsTheHandlerOnce() async throws {
        let manager = CMBatchedSensorManager(board: board("sim-sense-hat.board"))
        await #expect {
            for try await _ in manager.accelerometerUpdates() {}
        } throws: { error in
            guard let error = error as? CMError else { return false }
            return error.code == .notAvailable && error.message.contains("FIFO") && error.message.contains("lsm9ds1")
        }
        let received = Received<[CMDeviceMotion]>()
        manager.startDeviceMotionUpdates { batch, error in received.handle(batch, error) }
        #expect(received.failures.count == 1 && received.data.isEmpty)  // nil batch, as Core Motion's optional
        #expect(!manager.isDeviceMotionActive)
    }

    /// Four seconds of accelerometer batches on every FIFO board at once: a second of samples per
    /// batch, FIFO-period steps throughout (within and across batches), nothing lost.
    @Test func accelerometerBatchesAtFullRateLoseNothing() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (name, hertz, period) in fifoBoards {
                let manager = CMBatchedSensorManager(board: try isolatedBoard(name))
                group.addTask {
                    var batches: [[CMAccelerometerData]] = []
                    // The losses while the batches were read: once the loop is left, the stream
                    // runs on until the stop below, and its unread batches are (rightly) dropped
                    // for a consumer that no longer reads — on a loaded machine that can be seconds.
                    var drops = manager.accelerometerDrops
                    for try await batch in manager.accelerometerUpdates() {
                        batches.append(batch)
                        if batches.count == 4 {
                            drops = manager.accelerometerDrops
                            break
                        }
                    }
                    #expect(manager.isAccelerometerActive)
                    manager.stopAccelerometerUpdates()
                    #expect(!manager.isAccelerometerActive)
                    #expect(batches.allSatisfy { $0.count == hertz }, "\(name): \(batches.map(\.count))")
                    let times = batches.flatMap { $0.map(\.timestampNanoseconds) }
                    // CMLogItem keeps seconds as a Double: a nanosecond of rounding either way.
                    #expect(steps(times).allSatisfy { abs($0 - period) <= 1 }, "\(name): steps \(steps(times).sorted())")
                    // At rest or moving, a real recording: |a| within a plausible range (g).
                    let magnitudes = batches.joined().map { ($0.acceleration.x * $0.acceleration.x + $0.acceleration.y * $0.acceleration.y
                                                             + $0.acceleration.z * $0.acceleration.z).squareRoot() }
                    #expect(magnitudes.allSatisfy { $0 > 0.2 && $0 < 4 }, "\(name)")
                    // Nothing lost on the board's side. A consumer task the test runner's busy
                    // thread pool leaves waiting for seconds (swift test runs suites side by side)
                    // loses whole batches, counted; the zero-drop figure at full rate is
                    // `motionctl bench-batched`'s, on a dedicated process.
                    #expect(drops.fifo == 0 && drops.fifoOverflows == 0, "\(name): \(drops)")
                    #expect(drops.queueFull % hertz == 0, "\(name): whole batches only: \(drops)")
                    #expect(drops.delivered >= 3 * hertz, "\(name): \(drops)")
                }
            }
            try await group.waitForAll()
        }
    }

    /// Device motion at 200 Hz in one-second batches, fused at the FIFO rate.
    @Test func deviceMotionBatchesAt200Hertz() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (name, _, _) in fifoBoards where name != "sim-mpu-9250.board" {
                let manager = CMBatchedSensorManager(board: try isolatedBoard(name))
                group.addTask {
                    var batches: [[CMDeviceMotion]] = []
                    for try await batch in manager.deviceMotionUpdates() {
                        batches.append(batch)
                        if batches.count == 3 { break }
                    }
                    manager.stopDeviceMotionUpdates()
                    #expect(batches.allSatisfy { $0.count == 200 }, "\(name): \(batches.map(\.count))")
                    let times = batches.flatMap { $0.map(\.timestampNanoseconds) }
                    #expect(steps(times).allSatisfy { abs($0 - 5_000_000) <= 1 }, "\(name): steps \(steps(times).sorted())")
                    let gravity = batches.joined().map { ($0.gravity.x * $0.gravity.x + $0.gravity.y * $0.gravity.y + $0.gravity.z * $0.gravity.z).squareRoot() }
                    #expect(gravity.allSatisfy { abs($0 - 1) < 0.01 }, "\(name): gravity is a unit vector")
                    #expect(manager.deviceMotionDrops.total == 0)
                }
            }
            try await group.waitForAll()
        }
    }

    /// Pull: the latest batch replaces the one before, and not reading is no drop.
    @Test func pullKeepsTheLatestBatch() async throws {
        let manager = CMBatchedSensorManager(board: try isolatedBoard("sim-bmi160-bmp280.board"))
        #expect(manager.accelerometerBatch == nil)
        manager.startAccelerometerUpdates()
        manager.startDeviceMotionUpdates()
        #expect(manager.isAccelerometerActive && manager.isDeviceMotionActive)
        #expect(try await eventually { manager.accelerometerDrops.delivered >= 2 * 1600 })
        let first = try #require(manager.accelerometerBatch)
        #expect(first.count == 1600)
        #expect(try await eventually { manager.accelerometerBatch?.first?.timestampNanoseconds != first.first?.timestampNanoseconds })
        let next = try #require(manager.accelerometerBatch)
        #expect(next[0].timestampNanoseconds > first[first.count - 1].timestampNanoseconds)
        #expect(manager.deviceMotionBatch?.count == 200)
        manager.stopAccelerometerUpdates()
        manager.stopDeviceMotionUpdates()
        #expect(manager.accelerometerBatch?.count == 1600, "kept after stop")
        #expect(manager.accelerometerDrops.total == 0 && manager.deviceMotionDrops.total == 0)
    }

    /// A consumer that reads nothing loses whole batches, counted, while the engine goes on: the
    /// board's 100 Hz accelerometer stream (decimated from the fast FIFO) keeps its rate and
    /// its 10 ms steps, and the batched stream resumes once the consumer reads again.
    @Test func aSlowConsumerGetsCountedDropsNotAStalledEngine() async throws {
        let path = try isolatedBoard("sim-gy-521.board")
        let batched = CMBatchedSensorManager(board: path)
        let motion = CMMotionManager(board: path)
        let queue = serialQueue()
        let received = Received<CMAccelerometerData>()
        motion.accelerometerUpdateInterval = 0.01
        let slow = Received<[CMAccelerometerData]>()
        let release = Semaphore()
        batched.startAccelerometerUpdates { batch, error in
            slow.handle(batch, error)
            if slow.data.count == 1 { release.wait() }  // stuck in the first batch
        }
        motion.startAccelerometerUpdates(to: queue) { data, error in received.handle(data, error) }
        // The handler holds batch 1; four more fill the queue; batch 6 onwards are dropped.
        #expect(try await eventually { batched.accelerometerDrops.queueFull >= 2000 })
        #expect(batched.accelerometerDrops.queueFull % 1000 == 0, "whole batches: \(batched.accelerometerDrops)")
        // The engine did not wait for the handler: the other stream goes on (another second of
        // it while the handler is still stuck) at 100 Hz: its steps 10 ms or more, every one on the
        // fast chip's 1 ms sample clock and those over 15 ms all samples reported lost or
        // dropped (a loaded machine may make the engine late enough to lose some; FIFO drops
        // and overflows, the engine's lateness, are not the slow consumer's, so not asserted).
        let atFull = received.data.count
        #expect(try await eventually { received.data.count >= atFull + 100 }, "the 100 Hz stream stopped with the stuck handler")
        let updates = received.data.map(\.timestampNanoseconds)
        #expect(steps(updates).allSatisfy { $0 >= 10_000_000 && $0 % 1_000_000 == 0 }, "\(steps(updates).sorted())")
        let missing = missingSamples(updates, period: 10_000_000)
        let reported = motion.lostAccelerometerSamples + motion.droppedAccelerometerUpdates
        #expect(missing <= reported, "\(missing) updates missing, \(reported) samples reported lost or dropped")
        release.signal()
        let before = slow.data.count
        #expect(try await eventually { slow.data.count >= before + 5 })  // the queued four, then new ones
        batched.stopAccelerometerUpdates()
        let atStop = slow.data.count
        motion.stopAccelerometerUpdates()
        try await drain(queue)
        try await Task.sleep(for: .milliseconds(1500))
        #expect(slow.data.count == atStop, "the handler is not called after stop returns")
        #expect(slow.failures.isEmpty && received.failures.isEmpty)
    }
}

/// A counting semaphore for a handler that must block (a consumer stuck on its batch).
final class Semaphore: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func wait() { semaphore.wait() }
    func signal() { semaphore.signal() }
}
