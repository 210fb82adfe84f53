public import MotionAlgorithms
import FixedPoint

/// The motion-activity stage (issue 7): readings in, `CMMotionActivity` live updates out, one
/// per transition (flags or confidence changed): `ActivityTracker` fed the accelerometer with
/// the latest gyroscope sample, and each gyroscope sample as it comes (its step detector's).
///
/// No allocation per reading; the history of transitions is kept apart (`ActivityHistory`).
public struct ActivityStage: Sendable {
    private var tracker = ActivityTracker()
    /// The latest gyroscope sample, for the accelerometer samples after it while it is recent.
    private var latestRotation = HeldSample<FusionVector<Q32_32>>()

    /// The latest classification (`unknown` until the first 2 s of accelerometer data).
    public var current: MotionActivityEstimate { tracker.current }

    public init() {}

    /// Takes one reading; `emit` gets the update it causes, if any (accelerometer readings only:
    /// gyroscope readings are kept for the next accelerometer sample).
    public mutating func process(_ reading: SensorReading, emit: (MotionActivityUpdate) -> Void) {
        switch reading.value {
        case .angularVelocity(let w):
            let rotation = FusionVector(x: Q32_32(w.x), y: Q32_32(w.y), z: Q32_32(w.z))
            latestRotation.hold(rotation, at: reading.timestampNanoseconds)
            tracker.update(rotationRate: rotation, timeNanoseconds: reading.timestampNanoseconds)
        case .acceleration(let v):
            let acceleration = FusionVector(x: Q32_32(v.x), y: Q32_32(v.y), z: Q32_32(v.z))
            let time = reading.timestampNanoseconds
            guard let estimate = tracker.update(acceleration: acceleration, rotationRate: latestRotation.value(at: time),
                                                timeNanoseconds: time, steps: { _ in }) else { return }
            emit(MotionActivityUpdate(activity: estimate, deliveredNanoseconds: time))
        default:
            return
        }
    }
}

/// One live update: the activity and when it was delivered (ns on the readings' clock).
public struct MotionActivityUpdate: Sendable, BitwiseCopyable, Equatable {
    public var activity: MotionActivityEstimate
    public var deliveredNanoseconds: Int64

    public init(activity: MotionActivityEstimate, deliveredNanoseconds: Int64) {
        self.activity = activity
        self.deliveredNanoseconds = deliveredNanoseconds
    }
}
