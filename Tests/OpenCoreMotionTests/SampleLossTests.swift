import Foundation
import MotionAlgorithms
@testable import MotionEngine
@testable import MotionManagerCore
import OpenCoreMotion
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

    @Test func aManagerOnACleanSimulatedBoardReportsNoLoss() async throws {
        let manager = CMMotionManager(board: "\(ProjectPaths.root)/boards/sim-mpu-9250.board")
        manager.startAccelerometerUpdates()
        manager.startMagnetometerUpdates()
        try await Task.sleep(for: .milliseconds(400))
        #expect(manager.accelerometerData != nil && manager.magnetometerData != nil)
        manager.stopAccelerometerUpdates()
        manager.stopMagnetometerUpdates()
        #expect(manager.lostAccelerometerSamples == 0 && manager.lostGyroSamples == 0 && manager.lostMagnetometerSamples == 0)
        #expect(manager.repeatedAccelerometerSamples == 0 && manager.repeatedMagnetometerSamples == 0)
    }
}
