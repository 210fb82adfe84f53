public import FixedPoint

/// Attitude from gyroscope, accelerometer and (optionally) magnetometer, in the structure of
/// VQF (see `AttitudeFilterSettings`), over any `FusionScalar`: `Q32_32` on the device, `Double`
/// as the tests' reference. No allocation, no branching on data beyond thresholds.
///
/// The estimate is split in three, each corrected by what observes it:
/// - `gyroscopeQuaternion`: the bias-corrected gyroscope integrated (device → an almost-inertial
///   frame I that drifts only with the remaining bias);
/// - `inclinationQuaternion`: the rotation about a horizontal axis that brings I's "up", the
///   accelerometer low-pass filtered **in frame I** (so that motion of the device does not
///   smear it, and only accelerations lasting seconds can tilt it), onto the vertical. Frame I
///   starts level (the gyroscope quaternion starts at the first sample's inclination), so its
///   up stays near the vertical, moved only by the remaining bias: the inclination is computed
///   from it directly each sample (the shortest rotation onto z), not built up step by step;
/// - `headingOffset`: the rotation about the vertical that brings the magnetometer's
///   horizontal component onto north (x), corrected with a time constant, skipped while the
///   field is disturbed (its strength or dip off the reference).
/// The 6D attitude is inclination ⊗ gyroscope; the 9D one adds heading.
///
/// The gyroscope bias is estimated at rest (gyroscope and accelerometer steady for 1.5 s):
/// there the bias follows the gyroscope's average; in motion, from the inclination corrections.
///
/// Cost: what must follow every sample (integration, the accelerometer's filter, the
/// inclination, each sample's test against the rest averages) runs per sample; what changes
/// over seconds (the rest averages and the bias at rest, the bias in motion, the lagged axes it
/// needs, the gyroscope quaternion's renormalisation) runs at most every
/// `AttitudeFilterSettings.slowInterval` (50 Hz), from what the samples between accumulated.
public struct AttitudeFilter<Scalar: FusionScalar>: Sendable {
    public typealias Vector = FusionVector<Scalar>
    public typealias Rotation = FusionQuaternion<Scalar>

    /// What the filter knows, for diagnostics.
    public private(set) var gyroscopeQuaternion = Rotation.identity
    public private(set) var inclinationQuaternion = Rotation.identity
    /// rad, about the vertical.
    public private(set) var headingOffset = Scalar.zero
    /// rad/s, device axes.
    public private(set) var bias = Vector.zero
    public private(set) var isResting = false
    /// Whether the bias has been measured at rest (or was stored): until then the first rest
    /// takes its average outright (see `detectRestAndEstimateBias`).
    private var restBiasKnown: Bool
    public private(set) var isMagneticallyDisturbed = false
    public private(set) var hasHeading = false
    /// The reference field strength (µT) and dip angle (rad, positive downwards).
    public private(set) var magneticReferenceNorm = Scalar.zero
    public private(set) var magneticReferenceDip = Scalar.zero

    // Coefficients: reciprocals of the time constants (1/s) and thresholds, converted once.
    private let inverseRestFilterTime, inverseBiasTime: Scalar
    /// The heading correction's time constant (`AttitudeFilterSettings.magnetometerStartTimeConstant`).
    private var headingTime: GrowingTimeConstant<Scalar>
    /// The motion bias's time constant (`AttitudeFilterSettings.motionBiasStartTimeConstant`).
    private var motionBiasTime: GrowingTimeConstant<Scalar>
    /// The motion bias loop's time constant now, s: it grows with the motion seen
    /// (`AttitudeFilterSettings.motionBiasStartTimeConstant`), so a long one means a bias
    /// learned from a long motion.
    public var motionBiasTimeConstant: Scalar { motionBiasTime.time }
    private let restGyroscopeThresholdSquared, restAccelerometerThresholdSquared, restMinimumDuration, biasLimit: Scalar
    private let magneticNormThreshold, magneticDipThreshold, magneticNewReferenceTime, inverseReferenceTime: Scalar
    private let fastMagneticConvergence: Bool
    // Constants as computed properties, not stored (folded at compile time in fixed point).
    private static var pi: Scalar { Scalar(Q32_32.pi) }
    private static var oneSixth: Scalar { Scalar(numerator: 1, denominator: 6) }
    private static var oneTwentyFourth: Scalar { Scalar(numerator: 1, denominator: 24) }

