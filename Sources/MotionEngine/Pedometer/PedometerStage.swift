public import MotionAlgorithms
import FixedPoint

/// The pedometer stage (first cut of issue 6): accelerometer readings in, credited steps out
/// (each at the time it happened), with the running totals `CMPedometerData` reports.
public struct PedometerStage: Sendable {
    private var detector = StepDetector()
    /// Steps credited so far.
    public private(set) var numberOfSteps = 0
    /// Seconds spent stepping: the sum of the intervals between consecutive credited steps
    /// shorter than 2 s (pauses are not active time).
    public private(set) var activeNanoseconds: Int64 = 0
    private var lastStep: Int64?
    /// Stride length, m: 0.415 × height (a common walking-stride model; per-user calibration is
    /// issue 6's `motionctl calibrate stride`).
    public let strideMeters: Double

    /// - Parameter heightCentimeters: the user's height (default 170 cm).
    public init(heightCentimeters: Double = 170) {
        strideMeters = 0.415 * heightCentimeters / 100
    }

    /// Distance walked, m.
    public var distanceMeters: Double { Double(numberOfSteps) * strideMeters }

    /// Average active pace, s/m (nil before any distance).
    public var averageActivePace: Double? {
        distanceMeters > 0 ? Double(activeNanoseconds) / 1e9 / distanceMeters : nil
    }

    private var floors = FloorCounter()
    private var hasAccelerometer = false
    private var lastPressureTime: Int64?
    /// Whether a barometer has been seen (else floors are unknown: nil, as Core Motion's).
    public private(set) var hasBarometer = false
    public var floorsAscended: Int? { hasBarometer ? floors.floorsAscended : nil }
    public var floorsDescended: Int? { hasBarometer ? floors.floorsDescended : nil }
    /// Metres since the first pressure sample (CMAltitudeData.relativeAltitude).
    public var relativeAltitude: Double { floors.relativeAltitude.doubleValue }

    /// Takes one reading; `credit` gets the time of each step credited by it.
    public mutating func process(_ reading: SensorReading, credit: (Int64) -> Void) {
        switch reading.value {
        case .pressure(let pressure):
            hasBarometer = true
            let time = reading.timestampNanoseconds
            let dt = lastPressureTime.map { Q32_32(nanoseconds: time - $0) } ?? .zero
            lastPressureTime = time
            // Stepping: a bout going on or a step in the last 5 s; a board without an
            // accelerometer cannot tell, and counts every climb.
            let stepping = !hasAccelerometer || detector.isWalking || lastStep.map { time - $0 < 5_000_000_000 } == true
            floors.update(pressure: Q32_32(pressure), dt: dt, stepping: stepping)
            return
        case .temperature(let temperature):
            floors.update(temperatureCelsius: Q32_32(temperature))
            return
        case .acceleration:
            hasAccelerometer = true
        default:
            return
        }
        guard case .acceleration(let v) = reading.value else { return }
        let acceleration = FusionVector(x: Q32_32(v.x), y: Q32_32(v.y), z: Q32_32(v.z))
        var count = numberOfSteps, active = activeNanoseconds, last = lastStep
        detector.update(acceleration: acceleration, timeNanoseconds: reading.timestampNanoseconds) { time in
            count += 1
            if let previous = last, time - previous < 2_000_000_000, time > previous { active += time - previous }
            last = time
            credit(time)
        }
        numberOfSteps = count
        activeNanoseconds = active
        lastStep = last
    }
}
