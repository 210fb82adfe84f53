public import MotionAlgorithms
import FixedPoint

/// The pedometer stage: accelerometer and barometer readings in, `PedometerOutput` out (steps
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
    /// Whether a barometer has been seen (else floors are unknown: nil, as Core Motion's).
    public private(set) var hasBarometer = false

    public init(stride: StrideModel = StrideModel()) {
        totals = PedometerTotals(stride: stride)
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
            // Stepping: a bout going on or a step in the last 5 s; a board without an
            // accelerometer cannot tell, and counts every climb.
            let stepping = !hasAccelerometer || detector.isWalking || totals.lastStep.map { time - $0 < 5_000_000_000 } == true
            let (up, down) = (floors.floorsAscended, floors.floorsDescended)
            floors.update(altitude: altitude.altimeter.relativeAltitude, dt: dt, stepping: stepping)
            for _ in up..<floors.floorsAscended { output(.floor(timeNanoseconds: time, ascended: true)) }
            for _ in down..<floors.floorsDescended { output(.floor(timeNanoseconds: time, ascended: false)) }
        case .temperature:
            _ = altitude.process(reading)
        case .acceleration(let v):
            hasAccelerometer = true
            let acceleration = FusionVector(x: Q32_32(v.x), y: Q32_32(v.y), z: Q32_32(v.z))
            var book = totals
            detector.update(acceleration: acceleration, timeNanoseconds: time) { found in
                switch found {
                case .step(let stepTime): output(book.credit(stepTime))
                case .pause(let at): output(.event(PedometerEvent(kind: .pause, timeNanoseconds: at, deliveredNanoseconds: time)))
                case .resume(let at): output(.event(PedometerEvent(kind: .resume, timeNanoseconds: at, deliveredNanoseconds: time)))
                }
            }
            totals = book
        default:
            break
        }
    }
}