    // States.
    private var started = false
    private var accelerometerFilter: ButterworthLowPass<Scalar>
    /// The almost-inertial frame's axes in device coordinates (the rows of the gyroscope
    /// quaternion's matrix), low-passed with the accelerometer's time constant: the inclination
    /// corrections lag the motion by that filter, so the bias they reveal is mapped back into
    /// device axes with the rotation of the same moment (VQF filters its rotation matrix the
    /// same way). With the current rotation instead, a device turning at ~1/τ (a walker's
    /// laps) smears a bias across axes: the iPhone 5's 5.5 °/s on x was learned as a bias on y.
    /// Sampled at the slow interval (a 0.075 Hz filter needs no more than 50 Hz): the x axis is
    /// `laggedAxesFilter`'s own signal, y and z its companions (the same coefficients).
    private var laggedAxesFilter: ButterworthLowPass<Scalar>
    private var laggedAxisY = ButterworthLowPass<Scalar>.Companion(), laggedAxisZ = ButterworthLowPass<Scalar>.Companion()
    /// Time since the slow part last ran, s, and when it runs again (s, see `init`).
    private var slowClock = Scalar.zero
    private let slowInterval: Scalar
    /// 1/|filtered acceleration|, refined by Newton from its previous value each step.
    private var inverseGravityNorm = Scalar.zero
    /// The normalising factor of the inclination's half-angle quaternion, refined the same way.
    private var inclinationNormalizer = Scalar.one
    /// The filtered up (unit, frame I) when the slow part last ran.
    private var slowStartUp = Vector.zero
    /// The rest test's averages (rad/s, m/s²), followed every slow interval, and what the
    /// samples since the last one add to them: their sums and count, and whether any of them
    /// left its threshold.
    private var restGyroscopeMean = Vector.zero, restAccelerometerMean = Vector.zero
    private var restGyroscopeSum = Vector.zero, restAccelerometerSum = Vector.zero
    private var restSamples: Int64 = 0
    private var restInterrupted = false
    /// How long the samples have stayed steady, s.
    private var restTime = Scalar.zero
    private var magneticSamples = Scalar.zero
    /// A disturbed field's strength (µT) and dip (rad) followed as a possible new reference, and
    /// how long it has stayed steady while the device moved, s (`trackNewReference`).
    private var candidateNorm = Scalar.zero, candidateDip = Scalar.zero, candidateTime = Scalar.zero
    private var hasCandidate = false
    /// s the field must still stay within the thresholds of the reference before it is used
    /// again: after any sample outside them, `undisturbedWait`.
    private var disturbanceTime = Scalar.zero
    /// s (VQF's minimum undisturbed time, 0.5 s): a magnet turning with the device passes
    /// through the reference's strength and dip now and then, and each such moment would
    /// otherwise pull the heading towards the magnet's north (BROAD's magnet 2 cm from the
    /// sensor: 9.2° → 1.4° total RMSE).
    private let undisturbedWait = Scalar(numerator: 1, denominator: 2)
    /// The reference's strength and dip are one sample's when the heading starts, often while
    /// the online calibration is still settling (a phone's first applied offset leaves a field
    /// 4 µT and 12° off the one it converges to): until the field has been used for
    /// `firstReferenceTime`, a steady field replaces the reference after that long instead of
    /// `magneticNewReferenceTime` (VQF's 5 s for its first reference). Only use while the device
    /// moves counts, as only steadiness in motion does (`trackNewReference`): at rest any field
    /// is steady, a magnet's too, and only a strength and dip that hold while the device turns
    /// are the Earth's. s left.
    private var provisionalReferenceTime = Scalar.zero
    private let firstReferenceTime = Scalar(Q32_32(integer: 5))
    /// Time since the last magnetometer sample used, and the least interval between two.
    private var magnetometerTime = Scalar.zero
    private let magnetometerInterval: Scalar
    /// The magnetometer's online hard-iron calibration.
    public private(set) var calibration: MagnetometerCalibration<Scalar>
    private let calibratesMagnetometer: Bool
    /// The calibration's offset when the heading reference was taken, and how far (µT², squared)
    /// it may move before the reference is taken again.
    private var referenceOffset = Vector.zero
    private static var recalibrationThresholdSquared: Scalar { Scalar(Q32_32(integer: 25)) }
    /// cos and sin of half the heading offset, kept with it (the output needs them each sample).
    @usableFromInline var headingHalfCosine = Scalar.one, headingHalfSine = Scalar.zero
    /// The gyroscope bias the heading reveals, rad/s, device axes (`MagneticBiasTracking`).
    public private(set) var magneticBias: MagneticBiasTracking<Scalar>

