public import MotionAlgorithms
import FixedPoint

/// The motion-activity stage (issue 7): readings in, `CMMotionActivity` live updates out, one
/// per transition (flags or confidence changed). Wraps `ActivityClassifier` with its inputs:
/// the accelerometer, the latest gyroscope sample, and the walking detector's verdict with a
/// cadence from the credited steps' times.
///
/// No allocation per reading; the history of transitions is kept apart (`ActivityHistory`).
public struct ActivityStage: Sendable {
    private var classifier = ActivityClassifier()
    /// "Is this walking?": the pedometer's step detector, its walking gate and its pause/resume
    /// predictor (`StepDetector.isStepping`).
    private var walkingDetector = StepDetector()
    private var cadence = CadenceTracker()
    private var latestRotation: FusionVector<Q32_32>?
    private var wasStepping = false
    /// The first step of the bout going on (ns), for the walking/running start date.
    private var boutStart: Int64?
    private var emitted = false

    /// The latest classification (`unknown` until the first 2 s of accelerometer data).
    public private(set) var current = MotionActivityEstimate(flags: .unknown, confidence: .low, startNanoseconds: 0)

    public init() {}

    /// Takes one reading; `emit` gets the update it causes, if any (accelerometer readings only:
    /// gyroscope readings are kept for the next accelerometer sample).
    public mutating func process(_ reading: SensorReading, emit: (MotionActivityUpdate) -> Void) {
        let time = reading.timestampNanoseconds
        switch reading.value {
        case .angularVelocity(let w):
            latestRotation = FusionVector(x: Q32_32(w.x), y: Q32_32(w.y), z: Q32_32(w.z))
            return
        case .acceleration(let v):
            let acceleration = FusionVector(x: Q32_32(v.x), y: Q32_32(v.y), z: Q32_32(v.z))
            var firstStep: Int64?, tracker = cadence
            walkingDetector.update(acceleration: acceleration, timeNanoseconds: time) { output in
                switch output {
                case .step(let stepTime):
                    tracker.credit(stepTime)
                    if firstStep == nil { firstStep = stepTime }
                case .resume(let at):
                    if firstStep == nil { firstStep = at }
                case .pause:
                    break
                }
            }
            cadence = tracker
            let stepping = walkingDetector.isStepping
            if stepping, !wasStepping { boutStart = firstStep ?? time }
            wasStepping = stepping
            guard classifier.update(acceleration: acceleration, rotationRate: latestRotation, timeNanoseconds: time,
                                    stepping: stepping, cadence: cadence.cadence(atNanoseconds: time)) else { return }
            var estimate = classifier.estimate
            // Walking and running started at the bout's first step, not when it was confirmed.
            if !estimate.flags.isDisjoint(with: .onFoot), let boutStart {
                estimate.startNanoseconds = estimate.flags == current.flags ? current.startNanoseconds : boutStart
            } else if emitted, estimate.flags == current.flags {
                estimate.startNanoseconds = current.startNanoseconds
            }
            current = estimate
            emitted = true
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
