import MotionAlgorithms
import MotionEngine

/// The demo's engine stages, fed every reading the board's drivers deliver, as the managers run
/// them in-process: device motion (CMMotionManager), the pedometer with floors when the board has
/// a barometer (CMPedometer) and the activity classifier (CMMotionActivityManager). It also keeps
/// what the closing summary needs: the activity history and the range of the attitude.
struct DemoPipeline {
    /// Whether the attitude has a north: only when the recording has a magnetometer (the
    /// emulated one otherwise reads a constant field, which would make a heading up).
    let hasHeading: Bool
    private var estimator: DeviceMotionEstimator
    private(set) var pedometer = PedometerStage()  // the default stride model (170 cm): the same figures for everyone
    private var activityStage = ActivityStage()
    private(set) var activityHistory = ActivityHistory()
    private(set) var motion: DeviceMotion?
    private(set) var attitudeRange = AttitudeRange()
    private var nextMotionNanoseconds: Int64 = .min
    /// Device motion is looked at 20 times a second, as an app with a 0.05 s update interval
    /// would: building it for every gyroscope sample would cost a third of the stage for nothing.
    private static let motionIntervalNanoseconds: Int64 = 50_000_000

    init(hasHeading: Bool) {
        self.hasHeading = hasHeading
        estimator = DeviceMotionEstimator(frame: hasHeading ? .xMagneticNorthZVertical : .xArbitraryZVertical)
    }

    var activity: MotionActivityEstimate { activityStage.current }

    mutating func process(_ reading: SensorReading) {
        pedometer.process(reading) { _ in }
        var updates: [MotionActivityUpdate] = []  // empty unless the activity changed: no allocation
        activityStage.process(reading) { updates.append($0) }
        for update in updates { activityHistory.record(update) }
        activityHistory.advance(toNanoseconds: reading.timestampNanoseconds)
        if estimator.update(reading), reading.timestampNanoseconds >= nextMotionNanoseconds {
            let motion = estimator.motion
            self.motion = motion
            nextMotionNanoseconds = reading.timestampNanoseconds + Self.motionIntervalNanoseconds
            attitudeRange.add(motion, heading: hasHeading)
        }
    }
}

/// The span of roll and pitch, and the arc of headings, a walk went through (degrees).
struct AttitudeRange {
    private(set) var roll: ClosedRange<Double>?
    private(set) var pitch: ClosedRange<Double>?
    /// One flag per whole degree of heading seen.
    private var headings = [Bool](repeating: false, count: 360)
    private var hasHeadings = false

    mutating func add(_ motion: DeviceMotion, heading: Bool) {
        let angles = motion.eulerAngles
        let degrees = 180 / Double.pi
        let roll = angles.roll.doubleValue * degrees, pitch = angles.pitch.doubleValue * degrees
        self.roll = self.roll.map { min($0.lowerBound, roll)...max($0.upperBound, roll) } ?? roll...roll
        self.pitch = self.pitch.map { min($0.lowerBound, pitch)...max($0.upperBound, pitch) } ?? pitch...pitch
        guard heading else { return }
        let value = motion.heading.doubleValue
        guard value.isFinite, value >= 0 else { return }  // Core Motion's −1: no heading yet
        headings[Int(value) % 360] = true
        hasHeadings = true
    }

    /// The smallest arc holding every heading seen, as (from, to) clockwise in degrees: 360° less
    /// the widest gap (headings wrap at north, so a plain minimum and maximum would mislead).
    var headingArc: (from: Int, to: Int)? {
        guard hasHeadings else { return nil }
        var widestGap = 0, gapEnd = 0
        for start in 0..<360 where headings[start] {
            var length = 0
            while !headings[(start + 1 + length) % 360] && length < 359 { length += 1 }
            if length > widestGap { widestGap = length; gapEnd = (start + 1 + length) % 360 }
        }
        return (gapEnd, (gapEnd + 359 - widestGap) % 360)
    }
}