    /// - Parameters:
    ///   - magnetometerOffset: a stored hard-iron calibration, µT (`settings` should then give
    ///     its uncertainty in `magnetometerOffsetUncertainty`).
    ///   - gyroscopeBias: a stored gyroscope bias, rad/s: the estimate starts there.
    public init(settings: AttitudeFilterSettings = .init(), magnetometerOffset: Vector = .zero, gyroscopeBias: Vector = .zero) {
        bias = gyroscopeBias
        restBiasKnown = gyroscopeBias.squaredLength > .zero
        calibratesMagnetometer = settings.magnetometerCalibration
        magnetometerInterval = Scalar(settings.magnetometerInterval)
        calibration = MagnetometerCalibration(initialOffset: magnetometerOffset,
                                              initialUncertainty: settings.magnetometerOffsetUncertainty)
        accelerometerFilter = ButterworthLowPass(timeConstant: settings.accelerometerTimeConstant)
        laggedAxesFilter = ButterworthLowPass(timeConstant: settings.accelerometerTimeConstant)
        // Runs once 90 % of the interval has passed: a rate that divides the interval exactly
        // (50 Hz: every sample; 100 Hz: every second) then does not sit on the threshold, where
        // a rounding could make the fixed-point filter and its Double reference decide apart.
        slowInterval = Scalar(settings.slowInterval * Q32_32(numerator: 9, denominator: 10))
        // Reciprocals and squares in exact integer arithmetic (Q32.32).
        headingTime = GrowingTimeConstant(start: settings.magnetometerStartTimeConstant, settled: settings.magnetometerTimeConstant)
        inverseRestFilterTime = Scalar(settings.restFilterTimeConstant.reciprocal)
        inverseBiasTime = Scalar(settings.restBiasTimeConstant.reciprocal)
        // A stored bias (from an earlier run) starts nearer, not slower: a gyroscope's zero-rate
        // offset moves with temperature between runs (MPU-6050: up to 0.05 °/s per °C), so the
        // loop learns as fast as from zero.
        motionBiasTime = GrowingTimeConstant(start: settings.motionBiasStartTimeConstant, settled: settings.motionBiasTimeConstant)
        restGyroscopeThresholdSquared = Scalar(settings.restGyroscopeThreshold * settings.restGyroscopeThreshold)
        restAccelerometerThresholdSquared = Scalar(settings.restAccelerometerThreshold * settings.restAccelerometerThreshold)
        restMinimumDuration = Scalar(settings.restMinimumDuration)
        biasLimit = Scalar(settings.biasLimit)
        magneticNormThreshold = Scalar(settings.magneticNormThreshold)
        magneticDipThreshold = Scalar(settings.magneticDipThreshold)
        magneticNewReferenceTime = Scalar(settings.magneticNewReferenceTime)
        inverseReferenceTime = Scalar(numerator: 1, denominator: 5)  // the reference follows an undisturbed field slowly
        fastMagneticConvergence = settings.fastMagneticConvergence
        magneticBias = MagneticBiasTracking(settings: settings)
    }

    /// The 6D attitude: device axes → a frame with z up and x where the device's x pointed
    /// (horizontally) when the filter started, drifting only with the residual bias.
    public private(set) var attitude6D = Rotation.identity

    /// The 9D attitude: device axes → x magnetic north, y west, z up.
    @inlinable @inline(__always)  // (see `FixedPointAttitudeFilter`'s outputs)
    public var attitude9D: Rotation {
        attitude6D.turnedAboutZ(halfCosine: headingHalfCosine, halfSine: headingHalfSine)
    }

