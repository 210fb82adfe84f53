/// One batch of a batched stream (version 3, PROTOCOL.md "Batched streams"): about a second of
/// `CMBatchedSensorManager` samples, each with its FIFO-derived time, and what the daemon knows
/// was lost before it.
public struct SensorBatch: Sendable, Equatable {
    /// The samples, oldest first: accelerometer records (g, Core Motion's sign) for stream 9,
    /// device-motion records (frame xArbitraryZVertical) for stream 10. Their `time` is seconds
    /// after `baseTimeNanoseconds`, not since 1970.
    public enum Samples: Sendable, Equatable {
        case accelerometer([VectorSample])
        case deviceMotion([DeviceMotionSample])
    }

    /// The batch's number in its subscription, from 0; batches the daemon dropped for this
    /// client keep their numbers, so a jump here is what a `droppedBatches` notice counted.
    public var sequence: UInt32
    /// Samples per second of the stream (the FIFO's rate, or 200 Hz device motion), Hz.
    public var rateHertz: UInt16
    /// Samples missing between the daemon's FIFO reads since the subscription started (by their
    /// timestamps: the chip's FIFO overflowed before it was read), total.
    public var fifoMissingSamples: UInt64
    /// FIFO overflows the chip's driver saw since the subscription started, total.
    public var fifoOverflows: UInt64
    /// CLOCK_REALTIME ns the samples' times count from (the first sample's time). Whole
    /// CLOCK_REALTIME seconds in an f64 resolve 0.24 µs only; seconds within a batch resolve
    /// far below a nanosecond, so each FIFO timestamp arrives exact to the nanosecond.
    public var baseTimeNanoseconds: Int64
    public var samples: Samples

    public init(sequence: UInt32, rateHertz: UInt16, fifoMissingSamples: UInt64, fifoOverflows: UInt64, baseTimeNanoseconds: Int64,
                samples: Samples) {
        (self.sequence, self.rateHertz, self.samples, self.baseTimeNanoseconds) = (sequence, rateHertz, samples, baseTimeNanoseconds)
        (self.fifoMissingSamples, self.fifoOverflows) = (fifoMissingSamples, fifoOverflows)
    }

    public var stream: WireStream {
        switch samples {
        case .accelerometer: .batchedAccelerometer
        case .deviceMotion: .batchedDeviceMotion
        }
    }

    public var count: Int {
        switch samples {
        case .accelerometer(let samples): samples.count
        case .deviceMotion(let samples): samples.count
        }
    }
}

/// What the daemon dropped of one batched stream for a client that did not read in time, in
/// whole batches (`droppedBatches` message, version 3).
public struct BatchDrops: Sendable, Equatable {
    public var stream: WireStream
    /// Batches and their samples dropped since the last notice.
    public var batches: UInt64, samples: UInt64
    /// Since the subscription started.
    public var totalBatches: UInt64, totalSamples: UInt64

    public init(stream: WireStream, batches: UInt64, samples: UInt64, totalBatches: UInt64, totalSamples: UInt64) {
        (self.stream, self.batches, self.samples, self.totalBatches, self.totalSamples) = (stream, batches, samples, totalBatches, totalSamples)
    }
}

extension WireWriter {
    mutating func sensorBatch(_ batch: SensorBatch) {
        u8(batch.stream.rawValue)
        u32(batch.sequence)
        u16(batch.rateHertz)
        u64(batch.fifoMissingSamples)
        u64(batch.fifoOverflows)
        i64(batch.baseTimeNanoseconds)
        count(batch.count)
        switch batch.samples {
        case .accelerometer(let samples): for sample in samples { vectorSample(sample) }
        case .deviceMotion(let samples): for sample in samples { deviceMotionSample(sample) }
        }
    }

    mutating func batchDrops(_ drops: BatchDrops) {
        u8(drops.stream.rawValue)
        for value in [drops.batches, drops.samples, drops.totalBatches, drops.totalSamples] { u64(value) }
    }
}

extension WireReader {
    mutating func sensorBatch() throws(ProtocolError) -> SensorBatch {
        let stream = try enumeration("stream") { WireStream(rawValue: $0).flatMap { $0.isBatched ? $0 : nil } }
        let sequence = try u32("sequence"), rate = try u16("rateHertz")
        let missing = try u64("fifoMissingSamples"), overflows = try u64("fifoOverflows"), base = try i64("baseTime")
        let samples: SensorBatch.Samples = if stream == .batchedAccelerometer {
            .accelerometer(try list("samples", minimumElementSize: Self.vectorSampleSize) { reader throws(ProtocolError) in try reader.vectorSample() })
        } else {
            .deviceMotion(try list("samples", minimumElementSize: Self.deviceMotionSampleSize) { reader throws(ProtocolError) in
                try reader.deviceMotionSample()
            })
        }
        return SensorBatch(sequence: sequence, rateHertz: rate, fifoMissingSamples: missing, fifoOverflows: overflows, baseTimeNanoseconds: base,
                           samples: samples)
    }

    mutating func batchDrops() throws(ProtocolError) -> BatchDrops {
        let stream = try enumeration("stream") { WireStream(rawValue: $0).flatMap { $0.isBatched ? $0 : nil } }
        return BatchDrops(stream: stream, batches: try u64("batches"), samples: try u64("samples"), totalBatches: try u64("totalBatches"),
                          totalSamples: try u64("totalSamples"))
    }
}
