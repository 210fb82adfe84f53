// The per-sample cost of what runs for every sensor sample today: the stream monitor and
// channel statistics (MotionAlgorithms), and the whole replay path (parse a recording row,
// convert to fixed point, monitor, accumulate). Allocations must be zero per sample; the replay
// benchmark's few allocations per iteration are opening the file (divide by the row count).
import Benchmark
import Chips
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

    // Driver decode: raw FIFO bytes → two fixed-point SI vectors, per 1024 frames.
    let frames: [UInt8] = (0..<(1024 * 12)).map { UInt8(truncatingIfNeeded: $0 &* 37) }
    Benchmark("MPU-6050 FIFO frame decode, per 1024 frames",
              configuration: .init(scalingFactor: .kilo, thresholds: [.mallocCountTotal: .init(absolute: [.p100: 0])])) { benchmark in
        for _ in benchmark.scaledIterations {
            frames.withUnsafeBytes { bytes in
                for frame in 0..<1024 {
                    blackHole(MPU6050Conversion.decodeFrame(UnsafeRawBufferPointer(rebasing: bytes[(frame * 12)..<(frame * 12 + 12)]),
                                                            accelerometerNanoUnitsPerLSB: 1_197_101, gyroscopeNanoUnitsPerLSB: 266_462))
                }
            }
        }
    }

    // The whole hardware path on a simulated board: emulator + driver + board runtime, 1 s of
    // board time per iteration, read on a timer or on the emulated data-ready pin, at 100 and
    // 1000 Hz (cost per frame: divide by the frame count); most of the cost is the emulator's.
    for (rate, interrupt) in [(100, false), (100, true), (1000, false), (1000, true)] {
        Benchmark("board runtime, simulated GY-521, \(interrupt ? "data-ready pin" : "timer"), 1 s at \(rate) Hz (\(rate) frames)") { benchmark in
            let board = try BoardFileParser.parse("""
                board = bench
                [chip imu]
                driver = mpu6050
                bus = emulated
                address = 0x68
                rate = \(rate)
                \(interrupt ? "interrupt = INT" : "")
                """, path: "bench.board")
            let runtime = try BoardRuntime(board, root: recordingsFolder, speed: 0)
            benchmark.startMeasurement()  // not the set-up: the runtime's steady state
            for _ in benchmark.scaledIterations {
                try runtime.run(untilNanoseconds: runtime.nowNanoseconds + 1_000_000_000) { blackHole($0) }
            }
        }
    }

    // Cost against the number of chips: the MPU-9250 twin (IMU on its pin + AK8963 polled
    // every 5 ms) and the Sense HAT twin (three chips, all polled), 1 s each.
    for name in ["sim-mpu-9250", "sim-sense-hat"] {
        Benchmark("board runtime, \(name).board, 1 s") { benchmark in
            let board = try BoardDescription.load(path: recordingsFolder + "../../boards/\(name).board")
            var chips = board
            for index in chips.chips.indices { chips.chips[index].motionRecording = nil }  // no recording: cost of the path alone
            let runtime = try BoardRuntime(chips, root: recordingsFolder, speed: 0)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                try runtime.run(untilNanoseconds: runtime.nowNanoseconds + 1_000_000_000) { blackHole($0) }
            }
        }
    }

    // The device-motion stage (fixed-point attitude filter + CMDeviceMotion outputs) over 1024
    // gyroscope samples of a tumbling device with accelerometer and magnetometer, 6D and 9D.
    // Set-up excluded; the allocations reported are the harness's (same with 0 samples).
    for frame in [AttitudeReferenceFrame.xArbitraryZVertical, .xMagneticNorthZVertical] {
        Benchmark("device motion \(frame == .xArbitraryZVertical ? "6D" : "9D"), per 1024 fused samples") { benchmark in
            var readings: [SensorReading] = []
            for index in 0..<1024 {
                let t = Int64(index) * 3_500_000
                let angle = Double(index) * 0.003
                let g = Vector3(x: Q16_16(9.80665 * angle.truncatingRemainder(dividingBy: 0.5)), y: Q16_16(0.3), z: Q16_16(9.7))
                readings.append(SensorReading(timestampNanoseconds: t, value: .acceleration(g)))
                readings.append(SensorReading(timestampNanoseconds: t, value: .angularVelocity(Vector3(x: Q16_16(0.4), y: Q16_16(-0.2), z: Q16_16(0.9)))))
                readings.append(SensorReading(timestampNanoseconds: t, value: .magneticField(Vector3(x: Q16_16(19.0), y: Q16_16(2.0), z: Q16_16(-46.0)))))
            }
            var estimator = DeviceMotionEstimator(frame: frame)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                for reading in readings { blackHole(estimator.process(reading)) }
            }
        }
    }

    // The pedometer stage (step detector, walking gate, pause/resume) over 1024 accelerometer
    // samples of a 1.8 steps/s walk.
    Benchmark("pedometer stage, per 1024 accelerometer samples",
              configuration: .init(scalingFactor: .kilo, thresholds: [.mallocCountTotal: .init(absolute: [.p100: 0])])) { benchmark in
        let readings: [SensorReading] = (0..<1024).map { index in
            let t = Double(index) / 100
            let vertical = 9.81 + 2.5 * (t * 1.8).truncatingRemainder(dividingBy: 1) - 1.25
            return SensorReading(timestampNanoseconds: Int64(index) * 10_000_000,
                                 value: .acceleration(Vector3(x: Q16_16(0.1), y: Q16_16(0.3), z: Q16_16(vertical))))
        }
        var stage = PedometerStage()
        var offset: Int64 = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            // Time moves on across iterations, as a live board's does (the step detector and
            // its periodicity window are clocked by the timestamps).
            for reading in readings {
                stage.process(SensorReading(timestampNanoseconds: reading.timestampNanoseconds + offset, value: reading.value)) { blackHole($0) }
            }
            offset += 10_240_000_000
        }
    }

    // Fan-out to subscribers (each at its own interval), per 1024 readings.
    for count in [1, 4, 16] {
        Benchmark("subscribers: fan-out to \(count), per 1024 readings") { benchmark in
            let subscribers = SensorSubscribers()
            var delivered = 0
            for index in 0..<count {
                _ = subscribers.subscribe([.accelerometer, .gyroscope, .magnetometer], intervalNanoseconds: Int64(index) * 5_000_000) { _ in delivered += 1 }
            }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                for reading in readings { subscribers.publish(reading) }
            }
            blackHole(delivered)
        }
    }

    // The emulator alone (for telling its cost from the driver's), same 100 frames.
    Benchmark("MPU-6050 emulator alone, 1 s (100 frames)") { benchmark in
        let emulator = MPU6050Emulator()
        try emulator.writeRegister(address: 0x68, register: MPU6050Register.powerManagement1, value: 1)
        try emulator.writeRegister(address: 0x68, register: MPU6050Register.sampleRateDivider, value: 9)
        try emulator.writeRegister(address: 0x68, register: MPU6050Register.config, value: 3)
        try emulator.writeRegister(address: 0x68, register: MPU6050Register.fifoEnable, value: MPU6050Register.fifoAccelerometerAndGyroscope)
        try emulator.writeRegister(address: 0x68, register: MPU6050Register.userControl, value: MPU6050Register.userControlFIFOEnable)
        var now: Int64 = 0
        var frame = (UInt64(0), UInt32(0))
        for _ in benchmark.scaledIterations {
            for _ in 0..<100 {
                now += 10_000_000
                emulator.advance(to: now)
                try withUnsafeMutableBytes(of: &frame) { try emulator.readRegisters(address: 0x68, register: MPU6050Register.fifoReadWrite, into: $0) }
            }
        }
    }

    // BROAD excerpt: 17 145 rows of acc, gyr, mag at 285.7 Hz, gzip-compressed.
    Benchmark("replay broad_01_slow_rotation.csv.gz (17 145 samples)") { benchmark in
        for _ in benchmark.scaledIterations {
            let playback = try RecordingPlayback(path: recordingsFolder + "broad_01_slow_rotation.csv.gz")
            blackHole(try playback.run())
        }
    }

    activityBenchmarks()  // ActivityBenchmarks.swift
}
