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
    /// Whether the recording has a gyroscope: without one, yaw never moves and the attitude is
    /// the tilt the accelerometer sees.
    let hasRotation: Bool
    private var estimator: DeviceMotionEstimator
    private(set) var pedometer = PedometerStage()  // the default stride model (170 cm): the same figures for everyone
    private var activityStage = ActivityStage()
    private(set) var activityHistory = ActivityHistory()
    private(set) var motion: DeviceMotion?
    private(set) var attitudeRange = AttitudeRange()
    private var nextMotionNanoseconds: Int64 = .min
    /// Whether a magnetometer reading has been fused: before it, a heading is the filter's
    /// starting guess, not north.
    private(set) var hasFieldSample = false
    /// Device motion is looked at 20 times a second, as an app with a 0.05 s update interval
    /// would: building it for every gyroscope sample would cost a third of the stage for nothing.
    private static let motionIntervalNanoseconds: Int64 = 50_000_000

    init(hasHeading: Bool, hasRotation: Bool) {
        self.hasHeading = hasHeading
        self.hasRotation = hasRotation
        estimator = DeviceMotionEstimator(frame: hasHeading ? .xMagneticNorthZVertical : .xArbitraryZVertical)
    }

    var activity: MotionActivityEstimate { activityStage.current }

    mutating func process(_ reading: SensorReading) {
        if case .magneticField = reading.value { hasFieldSample = true }
        pedometer.process(reading) { _ in }
        var updates: [MotionActivityUpdate] = []  // empty unless the activity changed: no allocation
        activityStage.process(reading) { updates.append($0) }
        for update in updates { activityHistory.record(update) }
        activityHistory.advance(toNanoseconds: reading.timestampNanoseconds)
        if estimator.update(reading), reading.timestampNanoseconds >= nextMotionNanoseconds {
            let motion = estimator.motion
            self.motion = motion
            nextMotionNanoseconds = reading.timestampNanoseconds + Self.motionIntervalNanoseconds
            let yaw = motion.eulerAngles.yaw.doubleValue * 180 / .pi
            let heading = motion.heading.doubleValue  // Core Motion's −1 until there is one
            attitudeRange.add(motion, direction: hasHeading ? (heading >= 0 && hasFieldSample ? heading : nil) : hasRotation ? yaw : nil)
        }
    }
}

/// The span of roll and pitch, and the arc of directions (the heading, or yaw when there is no
/// north) a walk went through, in degrees.
struct AttitudeRange {
    private(set) var roll: ClosedRange<Double>?
    private(set) var pitch: ClosedRange<Double>?
    /// One flag per whole degree of direction seen.
    private var directions = [Bool](repeating: false, count: 360)
    private var hasDirections = false

    /// `direction`: the heading (0…360°) or yaw (±180°); nil when there is neither.
    mutating func add(_ motion: DeviceMotion, direction: Double?) {
        let angles = motion.eulerAngles
        let degrees = 180 / Double.pi
        let roll = angles.roll.doubleValue * degrees, pitch = angles.pitch.doubleValue * degrees
        self.roll = self.roll.map { min($0.lowerBound, roll)...max($0.upperBound, roll) } ?? roll...roll
        self.pitch = self.pitch.map { min($0.lowerBound, pitch)...max($0.upperBound, pitch) } ?? pitch...pitch
        guard let direction, direction.isFinite else { return }
        directions[(Int(direction.rounded(.down)) % 360 + 360) % 360] = true
        hasDirections = true
    }

    /// The smallest arc holding every direction seen: its ends in whole degrees (0…359, going up
    /// from `from` to `to`) and its width, 360° less the widest gap between directions seen
    /// (directions wrap, so a plain minimum and maximum would mislead).
    var directionArc: (from: Int, to: Int, width: Int)? {
        guard hasDirections else { return nil }
        var widestGap = 0, gapEnd = 0
        for start in 0..<360 where directions[start] {
            var length = 0
            while !directions[(start + 1 + length) % 360] && length < 359 { length += 1 }
            if length > widestGap { widestGap = length; gapEnd = (start + 1 + length) % 360 }
        }
        return (gapEnd, (gapEnd + 359 - widestGap) % 360, 360 - widestGap)
    }
}