    /// One gyroscope sample (rad/s, device axes) with the latest accelerometer sample (m/s²,
    /// specific force: +g up at rest), `dt` seconds after the previous one.
    public mutating func update(gyroscope: Vector, accelerometer: Vector, dt: Scalar) {
        if !started {
            start(accelerometer)
            return
        }
        integrate(gyroscope - bias, dt)
        correctInclination(accelerometer, dt)
        attitude6D = gyroscopeQuaternion.tilted(by: inclinationQuaternion)
        testRest(gyroscope, accelerometer)
        slowClock = slowClock + dt
        if slowClock >= slowInterval { updateSlowly() }
    }

    /// One gyroscope sample (rad/s, device axes) `dt` seconds after the previous one while the
    /// accelerometer is silent (a chip that stopped or is being reset): integrated, so that the
    /// attitude follows the device until the accelerometer comes back, and nothing corrected. A
    /// held, old accelerometer sample would instead pull the inclination towards where gravity
    /// was when it stopped. Nothing before the first accelerometer sample.
    public mutating func update(gyroscope: Vector, dt: Scalar) {
        guard started else { return }
        integrate(gyroscope - bias, dt)
        attitude6D = gyroscopeQuaternion.tilted(by: inclinationQuaternion)
        // Rest is judged from both sensors: unobserved, the device is not known to be at rest (the
        // magnetometer's reference rules and the stored bias's rest time read `isResting`), and
        // the rest that follows must be a span seen whole, not sums from before the silence.
        startRestSums()
        restTime = .zero
        isResting = false
        // The renormalisation waits for the slow part otherwise; a long silence must not drift.
        slowClock = slowClock + dt
        if slowClock >= slowInterval {
            slowClock = .zero
            gyroscopeQuaternion = gyroscopeQuaternion.normalized
        }
    }

    /// The part that changes over seconds, every `slowInterval` (see the type's comment).
    private mutating func updateSlowly() {
        let dt = slowClock
        slowClock = .zero
        detectRestAndEstimateBias(dt)
        gyroscopeQuaternion = gyroscopeQuaternion.normalized
        let axes = inertialAxes
        laggedAxesFilter.update(axes.x, dt: dt)
        laggedAxesFilter.update(&laggedAxisY, with: axes.y)
        laggedAxesFilter.update(&laggedAxisZ, with: axes.z)
        let up = accelerometerFilter.output * inverseGravityNorm
        // What the inclination corrected since the last time, as a rotation vector in frame I:
        // each step turned the previous up n onto the new one, sin of the angle × axis = n_new ×
        // n_old, and summed over a path this smooth (a 3 s filter's output over 20 ms) that is
        // the cross product of its ends.
        let correction = up.cross(slowStartUp)
        slowStartUp = up
        if !isResting { estimateBiasInMotion(correction, dt) }
    }

    private mutating func start(_ accelerometer: Vector) {
        started = true
        // The filters start at the first sample: the inclination is right at once. Frame I
        // starts level: the gyroscope quaternion takes the first sample's inclination (frame I
        // is the device's frame until then), and the inclination starts at identity.
        let squared = accelerometer.squaredLength
        inverseGravityNorm = squared.reciprocalSquareRoot
        let interval = Scalar.one.timesPowerOfTwo(-7)
        accelerometerFilter.reset(to: accelerometer, dt: interval)
        alignInclination(squared)
        gyroscopeQuaternion = inclinationQuaternion
        let inertial = gyroscopeQuaternion.rotate(accelerometer)
        accelerometerFilter.reset(to: inertial, dt: interval)
        alignInclination(inertial.squaredLength)
        let axes = inertialAxes
        laggedAxesFilter.reset(to: axes.x, dt: slowInterval)
        laggedAxisY = laggedAxesFilter.companion(at: axes.y)
        laggedAxisZ = laggedAxesFilter.companion(at: axes.z)
        slowStartUp = inertial * inverseGravityNorm
        restAccelerometerMean = accelerometer
        attitude6D = gyroscopeQuaternion.tilted(by: inclinationQuaternion)
    }

