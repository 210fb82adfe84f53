public import MotionAlgorithms
import FixedPoint

/// The pedometer stage: accelerometer, barometer and (optional) gyroscope readings in, `PedometerOutput` out (steps
/// with their lengths, floors, pause and resume events, each at the time it happened), with the
/// running totals and live figures `CMPedometerData` reports. No allocation per reading.
///
/// No steps from a vehicle: the stage runs the motion-activity classifier on its own step
/// detector (`ActivityTracker`), and while it calls a car or a bicycle that the device still
/// feels (`inVehicle`) a new bout of steps is held, not credited. The physical reason: the
/// classifier calls a vehicle only after 10 s without a gait (no walking rhythm in |a|, no
/// detector steps) and 20–30 s of a vehicle's vibration (a car's suspension-damped road and
/// engine, a handlebar's undamped road, a pedalling rhythm) with the device held steady; then
/// the detector's peaks are the road's shocks (a handlebar's come at a pedalling cadence and
/// pass for a walk's). Two fail-safes, so that a walk is never dropped because the call lags:
/// a walk ends the call by the body's own rhythm (the classifier's `GaitRhythm`: a gait's
/// bounce at one and two step periods for 2 s), and a call whose vehicle the device no longer
/// feels (8 s without a car- or bicycle-like half-second, while a car's call is kept 60 s for
/// red lights) holds nothing. Either way a bout still going is credited whole, its held steps
/// at the times they happened (`HeldBout`); a bout going on when the call starts is not cut.
public struct PedometerStage: Sendable {
    /// The step detector inside the activity classifier's tracker: the steps are the detector's,
    /// the vehicle call the classifier's (see the type's documentation).
    private var tracker: ActivityTracker
    /// The latest gyroscope sample, for the accelerometer samples after it while it is recent.
    private var latestRotation = HeldSample<FusionVector<Q32_32>>()
    /// Half-second blocks without a car- or bicycle-like one after which a vehicle call holds
    /// no steps: a device that a moving vehicle carries shakes like one in nearly every
    /// half-second; the gaps are bends (a car body turning faster than 0.35 rad/s) and stops,
    /// a few seconds each (the dev rides: at most 2 s; the car trip: at most 7.5 s, the device
    /// still, no bout). 8 s outlasts a bend or a roundabout. A walk is no car (its bounce is
    /// above the 1 m/s² of a car body's on its suspension); a walk that shakes a device like a
    /// handlebar's road ends the call by its rhythm instead. 8 s and the 2 s a bout takes to be
    /// confirmed keep a walk's held steps within the 32 `HeldBout` keeps exactly.
    private static let vehicleEvidenceBlocks = 16

    /// The detector's bout that started while a vehicle was called: held until the call ends
    /// (a walk: credited whole) or the bout does (the road's shocks: dropped).
    private var heldBout = HeldBout()
    /// A resume the detector's predictor reported while a vehicle was called, held with the
    /// bout: delivered if the call ends first, dropped with its pause otherwise.
    private var heldResume: Int64?
    /// Pressure → altitude (low-passed), which the floors are counted from.
    private var altitude = AltitudeStage()
    private var floors = FloorCounter()

    /// Steps, distance, active time and cadence so far.
    public private(set) var totals: PedometerTotals
    /// The stride model the steps' lengths come from.
    public var stride: StrideModel { totals.stride }

    private var hasAccelerometer = false
    /// The latest pressure reading's time, ns: the floor counter's clock.
    private var lastPressureTime: Int64?
    /// Whether a barometer has been seen (else floors are unknown: nil, as Core Motion's).
    public private(set) var hasBarometer = false

    /// ns after the last step during which the user still counts as stepping for the floors
    /// (a landing, a turn on the stairs).
    private static let steppingWindow: Int64 = 5_000_000_000

    /// `detector`: the step detector with its settings (`motionctl replay --step-setting`, for
    /// the leave-one-subject-out benchmark); the defaults everywhere else.
    public init(stride: StrideModel = StrideModel(), detector: StepDetector = StepDetector()) {
        totals = PedometerTotals(stride: stride)
        tracker = ActivityTracker(detector: detector)
    }

    /// Whether a vehicle is called and still felt: new bouts are held (see the type).
    private var inVehicle: Bool {
        tracker.isInVehicle && tracker.blocksSinceVehicleEvidence < Self.vehicleEvidenceBlocks
    }

    /// Whether a confirmed bout of steps is going on (it ends 2 s after the last step).
    public var isWalking: Bool { tracker.isWalking && !heldBout.isHolding }

    /// Steps credited so far.
    public var numberOfSteps: Int { totals.numberOfSteps }
    /// Distance walked, m.
    public var distanceMeters: Double { totals.distanceMeters }

    /// Steps per second now (CMPedometerData.currentCadence), nil while not walking.
    public var currentCadence: Double? { isWalking ? totals.cadence : nil }

    /// Seconds per metre now (CMPedometerData.currentPace), nil while not walking.
    public var currentPace: Double? {
        currentCadence.map { 1 / ($0 * stride.stepLength(cadence: $0)) }
    }

