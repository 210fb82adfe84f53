// The per-sample cost of what runs for every sensor sample today: the stream monitor and
// channel statistics (MotionAlgorithms), and the whole replay path (parse a recording row,
// convert to fixed point, monitor, accumulate). Allocations must be zero per sample; the replay
// benchmark's few allocations per iteration are opening the file (divide by the row count).
import Benchmark
import FixedPoint
import MotionAlgorithms
import MotionEngine

/// <root>/Tests/Recordings, found from this file (<root>/Benchmarks/Benchmarks/SamplePipeline/…).
let recordingsFolder: String = {
    var path = "\(#filePath)"
    for _ in 0..<4 { path = String(path[..<path.lastIndex(of: "/")!]) }
    return path + "/Tests/Recordings/"
}()

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .instructions, .throughput],
        warmupIterations: 3,
        maxDuration: .seconds(2),
        maxIterations: .kilo(10)
    )

    // 1024 readings of the three vector channels, as a 285.7 Hz IMU delivers them.
    let readings: [SensorReading] = (0..<1024).map { index in
        let vector = Vector3(x: Q16_16(rawValue: Int32(index * 37)), y: Q16_16(rawValue: -Int32(index * 11)), z: Q16_16(9.81))
        let values: [SensorValue] = [.acceleration(vector), .angularVelocity(vector), .magneticField(vector)]
        return SensorReading(timestampNanoseconds: Int64(index / 3) * 3_500_000, value: values[index % 3])
    }

    Benchmark("stream monitor + channel statistics, per 1024 samples",
              configuration: .init(scalingFactor: .kilo, thresholds: [.mallocCountTotal: .init(absolute: [.p100: 0])])) { benchmark in
        for _ in benchmark.scaledIterations {
            var monitors = (SampleStreamMonitor(), SampleStreamMonitor(), SampleStreamMonitor())
            var statistics = (ChannelStatistics(), ChannelStatistics(), ChannelStatistics())
            for reading in readings {
                switch reading.value.channel {
                case .accelerometer: _ = monitors.0.record(timestampNanoseconds: reading.timestampNanoseconds); statistics.0.add(reading.value)
                case .gyroscope: _ = monitors.1.record(timestampNanoseconds: reading.timestampNanoseconds); statistics.1.add(reading.value)
                default: _ = monitors.2.record(timestampNanoseconds: reading.timestampNanoseconds); statistics.2.add(reading.value)
                }
            }
            blackHole(statistics.0.levelSum &+ statistics.1.levelSum &+ statistics.2.levelSum &+ monitors.0.sampleCount)
        }
    }

    // BROAD excerpt: 17 145 rows of acc, gyr, mag at 285.7 Hz, gzip-compressed.
    Benchmark("replay broad_01_slow_rotation.csv.gz (17 145 samples)") { benchmark in
        for _ in benchmark.scaledIterations {
            let playback = try RecordingPlayback(path: recordingsFolder + "broad_01_slow_rotation.csv.gz")
            blackHole(try playback.run())
        }
    }
}
