public import MotionAlgorithms
import FixedPoint

/// The pedometer stage: accelerometer, barometer and (optional) gyroscope readings in, `PedometerOutput` out (steps
/// with their lengths, floors, pause and resume events, each at the time it happened), with the
/// running totals and live figures `CMPedometerData` reports. No allocation per reading.
public struct PedometerStage: Sendable {
    private var detector = StepDetector()
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
        self.detector = detector
    }

    /// Whether a confirmed bout of steps is going on (it ends 2 s after the last step).
    public var isWalking: Bool { detector.isWalking }

    /// Steps credited so far.
    public var numberOfSteps: Int { totals.numberOfSteps }
    /// Distance walked, m.
    public var distanceMeters: Double { totals.distanceMeters }

    /// Steps per second now (CMPedometerData.currentCadence), nil while not walking.
    public var currentCadence: Double? { detector.isWalking ? totals.cadence : nil }

    /// Seconds per metre now (CMPedometerData.currentPace), nil while not walking.
    public var currentPace: Double? {
        currentCadence.map { 1 / ($0 * stride.stepLength(cadence: $0)) }
    }

    /// Average pace while stepping, s/m (CMPedometerData.averageActivePace), nil before any.
    public var averageActivePace: Double? { totals.averageActivePace }

    public var floorsAscended: Int? { hasBarometer ? floors.floorsAscended : nil }
    public var floorsDescended: Int? { hasBarometer ? floors.floorsDescended : nil }

    /// Takes one reading; `output` gets what it decided, in time order.
    public mutating func process(_ reading: SensorReading, output: (PedometerOutput) -> Void) {
        let time = reading.timestampNanoseconds
        switch reading.value {
        case .pressure:
            hasBarometer = true
            guard let dt = altitude.process(reading) else { break }
            lastPressureTime = time
            // Stepping: a bout going on or a step in the last 5 s; a board without an
            // accelerometer cannot tell, and counts every climb.
            let stepping = !hasAccelerometer || detector.isWalking || totals.lastStep.map { time - $0 < Self.steppingWindow } == true
            let (up, down) = (floors.floorsAscended, floors.floorsDescended)
            floors.update(altitude: altitude.altimeter.relativeAltitude, dt: dt, stepping: stepping)
            for _ in up..<floors.floorsAscended { output(.floor(timeNanoseconds: time, ascended: true)) }
            for _ in down..<floors.floorsDescended { output(.floor(timeNanoseconds: time, ascended: false)) }
        case .temperature:
            _ = altitude.process(reading)
        case .angularVelocity(let v):
            // Optional: where a gyroscope is recorded or streamed, it finds the closing steps
            // and keeps a walk's steps through its turns (StepDetector).
            detector.update(rotationRate: FusionVector(x: Q32_32(v.x), y: Q32_32(v.y), z: Q32_32(v.z)), timeNanoseconds: time)
        case .acceleration(let v):
            hasAccelerometer = true
            let acceleration = FusionVector(x: Q32_32(v.x), y: Q32_32(v.y), z: Q32_32(v.z))
            var book = totals
            // A bout confirmed by this reading: its first step, credited now.
            let wasWalking = detector.isWalking
            var boutStart: Int64?
            detector.update(acceleration: acceleration, timeNanoseconds: time) { found in
                switch found {
                case .step(let stepTime):
                    if !wasWalking, boutStart == nil { boutStart = stepTime }
                    output(book.credit(stepTime))
                case .pause(let at): output(.event(PedometerEvent(kind: .pause, timeNanoseconds: at, deliveredNanoseconds: time)))
                case .resume(let at): output(.event(PedometerEvent(kind: .resume, timeNanoseconds: at, deliveredNanoseconds: time)))
                }
            }
            totals = book
            if let boutStart, let lastPressureTime, lastPressureTime > boutStart {
                // The climb since the bout's first step was on foot, though it was left out
                // while the bout was still unconfirmed.
                let milliseconds = min(lastPressureTime - boutStart, 8_000_000_000) / 1_000_000
                floors.creditClimb(since: Q32_32(numerator: milliseconds, denominator: 1000))
            }
        default:
            break
        }
    }
}
