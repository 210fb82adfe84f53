import MotionAlgorithms
import MotionEngine
import MotionManagerCore

/// Samples the board itself lost or read twice, before any stream: an addition to Core Motion
/// (which never says), so that no loss is silent (issue 11's timing contract). Counted per
/// sensor since the process first started the board, and shared by every manager of that
/// board file; `droppedAccelerometerUpdates` and friends count the other loss, updates a slow
/// handler's queue had no room for.
extension CMMotionManager {
    /// Samples that should have come (one per sample period) and did not: a chip's FIFO
    /// overflowed, a data-ready edge was missed, a register chip was read too late.
    public var lostAccelerometerSamples: Int { loss(.accelerometer).dropped }
    public var lostGyroSamples: Int { loss(.gyroscope).dropped }
    public var lostMagnetometerSamples: Int { loss(.magnetometer).dropped }

    /// Samples read again (a timestamp not after the previous one's), withheld from the streams
    /// so that timestamps strictly increase.
    public var repeatedAccelerometerSamples: Int { loss(.accelerometer).duplicated }
    public var repeatedGyroSamples: Int { loss(.gyroscope).duplicated }
    public var repeatedMagnetometerSamples: Int { loss(.magnetometer).duplicated }

    private func loss(_ channel: SensorChannel) -> SampleLoss { core.board?.sampleLoss.loss(channel) ?? SampleLoss() }
}
