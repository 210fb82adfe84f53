public import MotionAlgorithms
import FixedPoint

/// What one drain of a chip's FIFO did (shared by every FIFO driver).
public struct FIFODrainResult: Sendable, Equatable {
    /// Readings written into the caller's buffer (two per frame: acceleration, angular velocity).
    public var readings: Int
    /// Whether the FIFO had overflowed (samples were lost before this drain).
    public var overflowed: Bool
    /// Whether the chip had been reset and was re-initialised.
    public var recovered: Bool

    public init(readings: Int, overflowed: Bool, recovered: Bool) {
        self.readings = readings
        self.overflowed = overflowed
        self.recovered = recovered
    }
}

/// A driver that buffers accelerometer + gyroscope frames in its chip's FIFO; the engine drains
/// any of them the same way (generic, no existential on the per-sample path).
public protocol FIFOInertialDriver: SelfRecoveringDriver {
    /// How many times the FIFO overflowed (frames were lost before a drain).
    var overflows: Int { get }
    /// Time between two frames at the configured rate, in nanoseconds.
    var samplePeriodNanoseconds: Int64 { get }
    /// Frames the chip's FIFO holds before it overflows.
    var fifoCapacityFrames: Int { get }
    /// Reads complete frames into `readings`, stamped backwards from `nowNanoseconds` at the
    /// sample period; at most `readings.count / 2` frames, the rest stay for the next call.
    func drain(into readings: UnsafeMutableBufferPointer<SensorReading>, nowNanoseconds: Int64) throws(ChipError) -> FIFODrainResult
    /// Changes the output data rate in place, without resetting the chip (its ranges, filter
    /// and FIFO configuration stay): writes the rate, routes data ready to the interrupt pin or
    /// not (`dataReadyInterrupt`), then flushes the FIFO so that no frame mixes rates. Frames
    /// still in the FIFO are discarded, so drain it first; an overflow since the last drain
    /// is counted in `overflows` (the flush would hide it). A later recovery from a chip reset
    /// restores this rate. Returns the new sample period, ns.
    func setSampleRate(hertz: Int, dataReadyInterrupt: Bool) throws(ChipError) -> Int64
}

/// Reads `frames` 12-byte accelerometer + gyroscope frames, 20 at a time (240 bytes on the
/// stack: no heap allocation), through `read` (one burst on the chip's FIFO data register),
/// decodes each with `decode` and stores acceleration then angular velocity into `readings`,
/// stamped backwards from `nowNanoseconds` (the newest frame) at `samplePeriodNanoseconds`.
/// Shared by every FIFO driver; returns the result for `frames` frames.
func drainFrames(_ frames: Int, samplePeriodNanoseconds: Int64, nowNanoseconds: Int64,
                 into readings: UnsafeMutableBufferPointer<SensorReading>,
                 read: (UnsafeMutableRawBufferPointer) throws(ChipError) -> Void,
                 decode: (UnsafeRawBufferPointer) -> (acceleration: Vector3, angularVelocity: Vector3)) throws(ChipError) -> FIFODrainResult {
    var chunk: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var done = 0
    while done < frames {
        let batch = min(20, frames - done)
        try withUnsafeMutableBytes(of: &chunk) { (buffer) throws(ChipError) in
            let bytes = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<(batch * 12)])
            try read(bytes)
            for frame in 0..<batch {
                let index = done + frame
                let timestamp = nowNanoseconds - Int64(frames - 1 - index) * samplePeriodNanoseconds
                let decoded = decode(UnsafeRawBufferPointer(rebasing: bytes[(frame * 12)..<(frame * 12 + 12)]))
                readings[2 * index] = SensorReading(timestampNanoseconds: timestamp, value: .acceleration(decoded.acceleration))
                readings[2 * index + 1] = SensorReading(timestampNanoseconds: timestamp, value: .angularVelocity(decoded.angularVelocity))
            }
        }
        done += batch
    }
    return FIFODrainResult(readings: 2 * frames, overflowed: false, recovered: false)
}
