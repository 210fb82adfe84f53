public import MotionAlgorithms

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
public protocol FIFOInertialDriver: AnyObject {
    /// Reads complete frames into `readings`, stamped backwards from `nowNanoseconds` at the
    /// sample period; at most `readings.count / 2` frames, the rest stay for the next call.
    func drain(into readings: UnsafeMutableBufferPointer<SensorReading>, nowNanoseconds: Int64) throws(ChipError) -> FIFODrainResult
}