    /// q ← q ⊗ exp(ω dt / 2): the small rotation's quaternion to fourth order in the angle
    /// θ = |ω| dt, with a = θ²/4: w = cos(θ/2) ≈ 1 − a/2 + a²/24, v = ω dt/2 (1 − a/6). The
    /// neglected terms are below θ⁵/3840, 10⁻¹² for θ < 0.02 rad (1150 °/s at 1 ms steps), and
    /// the step is a unit quaternion to a³/72 (10⁻¹¹ even at θ = 0.06 rad, 170 °/s at 50 Hz):
    /// the product drifts from unit length only by rounding, so it is renormalised in
    /// `updateSlowly`, not here. (Without the a² term the norm is off by a²/12, 7 × 10⁻⁸ at
    /// θ = 0.06: visible as 0.02° in the attitude's angle to the Double reference.)
    // Inlined (one call site, no code added): the quaternion stays in registers for the next step.
    @inline(__always)
    private mutating func integrate(_ rate: Vector, _ dt: Scalar) {
        let half = rate * dt.timesPowerOfTwo(-1)        // ω dt / 2
        let a = half.squaredLength                       // θ² / 4
        let w = Scalar.one - a.timesPowerOfTwo(-1) + a * a * Self.oneTwentyFourth
        let v = half * (Scalar.one - a * Self.oneSixth)
        let step = Rotation(w: w, x: v.x, y: v.y, z: v.z)
        gyroscopeQuaternion = gyroscopeQuaternion * step
    }

    /// Low-pass filters the accelerometer in frame I (second-order Butterworth, VQF's cutoff
    /// for τ) and turns the inclination so that the filtered vector is vertical.
    @inline(__always)  // (see `integrate`)
    private mutating func correctInclination(_ accelerometer: Vector, _ dt: Scalar) {
        let inertial = gyroscopeQuaternion.rotate(accelerometer)
        let filtered = accelerometerFilter.update(inertial, dt: dt)
        // 1/|a| changes slowly: one Newton step from the previous value keeps it exact.
        let squared = filtered.squaredLength
        inverseGravityNorm = inverseGravityNorm * (Scalar.one + Scalar.one.timesPowerOfTwo(-1)
            - squared.timesPowerOfTwo(-1) * inverseGravityNorm * inverseGravityNorm)
        alignInclination(squared)
    }

    /// The rotation about a horizontal axis taking the filtered "up" f (|f|² = `squared`) onto
    /// z: the quaternion (|f| + f_z, f_y, −f_x, 0) normalised (half the angle between f and z, no
    /// trigonometry). Scaled by 1/(2|f|) first, its squared norm is (1 + n_z)/2 (n = f/|f|), which
    /// moves by parts in 10⁵ per sample: one Newton step from the previous normalising factor
    /// keeps it exact (to 10⁻¹⁰) while the move is under 2⁻¹⁶, two up to 2⁻⁸; a larger jump (the
    /// start) takes the square root. (On phone_attitude's phones at 100 Hz it moves by 1–2 × 10⁻⁵
    /// in three samples of four: with one step only, those took the square root, a tenth of the
    /// filter's time.)
    private mutating func alignInclination(_ squared: Scalar) {
        let filtered = accelerometerFilter.output
        let length = squared * inverseGravityNorm
        let w = length + filtered.z
        guard w > length.timesPowerOfTwo(-20) else {
            // Upside down exactly: any horizontal axis will do; x.
            inclinationQuaternion = Rotation(w: .zero, x: .one, y: .zero, z: .zero)
            return
        }
        let scale = inverseGravityNorm.timesPowerOfTwo(-1)
        let (qw, qx, qy) = (w * scale, filtered.y * scale, -filtered.x * scale)
        let squaredNorm = qw * qw + qx * qx + qy * qy
        var k = inclinationNormalizer
        let residual = squaredNorm * k * k - Scalar.one
        let near = Scalar.one.timesPowerOfTwo(-16), far = Scalar.one.timesPowerOfTwo(-8)
        if residual < near, -residual < near {
            k = k * (Scalar.one - residual.timesPowerOfTwo(-1))
        } else if residual < far, -residual < far {
            // Two steps: the first leaves a residual under ¾ (2⁻⁸)² = 1.1 × 10⁻⁵, the second an
            // error under 3/8 of its square, 5 × 10⁻¹¹.
            k = k * (Scalar.one - residual.timesPowerOfTwo(-1))
            k = k * (Scalar.one - (squaredNorm * k * k - Scalar.one).timesPowerOfTwo(-1))
        } else {
            k = squaredNorm.reciprocalSquareRoot
        }
        inclinationNormalizer = k
        inclinationQuaternion = Rotation(w: qw * k, x: qx * k, y: qy * k, z: .zero)
    }

