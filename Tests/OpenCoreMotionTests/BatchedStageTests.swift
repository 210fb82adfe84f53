import FixedPoint
import MotionAlgorithms
import MotionEngine
@testable import MotionManagerCore
import Testing
import TestSupport

/// The engine thread's batched stage on hand-made FIFO frames (no board running): losses are
/// counted where they happen, and the other streams get one frame of every `decimation`.
struct BatchedStageTests {
    let period: Int64 = 1_000_000  // 1 kHz

    func stage() throws -> BatchedStage {
        let board = try BoardDescription.load(path: ProjectPaths.root + "/boards/sim-gy-521.board")
        let stage = BatchedStage(board: board, calibration: nil)
        stage.rateChanged(decimation: 10, periodNanoseconds: period, overflows: 0)
        return stage
    }

    /// Feeds FIFO frames (acceleration, angular velocity) at `times`; returns the frames the
    /// other streams got.
    func feed(_ stage: BatchedStage, _ times: some Sequence<Int64>) -> Int {
        var passed = 0
        for time in times {
            let a = stage.take(SensorReading(timestampNanoseconds: time, value: .acceleration(Vector3(x: .zero, y: .zero, z: Q16_16(9.80665)))))
            let g = stage.take(SensorReading(timestampNanoseconds: time, value: .angularVelocity(.zero)))
            #expect(a == g, "a frame passes whole or not at all")
            if a { passed += 1 }
        }
        return passed
    }

    @Test func everySampleIsBatchedAndOneFrameInTenGoesOn() throws {
        let stage = try stage()
        let accelerometer = BatchClient<SensorReading>(frequencyHertz: 1000, queueCapacity: 4)
        stage.add(.accelerometer(accelerometer))
        let passed = feed(stage, (0..<2500).map { Int64($0) * period })
        #expect(passed == 250)
        #expect(accelerometer.queue.count == 2 && accelerometer.deliveredSamples == 2000)  // the third batch is filling
        guard case .batch(let batch) = accelerometer.queue.pop(orWake: nil) else { Issue.record("no batch"); return }
        #expect(batch.count == 1000 && batch.first?.timestampNanoseconds == 0 && batch.last?.timestampNanoseconds == 999 * period)
        #expect(accelerometer.droppedSamples == 0)
    }

    @Test func aGapInFIFOTimestampsAndOverflowsAreCounted() throws {
        let stage = try stage()
        let accelerometer = BatchClient<SensorReading>(frequencyHertz: 1000, queueCapacity: 4)
        let motion = BatchClient<DeviceMotion>(frequencyHertz: 200, queueCapacity: 4)
        stage.add(.accelerometer(accelerometer))
        stage.add(.deviceMotion(motion))
        // Frames 0…99, then 100…184 lost (85 frames: a full MPU-6050 FIFO), then 185…299.
        _ = feed(stage, (0..<300).filter { !(100..<185).contains($0) }.map { Int64($0) * period })
        stage.observe(overflows: 1)
        #expect(accelerometer.fifoDroppedSamples == 85 && accelerometer.fifoOverflows == 1)
        #expect(motion.fifoDroppedSamples == 17 && motion.fifoOverflows == 1)  // 85 frames at one output in 5
        stage.observe(overflows: 1)
        #expect(accelerometer.fifoOverflows == 1, "an overflow is counted once")
        // A stamp within 1.5 periods is jitter, not a loss.
        _ = feed(stage, [300 * period + period / 3, 301 * period + period / 3])
        #expect(accelerometer.fifoDroppedSamples == 85)
    }

    @Test func aFullQueueDropsWholeBatchesAndCountsThem() throws {
        let stage = try stage()
        let accelerometer = BatchClient<SensorReading>(frequencyHertz: 1000, queueCapacity: 1)
        stage.add(.accelerometer(accelerometer))
        _ = feed(stage, (0..<3000).map { Int64($0) * period })
        #expect(accelerometer.deliveredSamples == 1000 && accelerometer.queueDroppedSamples == 2000)
        accelerometer.cancel()
        guard case .batch = accelerometer.queue.pop(orWake: nil), case .ended(nil) = accelerometer.queue.pop(orWake: nil) else {
            Issue.record("the queued batch, then the end")
            return
        }
    }

    @Test func atTheBoardsOwnRateEverythingGoesOnAndNothingIsBatched() throws {
        let stage = try stage()
        stage.rateChanged(decimation: 1, periodNanoseconds: 0, overflows: 0)
        let accelerometer = BatchClient<SensorReading>(frequencyHertz: 1000, queueCapacity: 4)
        stage.add(.accelerometer(accelerometer))
        #expect(feed(stage, (0..<1000).map { Int64($0) * 10 * period }) == 1000)
        #expect(accelerometer.deliveredSamples == 0)
    }
}
