public import FixedPoint

/// Motion activity from the accelerometer (and the gyroscope when there is one): the
/// `ActivityClassifier` with its inputs — the pedometer's walking detector (`StepDetector`:
/// its `isStepping`), a cadence from the credited steps' times — and walking or running dated
/// from the bout's first step, not from when it was confirmed. One piece for MotionEngine's
/// `ActivityStage` (readings in, live updates out), its `PedometerStage` (which counts this
/// tracker's steps, and holds new bouts while a vehicle is called: `isInVehicle`) and the
/// firmware image (tools/firmware).
/// Q32.32, no allocation.
public struct ActivityTracker: Sendable {
    private var detector = StepDetector()
    private var classifier = ActivityClassifier()
    private var cadence = CadenceTracker()
    private var wasStepping = false
    /// The first step of the bout going on (ns), for the walking/running start date.
    private var boutStart: Int64?
    /// The latest step credited or carried by a pause (ns): what follows a walk starts no earlier.
    private var lastStep: Int64?
    private var emitted = false

    /// The latest classification (`unknown` until the first 2 s of accelerometer data).
    public private(set) var current = MotionActivityEstimate(flags: .unknown, confidence: .low, startNanoseconds: 0)

    public init() {}

    /// `detector`: the step detector with its settings; a pedometer that counts this tracker's
    /// steps (MotionEngine's `PedometerStage`) passes its own.
    public init(detector: StepDetector) {
        self.detector = detector
    }

    /// Whether the step detector is in a confirmed bout (`StepDetector.isWalking`).
    public var isWalking: Bool { detector.isWalking }

    /// Whether the classifier holds the user to be in a vehicle (a car or a bicycle), whatever
    /// the flags say now (see `ActivityClassifier.isInVehicle`).
    public var isInVehicle: Bool { classifier.isInVehicle }

    /// Half-second blocks since the classifier's last car- or bicycle-like one
    /// (`ActivityClassifier.blocksSinceVehicleEvidence`).
    public var blocksSinceVehicleEvidence: Int { classifier.blocksSinceVehicleEvidence }

    /// The classifier's last window and evidence, for diagnostics.
    public var diagnostics: (window: ActivityWindow?, gaitRhythm: Q32_32, pedalRhythm: Q32_32, evidence: ActivityClassifier.Diagnostics, stepping: Bool) {
        (classifier.lastWindow, classifier.lastGaitRhythm, classifier.lastRhythm, classifier.diagnostics, detector.isStepping)
    }

    /// One gyroscope sample (rad/s, device axes) at `time` (ns), where there is a gyroscope: the
    /// step detector's turns, closing steps and how fast the device turns (`StepDetector`).
    public mutating func update(rotationRate: FusionVector<Q32_32>, timeNanoseconds time: Int64) {
        detector.update(rotationRate: rotationRate, timeNanoseconds: time)
    }

    /// One accelerometer sample (m/s², device axes) at `time` (ns) with the latest gyroscope
    /// sample (rad/s; nil: none yet, or no gyroscope). `steps` gets the step detector's outputs
    /// (a caller that also counts steps needs no second detector). Returns the estimate when
    /// it changed (flags or confidence): a live update.
    public mutating func update(acceleration: FusionVector<Q32_32>, rotationRate: FusionVector<Q32_32>?,
                                timeNanoseconds time: Int64, steps: (StepDetector.Output) -> Void) -> MotionActivityEstimate? {
        var firstStep: Int64?, tracker = cadence
        detector.update(acceleration: acceleration, timeNanoseconds: time) { output in
            switch output {
            case .step(let stepTime):
                tracker.credit(stepTime)
                if firstStep == nil { firstStep = stepTime }
                lastStep = max(lastStep ?? stepTime, stepTime)
            case .resume(let at):
                if firstStep == nil { firstStep = at }
            case .pause(let at):
                lastStep = max(lastStep ?? at, at)
            }
            steps(output)
        }
        cadence = tracker
        let stepping = detector.isStepping
        if stepping, !wasStepping { boutStart = firstStep ?? time }
        wasStepping = stepping
        guard classifier.update(acceleration: acceleration, rotationRate: rotationRate, timeNanoseconds: time,
                                stepping: stepping, cadence: cadence.cadence(atNanoseconds: time),
                                pedalling: detector.isPedalling) else { return nil }
        var estimate = classifier.estimate
        // Walking and running started at the bout's first step, not when it was confirmed.
        if !estimate.flags.isDisjoint(with: .onFoot), let boutStart {
            estimate.startNanoseconds = estimate.flags == current.flags ? current.startNanoseconds : boutStart
        } else if emitted, estimate.flags == current.flags {
            estimate.startNanoseconds = current.startNanoseconds
        } else if let lastStep, estimate.startNanoseconds < lastStep {
            // A new state after a walk: the classifier dates it back by its evidence window
            // (2 s), but the user was stepping until their last step. (The predicted pause,
            // within about a second of that step, would otherwise date "stationary" before it.)
            estimate.startNanoseconds = lastStep
        }
        current = estimate
        emitted = true
        return estimate
    }
}
