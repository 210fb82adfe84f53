import Foundation
import MotionAlgorithms
@testable import MotionEngine
@testable import MotionManagerCore
import OpenCoreMotion
import Locking
import TestSupport
import Testing

/// Samples a board loses reach the client (issue 11: never silent): the engine forwards each
/// runtime's counts to the board's totals, across the runtimes of successive engine sessions,
/// and `CMMotionManager` reads them.
@Suite struct SampleLossTests {
    /// A simulated LSM6DSx whose data-ready pin the runtime misses `skipped` times at 300 ms: its
    /// output registers hold one sample, so each missed edge is a lost sample.
    static func lossyRuntime(skipped: Int) throws -> BoardRuntime {
        let description = try BoardFileParser.parse("""
            board = sim
            [chip imu]
            driver = lsm6dsx
            bus = emulated
            address = 0x6A
            rate = 104
            interrupt = GPIO17
            """, path: "sim.board")
        let runtime = try BoardRuntime(description, root: ProjectPaths.root, speed: 0)
        try runtime.run(untilNanoseconds: 300_000_000) { _ in }
        let emulation = try #require(runtime.sessions[0].emulation)
        for _ in 0..<skipped { emulation.advance(try #require(emulation.chip.nextDataReadyNanoseconds)) }
        try runtime.run(untilNanoseconds: 600_000_000) { _ in }
        return runtime
    }

    @Test func eachRuntimesLossesAddUpOnceInTheBoardsTotals() throws {
        let counts = SampleLossCounts()
        var forwarded = InlineArray<5, SampleLoss>(repeating: SampleLoss())
        let first = try Self.lossyRuntime(skipped: 3)
        counts.forward(first, &forwarded)
        counts.forward(first, &forwarded)  // nothing new: nothing added
        #expect(counts.loss(.accelerometer) == SampleLoss(dropped: 3, duplicated: 0))
        #expect(counts.loss(.gyroscope) == SampleLoss(dropped: 3, duplicated: 0))
        #expect(counts.loss(.magnetometer) == SampleLoss())
        // The next engine session's runtime counts from zero again; the totals keep both.
        forwarded = InlineArray(repeating: SampleLoss())
        counts.forward(try Self.lossyRuntime(skipped: 2), &forwarded)
        #expect(counts.loss(.accelerometer) == SampleLoss(dropped: 5, duplicated: 0))
    }

    /// What `CMMotionManager` reports lost is what its stream shows missing: none silent, none
    /// made up. A clean simulated board loses nothing unless the machine is loaded enough to make
    /// the engine miss samples, so the check is on the stream, not on a count of zero.
    @Test func aManagerReportsTheLossItsStreamShowsAndNoOther() async throws {
        let manager = CMMotionManager(board: try isolatedBoard("sim-mpu-9250.board"))  // its own engine: its counts are this test's
        manager.accelerometerUpdateInterval = 0.01  // every sample of the 100 Hz chip
        let stamps = Lock<[Int64]>([])
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        manager.startAccelerometerUpdates(to: queue) { data, _ in
            if let data { stamps.withLock { $0.append(data.timestampNanoseconds) } }
        }
        manager.startMagnetometerUpdates()
        #expect(try await eventually { stamps.withLock { $0.count } >= 40 && manager.magnetometerData != nil })
        // The engine delivers a step's samples before it adds the step's losses to the counts:
        // every loss reported by now has its gap in the stream once the queue has run.
        let lostBeforeStop = manager.lostAccelerometerSamples
        manager.stopAccelerometerUpdates()
        manager.stopMagnetometerUpdates()
        try await drain(queue)
        let missing = missingSamples(stamps.withLock { $0 }, period: 10_000_000)
        let reported = manager.lostAccelerometerSamples + manager.droppedAccelerometerUpdates
        #expect(missing <= reported, "\(missing) samples missing from the stream, \(reported) reported")
        #expect(lostBeforeStop <= missing, "\(lostBeforeStop) samples reported lost, \(missing) missing from the stream")
        #expect(manager.repeatedAccelerometerSamples == 0 && manager.repeatedMagnetometerSamples == 0)
    }
}