    /// Rest: every gyroscope and accelerometer sample within its threshold of the 0.5 s
    /// averages for 1.5 s. Per sample, only the test against the averages as the last slow
    /// interval left them (20 ms old at most, against their 0.5 s time constant) and the sums
    /// for the next: once one sample of an interval has failed, the others skip the test.
    @inline(__always)  // (see `clamped`)
    private mutating func testRest(_ gyroscope: Vector, _ accelerometer: Vector) {
        restGyroscopeSum = restGyroscopeSum + gyroscope
        restAccelerometerSum = restAccelerometerSum + accelerometer
        restSamples += 1
        if !restInterrupted {
            restInterrupted = !((gyroscope - restGyroscopeMean).squaredLength < restGyroscopeThresholdSquared)
                || !((accelerometer - restAccelerometerMean).squaredLength < restAccelerometerThresholdSquared)
        }
    }

    /// Empties the sums the rest test gathers between two slow intervals: at each slow interval,
    /// and when a silent accelerometer leaves the rest unobserved.
    @inline(__always)  // (see `clamped`)
    private mutating func startRestSums() {
        (restGyroscopeSum, restAccelerometerSum, restSamples, restInterrupted) = (.zero, .zero, 0, false)
    }

    /// Every slow interval (`dt` s): the averages follow the interval's mean samples, the
    /// steady time grows or starts again, and at rest the bias follows the gyroscope's average.
    private mutating func detectRestAndEstimateBias(_ dt: Scalar) {
        let inverseCount = Scalar(numerator: 1, denominator: max(restSamples, 1))
        let k = dt * inverseRestFilterTime
        restGyroscopeMean = restGyroscopeMean.approaching(restGyroscopeSum * inverseCount, by: k)
        restAccelerometerMean = restAccelerometerMean.approaching(restAccelerometerSum * inverseCount, by: k)
        restTime = restInterrupted ? .zero : restTime + dt
        startRestSums()
        isResting = restTime >= restMinimumDuration
        guard isResting else { return }
        // The bias is constant: the first rest's average (the gyroscope's 0.5 s mean over a
        // rest already 1.5 s long) is its best estimate, as a Kalman filter's first measurement
        // of an unknown constant is taken nearly whole (VQF's rest update). Followed with the
        // 2 s time constant instead, a rest of 2–3 s before the device moves (RepoIMU's wand)
        // learned a fifth to a third of a 0.3 °/s bias, and the inclination drifted for the
        // motion's first seconds. Later rests, or a stored bias, are followed: one rest's
        // average is not better than an estimate already made.
        if restBiasKnown {
            bias = clamped(bias.approaching(restGyroscopeMean, by: dt * inverseBiasTime))
        } else {
            bias = clamped(restGyroscopeMean)
            restBiasKnown = true
        }
    }

    /// In motion, the inclination corrections are what a bias error leaves: integrated, the
    /// gyroscope drifts by −R b_error; the corrections undo it about the horizontal axes. So the
    /// corrections, turned back into device axes, pull the bias estimate (an integral term with
    /// time constant `motionBiasTimeConstant`; the vertical axis of the moment is unobservable
    /// and gets nothing; rotation makes every device axis horizontal now and then). Every
    /// `slowInterval`, with the correction since the last time (rad, frame I): the lagged axes
    /// that map it back move by a fraction of a per cent in that time.
    private mutating func estimateBiasInMotion(_ inertial: Vector, _ dt: Scalar) {
        let two = Scalar.one + Scalar.one
        let error = laggedAxesFilter.output * inertial.x + laggedAxisY.output * inertial.y + laggedAxisZ.output * inertial.z
        bias = clamped(bias - error * motionBiasTime.inverse)
        motionBiasTime.advance(by: dt, every: two)
    }

