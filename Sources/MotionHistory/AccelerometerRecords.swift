/// One accelerometer sample as CMSensorRecorder keeps it.
public struct AccelerometerSample: Sendable, Equatable {
    /// ns, on the store's clock.
    public var timeNanoseconds: Int64
    /// Acceleration in g (Core Motion's unit), device axes.
    public var x: Double
    public var y: Double
    public var z: Double

    public init(timeNanoseconds: Int64, x: Double, y: Double, z: Double) {
        self.timeNanoseconds = timeNanoseconds
        self.x = x
        self.y = y
        self.z = z
    }
}

/// A stored sample and its continuity run (the role of CMRecordedAccelerometerData's
/// `identifier`): consecutive samples with the same `runIdentifier` have no gap of more than
/// two sample periods between them. The identifier is the run's first sample's time (ns), so
/// it is the same whatever range a query asks for.
public struct RecordedAccelerometerSample: Sendable, Equatable {
    public var sample: AccelerometerSample
    public var runIdentifier: Int64
}

/// The accelerometer log's payload: what makes 3 days of 50 Hz fit in well under 100 MB.
///
/// Stored resolution: times to 1 µs within a block (the block's first time exact, ns),
/// acceleration to 1/2048 g (0.49 mg: below the noise of any MEMS accelerometer at 50 Hz, and
/// ±16 g, the widest common range, spans 16 bits).
///
/// Payload: the first sample's distance to its run's start (varint, ns); a mode byte (bit a:
/// axis a is stored as second differences); the time offsets (µs) as zigzag-varint
/// differences of consecutive intervals (0 for a steady 50 Hz: one byte); then each axis in
/// turn, its first value and then first or second differences, whichever is shorter for this
/// block (second differences suit walking, first ones stillness). On a real 50 Hz walk (UCI
/// HAPT, a smartphone at the waist) that is about 6.5 bytes a sample with the 28-byte block
/// header: 1.16 MB an hour, 85 MB for the 3 days kept (StorageSizeTests).
enum AccelerometerCodec {
    /// Quanta per g.
    static let scale = 2048.0
    /// A sample as stored: quantized, time already rounded to the block's µs grid.
    struct Quantized: Equatable {
        var time: Int64
        var axes: (Int64, Int64, Int64)
        static func == (a: Quantized, b: Quantized) -> Bool { a.time == b.time && a.axes == b.axes }
    }

    static func quantize(_ value: Double) -> Int64 {
        Int64((min(max(value, -1e6), 1e6) * scale).rounded())
    }

    static func encode(_ samples: [Quantized], runIdentifier: Int64, periodNanoseconds: Int64) -> LogBlock {
        let first = samples[0].time
        var writer = ByteWriter(reservingCapacity: samples.count * 6 + 16)
        writer.varint(UInt64(first - runIdentifier))
        let streams = [\Quantized.axes.0, \Quantized.axes.1, \Quantized.axes.2].map { axis in
            let values = samples.map { $0[keyPath: axis] }
            let firstOrder = differences(values, order: 1), secondOrder = differences(values, order: 2)
            return firstOrder.count <= secondOrder.count ? (false, firstOrder) : (true, secondOrder)
        }
        writer.byte(streams.enumerated().reduce(0) { $0 | ($1.element.0 ? UInt8(1) << UInt8($1.offset) : 0) })
        var previousOffset: Int64 = 0, previousInterval = periodNanoseconds / 1000
        for sample in samples.dropFirst() {
            let offset = (sample.time - first) / 1000
            writer.signedVarint((offset - previousOffset) - previousInterval)
            previousInterval = offset - previousOffset
            previousOffset = offset
        }
        for stream in streams { writer.append(contentsOf: stream.1) }
        return LogBlock(count: samples.count, firstTime: first, lastTime: samples[samples.count - 1].time, payload: writer.bytes)
    }

    /// `values[0]` then differences of the given order, as zigzag varints.
    private static func differences(_ values: [Int64], order: Int) -> [UInt8] {
        var writer = ByteWriter(reservingCapacity: values.count * 2)
        for index in values.indices {
            var residual = values[index]
            if index >= 1 { residual -= values[index - 1] }
            if order == 2, index >= 2 { residual -= values[index - 1] - values[index - 2] }
            writer.signedVarint(residual)
        }
        return writer.bytes
    }

    /// The block's samples with their runs; nil if the payload does not decode (damage the CRC
    /// missed: never served).
    static func decode(_ block: LogBlock, periodNanoseconds: Int64) -> [RecordedAccelerometerSample]? {
        var reader = ByteReader(block.payload)
        guard block.count > 0, let runDistance = reader.varint(), let mode = reader.byte() else { return nil }
        var times = [block.firstTime]
        times.reserveCapacity(block.count)
        var previousOffset: Int64 = 0, previousInterval = periodNanoseconds / 1000
        for _ in 1..<block.count {
            guard let change = reader.signedVarint() else { return nil }
            previousInterval += change
            previousOffset += previousInterval
            times.append(block.firstTime + previousOffset * 1000)
        }
        var axes: [[Int64]] = []
        for axis in 0..<3 {
            var values: [Int64] = []
            values.reserveCapacity(block.count)
            for index in 0..<block.count {
                guard var value = reader.signedVarint() else { return nil }
                if index >= 1 { value += values[index - 1] }
                if mode & (1 << axis) != 0, index >= 2 { value += values[index - 1] - values[index - 2] }
                values.append(value)
            }
            axes.append(values)
        }
        guard reader.isAtEnd else { return nil }
        var run = block.firstTime - Int64(runDistance)
        var out: [RecordedAccelerometerSample] = []
        out.reserveCapacity(block.count)
        for index in 0..<block.count {
            if index > 0, times[index] - times[index - 1] > 2 * periodNanoseconds { run = times[index] }
            let sample = AccelerometerSample(timeNanoseconds: times[index], x: Double(axes[0][index]) / scale,
                                             y: Double(axes[1][index]) / scale, z: Double(axes[2][index]) / scale)
            out.append(RecordedAccelerometerSample(sample: sample, runIdentifier: run))
        }
        return out
    }
}
