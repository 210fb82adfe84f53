// The motion-activity stage (issue 7) per sample: the classifier's features, its rhythm
// detector and its walking detector, on 1024 readings of a walk (acc + gyro at 100 Hz).
// Allocations must be zero per sample: the threshold fails the run otherwise.
import Benchmark
import FixedPoint
import MotionAlgorithms
import MotionEngine

func activityBenchmarks() {
    let readings: [SensorReading] = (0..<1024).flatMap { index -> [SensorReading] in
        let t = Double(index / 2) / 100
        let time = Int64(index / 2) * 10_000_000
        let vertical = 9.81 + 2.5 * (t * 1.8).truncatingRemainder(dividingBy: 1) - 1.25
        return [SensorReading(timestampNanoseconds: time, value: .acceleration(Vector3(x: Q16_16(0.1), y: Q16_16(0.3), z: Q16_16(vertical)))),
                SensorReading(timestampNanoseconds: time, value: .angularVelocity(Vector3(x: Q16_16(0.2), y: Q16_16(-0.1), z: Q16_16(0.05))))]
    }.prefix(1024).map { $0 }

    Benchmark("activity stage, per 1024 readings (acc + gyro, 100 Hz)",
              configuration: .init(scalingFactor: .kilo, thresholds: [.mallocCountTotal: .init(absolute: [.p100: 0])])) { benchmark in
        var stage = ActivityStage()
        // Past the start-up (unknown → first window), so the steady state is measured. Each
        // pass moves the clock on by the readings' span: the stage's 0.5 s blocks (and their
        // rhythm evaluation) only run when time advances.
        let span: Int64 = 5_120_000_000
        var offset: Int64 = 0
        for reading in readings { stage.process(reading) { blackHole($0) } }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            offset += span
            for var reading in readings {
                reading.timestampNanoseconds += offset
                stage.process(reading) { blackHole($0) }
            }
        }
    }
}