    /// The almost-inertial frame's x, y and z axes in device coordinates: the rows of the
    /// gyroscope quaternion's rotation matrix (device → almost-inertial).
    @inline(__always)  // (see `clamped`)
    private var inertialAxes: (x: Vector, y: Vector, z: Vector) { gyroscopeQuaternion.matrixRows }

    /// A bias estimate within ±`biasLimit` on each axis.
    // Inlined: called on the inout self of a mutating method, a call would first copy the whole
    // struct (Swift passes a large self by value: a kilobyte of stack on a Cortex-M0).
    @inline(__always)
    private func clamped(_ estimate: Vector) -> Vector {
        func clamp(_ value: Scalar) -> Scalar { max(-biasLimit, min(biasLimit, value)) }
        return Vector(x: clamp(estimate.x), y: clamp(estimate.y), z: clamp(estimate.z))
    }

    /// Forgets how well the magnetometer's offset is known (see `MagnetometerCalibration.doubt`).
    public mutating func doubtMagnetometerOffset(uncertainty: Q32_32) {
        calibration.doubt(uncertainty: uncertainty)
    }

    /// One raw magnetometer sample (µT, device axes), `dt` seconds after the previous one: the
    /// online calibration learns from it, then its calibrated value corrects the heading.
    public mutating func update(magnetometer raw: Vector, dt: Scalar) {
        guard started else { return }
        // At most every `magnetometerInterval`: a heading corrected with a 9 s time constant
        // needs no more, and faster magnetometers (286 Hz in BROAD) would cost 5× as much. But
        // the first sample at once: until it comes the heading is arbitrary (BROAD's first
        // 21 ms at 286 Hz: 7 samples 90° off, a degree of a 3-minute trial's RMSE).
        magnetometerTime = magnetometerTime + dt
        guard magnetometerTime >= magnetometerInterval || !hasHeading else { return }
        let dt = magnetometerTime
        magnetometerTime = .zero
        // The heading offset moves twice below (prediction, correction): its half-angle cos and
        // sin are computed once, for where it ends.
        let startOffset = headingOffset
        defer { if headingOffset != startOffset { updateHeadingRotation() } }
        let vertical = attitude6D.conjugate.rotate(Vector(x: .zero, y: .zero, z: .one))  // device axes
        if hasHeading { setHeading(headingOffset + magneticBias.headingChange(vertical: vertical, dt: dt)) }
        var magnetometer = raw
        if calibratesMagnetometer {
            calibration.update(raw: raw, rotation: attitude6D, dt: dt)
            // Until rotation has made the offset observable (accuracy low or better), the raw
            // field is the better guess: at rest the calibration cannot tell the offset from
            // the Earth's field, only their sum (`appliedOffset`).
            let offset = calibration.appliedOffset
            magnetometer = raw - offset
            // An offset that moved far since the heading's reference was taken makes that
            // reference (field strength, dip) and the heading stale: start them again.
            let moved = (offset - referenceOffset).squaredLength
            if hasHeading, moved > Self.recalibrationThresholdSquared {
                hasHeading = false
                isMagneticallyDisturbed = false
            }
            if !hasHeading { referenceOffset = offset }
        }
        let field = attitude6D.rotate(magnetometer)
        let normSquared = field.squaredLength
        guard normSquared > Scalar.one.timesPowerOfTwo(-8) else { return }  // no field: a broken sensor
        let norm = normSquared * normSquared.reciprocalSquareRoot
        let horizontalSquared = field.x * field.x + field.y * field.y
        let dip = Scalar.arctangent2(y: -field.z, x: horizontalSquared * horizontalSquared.reciprocalSquareRoot)
        // The heading offset that puts this field's horizontal part on x.
        let target = -Scalar.arctangent2(y: field.y, x: field.x)
        if !hasHeading {
            hasHeading = true
            magneticReferenceNorm = norm
            magneticReferenceDip = dip
            setHeading(target)
            magneticSamples = .one
            disturbanceTime = .zero
            provisionalReferenceTime = firstReferenceTime
            return
        }
        let normError = norm - magneticReferenceNorm
        let dipError = dip - magneticReferenceDip
        let normLimit = magneticNormThreshold * magneticReferenceNorm
        let outside = normError > normLimit || -normError > normLimit || dipError > magneticDipThreshold || -dipError > magneticDipThreshold
        disturbanceTime = outside ? undisturbedWait : max(disturbanceTime - dt, .zero)
        isMagneticallyDisturbed = disturbanceTime > .zero
        if isMagneticallyDisturbed {
            trackNewReference(norm, dip, dt)
            return
        }
        candidateTime = .zero
        hasCandidate = false
        if !isResting { provisionalReferenceTime = max(provisionalReferenceTime - dt, .zero) }
        let referenceStep = dt * inverseReferenceTime
        magneticReferenceNorm = magneticReferenceNorm + normError * referenceStep
        magneticReferenceDip = magneticReferenceDip + dipError * referenceStep
        var gain = dt * headingTime.inverse
        if fastMagneticConvergence {
            magneticSamples = magneticSamples + .one
            // 1/n while it exceeds dt/τ (n dt/τ < 1): a running mean over the first samples.
            // (Tested as a product: after those, no square root per sample.)
            if magneticSamples * gain < Scalar.one {
                let root = magneticSamples.reciprocalSquareRoot
                gain = root * root
            }
        }
        let error = wrapped(target - headingOffset)
        setHeading(headingOffset + error * gain)
        let learnsBias = !calibratesMagnetometer || calibration.isHorizontallyKnown
        if learnsBias { magneticBias.learn(headingError: error, vertical: vertical, inverseTime: headingTime.inverse, dt: dt) }
        // The vertical bias is known as well as the corrections so far tell it, or at rest,
        // where the gyroscope's own average gives it (the rest bias estimate).
        if learnsBias || isResting { headingTime.advance(by: dt, every: Scalar(Q32_32(integer: 4))) }
    }


