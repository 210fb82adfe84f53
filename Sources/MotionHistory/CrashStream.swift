public import MotionEngine
internal import MotionAlgorithms

/// The deterministic stream that `history-crash-writer` writes and MotionHistoryTests checks
/// after killing it: each value is a function of its batch and index, so the test knows what
/// every committed record must be. Public for those two only.
public enum CrashStream {
    public static let samplesPerBatch = 50
    public static let batchNanoseconds: Int64 = 1_000_000_000

    /// Sample k's value on each axis, g: exact multiples of 1/2048 g, so they come back bit for bit.
    public static func value(ofSample k: Int, axis: Int) -> Double {
        Double((k &* 7919 &+ axis &* 104_729) % 4096 - 2048) / 2048
    }

    public static func samples(ofBatch batch: Int) -> [AccelerometerSample] {
        (0..<samplesPerBatch).map { index in
            let k = batch * samplesPerBatch + index
            return AccelerometerSample(timeNanoseconds: Int64(k) * 20_000_000,
                                       x: value(ofSample: k, axis: 0), y: value(ofSample: k, axis: 1), z: value(ofSample: k, axis: 2))
        }
    }

    /// One 0.75 m step at the batch's start.
    public static func step(ofBatch batch: Int) -> PedometerOutput {
        .step(timeNanoseconds: Int64(batch) * batchNanoseconds, lengthMeters: 0.75)
    }

    /// Every 10th batch, walking and stationary in turn.
    public static func activity(ofBatch batch: Int) -> MotionActivityUpdate? {
        guard batch % 10 == 0 else { return nil }
        let time = Int64(batch) * batchNanoseconds
        let flags: MotionActivityFlags = batch % 20 == 0 ? .walking : .stationary
        return MotionActivityUpdate(activity: MotionActivityEstimate(flags: flags, confidence: .high, startNanoseconds: time),
                                    deliveredNanoseconds: time)
    }
}
