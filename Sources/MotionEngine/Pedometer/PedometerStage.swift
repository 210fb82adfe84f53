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

    /// Takes one reading; `credit` gets the time of each step credited by it.
    public mutating func process(_ reading: SensorReading, credit: (Int64) -> Void) {
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