    /// A disturbed field that stays steady (within the thresholds of its own average) for
    /// `magneticNewReferenceTime` of motion becomes the reference: the device is in a new place.
    /// Time at rest does not count: at rest any field is steady, a magnet's too. A magnet
    /// fastened beside the sensor of a board lying still would otherwise become the reference
    /// (after 5 s while the first one is provisional) and turn the heading by its horizontal
    /// part at once; once the board turns, the magnet's field adds to the Earth's at a changing
    /// angle and is no longer steady.
    private mutating func trackNewReference(_ norm: Scalar, _ dip: Scalar, _ dt: Scalar) {
        let normLimit = magneticNormThreshold * candidateNorm
        let normError = norm - candidateNorm, dipError = dip - candidateDip
        let steady = hasCandidate && normError < normLimit && -normError < normLimit
            && dipError < magneticDipThreshold && -dipError < magneticDipThreshold
        guard steady else {
            candidateNorm = norm
            candidateDip = dip
            candidateTime = .zero
            hasCandidate = true
            return
        }
        let step = dt * inverseRestFilterTime
        candidateNorm = candidateNorm + normError * step
        candidateDip = candidateDip + dipError * step
        if !isResting { candidateTime = candidateTime + dt }
        if candidateTime >= (provisionalReferenceTime > .zero ? firstReferenceTime : magneticNewReferenceTime) {
            provisionalReferenceTime = .zero
            magneticReferenceNorm = candidateNorm
            magneticReferenceDip = candidateDip
            candidateTime = .zero
            hasCandidate = false
            isMagneticallyDisturbed = false
            disturbanceTime = .zero
            magneticSamples = .one  // converge fast to the new place's north
        }
    }

    /// Sets the heading offset (wrapped); `update(magnetometer:)` then turns it into
    /// `headingHalfCosine` and `headingHalfSine` once, on its way out.
    private mutating func setHeading(_ angle: Scalar) {
        headingOffset = wrapped(angle)
    }

    private mutating func updateHeadingRotation() {
        let (sine, cosine) = Scalar.sineCosine(headingOffset.timesPowerOfTwo(-1))
        headingHalfCosine = cosine
        headingHalfSine = sine
    }

    /// The angle in (−π, π].
    @inline(__always)  // (see `clamped`)
    private func wrapped(_ angle: Scalar) -> Scalar {
        let twoPi = Self.pi + Self.pi
        var result = angle
        while result > Self.pi { result = result - twoPi }
        while !(result > -Self.pi) { result = result + twoPi }
        return result
    }
}