    /// Average pace while stepping, s/m (CMPedometerData.averageActivePace), nil before any.
    public var averageActivePace: Double? { totals.averageActivePace }

    public var floorsAscended: Int? { hasBarometer ? floors.floorsAscended : nil }
    public var floorsDescended: Int? { hasBarometer ? floors.floorsDescended : nil }

    /// The motion activity the stage's classifier calls now (`unknown` until the first 2 s of
    /// accelerometer data): the same as an `ActivityStage` fed the same readings.
    public var currentActivity: MotionActivityEstimate { tracker.current }

    /// Takes one reading; `output` gets what it decided, in time order.
    public mutating func process(_ reading: SensorReading, output: (PedometerOutput) -> Void) {
        process(reading, output: output, activity: { _ in })
    }

    /// Takes one reading; `output` gets what it decided, in time order, and `activity` each
    /// motion-activity update the stage's classifier makes (a transition in flags or
    /// confidence): update for update those of an `ActivityStage` fed the same readings. A
    /// consumer that wants both (motiond's history) runs the classifier once, here.
    public mutating func process(_ reading: SensorReading, output: (PedometerOutput) -> Void,
                                 activity: (MotionActivityUpdate) -> Void) {
        let time = reading.timestampNanoseconds
        switch reading.value {
        case .pressure:
            hasBarometer = true
            guard let dt = altitude.process(reading) else { break }
            lastPressureTime = time
            // Stepping: a bout going on or a step in the last 5 s; a board without an
            // accelerometer cannot tell, and counts every climb.
            let stepping = !hasAccelerometer || isWalking || totals.lastStep.map { time - $0 < Self.steppingWindow } == true
            let (up, down) = (floors.floorsAscended, floors.floorsDescended)
            floors.update(altitude: altitude.altimeter.relativeAltitude, dt: dt, stepping: stepping)
            for _ in up..<floors.floorsAscended { output(.floor(timeNanoseconds: time, ascended: true)) }
            for _ in down..<floors.floorsDescended { output(.floor(timeNanoseconds: time, ascended: false)) }
        case .temperature:
            _ = altitude.process(reading)
        case .angularVelocity(let v):
            // Optional: where a gyroscope is recorded or streamed, it finds the closing steps
            // and keeps a walk's steps through its turns (StepDetector); the classifier takes it
            // with the next accelerometer sample (as `ActivityStage` does).
            let rotation = FusionVector(x: Q32_32(v.x), y: Q32_32(v.y), z: Q32_32(v.z))
            tracker.update(rotationRate: rotation, timeNanoseconds: time)
            latestRotation.hold(rotation, at: time)
        case .acceleration(let v):
            hasAccelerometer = true
            let acceleration = FusionVector(x: Q32_32(v.x), y: Q32_32(v.y), z: Q32_32(v.z))
            var book = totals
            // A bout confirmed by this reading: its first step, credited now.
            let wasWalking = tracker.isWalking
            // The call as of the previous reading: the detector runs before the classifier.
            let vehicle = inVehicle
            var boutStart: Int64?
            var held = (bout: heldBout, resume: heldResume)
            let changed = tracker.update(acceleration: acceleration, rotationRate: latestRotation.value(at: time), timeNanoseconds: time) { found in
                switch found {
                case .step(let stepTime):
                    if !wasWalking, !held.bout.isHolding, vehicle { held.bout.start() }
                    if held.bout.isHolding {
                        held.bout.append(stepTime)
                        return
                    }
                    if !wasWalking, boutStart == nil { boutStart = stepTime }
                    output(book.credit(stepTime))
                case .pause(let at):
                    // The pause of a held resume: neither is delivered (the road's shocks).
                    if held.resume != nil { held.resume = nil; return }
                    output(.event(PedometerEvent(kind: .pause, timeNanoseconds: at, deliveredNanoseconds: time)))
                case .resume(let at):
                    if vehicle { held.resume = at; return }
                    output(.event(PedometerEvent(kind: .resume, timeNanoseconds: at, deliveredNanoseconds: time)))
                }
            }
            if held.bout.isHolding, !tracker.isWalking {
                held.bout.drop()  // the bout ended inside the vehicle: the road's shocks
            }
            if !inVehicle {
                // The call ended (a gait's rhythm) or its vehicle is no longer felt, with the
                // bout still going: it is a walk, credited whole at its steps' times.
                if let at = held.resume {
                    output(.event(PedometerEvent(kind: .resume, timeNanoseconds: at, deliveredNanoseconds: time)))
                    held.resume = nil
                }
                if held.bout.isHolding, let first = held.bout.release({ output(book.credit($0)) }) {
                    boutStart = first
                }
            }
            (heldBout, heldResume) = held
            totals = book
            if let boutStart, let lastPressureTime, lastPressureTime > boutStart {
                // The climb since the bout's first step was on foot, though it was left out
                // while the bout was still unconfirmed.
                let milliseconds = min(lastPressureTime - boutStart, 8_000_000_000) / 1_000_000
                floors.creditClimb(since: Q32_32(numerator: milliseconds, denominator: 1000))
            }
            if let changed { activity(MotionActivityUpdate(activity: changed, deliveredNanoseconds: time)) }
        default:
            break
        }
    }
}
