public import FixedPoint
public import MotionAlgorithms

/// The device-motion stage: sensor readings in, `DeviceMotion` out, one per gyroscope sample
/// (with the latest accelerometer sample and every magnetometer sample as it comes). Fixed
/// point (`FixedPointAttitudeFilter`), no allocation per sample.
///
/// `update` fuses a reading; `motion` builds the `DeviceMotion` of the sample just fused, on
/// read: its 17 conversions to the output formats, gravity, user acceleration and the compass
/// heading (an arctangent) are a third of the stage's cost, and most consumers thin the
/// gyroscope's rate (Core Motion's update interval, `motiond`'s subscriptions) before they look.
/// `process` does both, for consumers that take every sample.
public struct DeviceMotionEstimator: Sendable {
    public let frame: AttitudeReferenceFrame
    public private(set) var filter: FixedPointAttitudeFilter
    /// Magnetic declination (east positive), rad: true north = magnetic north turned by it.
    public let declination: Double

    /// The latest accelerometer sample (m/s², calibrated), fused with the gyroscope samples after
    /// it for `accelerometerFreshness`.
    private var accelerometer = HeldSample<FusionVector<Q32_32>>(freshness: Self.accelerometerFreshness)
    /// ns: 0.1 s, several periods of any accelerometer fusion is fed (a phone's slowest, 25 Hz:
    /// 40 ms). Held longer, a device turning at 0.3 rad/s was pulled 0.6° towards where gravity
    /// was in the second after its accelerometer stopped.
    private static var accelerometerFreshness: Int64 { 100_000_000 }
    /// What `motion` is built from: the last fused gyroscope sample's time (ns), rate (rad/s)
    /// and the accelerometer sample fused with it (m/s², calibrated).
    private var fusedNanoseconds: Int64 = 0
    private var fusedRate = FusionVector<Q32_32>.zero, fusedAccelerometer = FusionVector<Q32_32>.zero
    private var magneticField = Vector3.zero
    private var lastGyroscopeNanoseconds: Int64?
    private var lastMagnetometerNanoseconds: Int64?
    /// The heading offset when the magnetometer first set it (for the corrected arbitrary frame:
    /// heading stays relative to the start).
    private var startHeading: (cosine: Q32_32, sine: Q32_32)?
    private let declinationRotation: FusionQuaternion<Q32_32>
    /// The stored accelerometer calibration, applied to every sample (nil: none stored).
    private let accelerometerCorrection: AccelerometerCorrection?
    /// The stored soft iron, applied to every magnetometer sample (nil: none stored); internal
    /// for `OnlineCalibrationSaver`, which turns a learned offset back into raw terms with it.
    let softIron: SoftIronCorrection?
    /// The field strength a stored offset left when it was saved, µT: checked against the first
    /// magnetometer sample, then nil (see `checkStoredOffset`).
    private var storedFieldStrength: Q32_32?

    /// - Parameter declination: degrees east, for `xTrueNorthZVertical` (from the World
    ///   Magnetic Model at the device's place and date).
    ///   - calibration: what `motionctl calibrate` stored for the board: the gyroscope bias
    ///     and magnetometer offset start there (the offset with 5 µT of uncertainty, unless it
    ///     no longer gives back the field strength it left: `checkStoredOffset`); the
    ///     accelerometer offset and scale and the magnetometer soft iron correct every sample.
    public init(frame: AttitudeReferenceFrame = .xArbitraryZVertical, settings: AttitudeFilterSettings = .init(), declination: Double = 0,
                calibration: BoardCalibration? = nil) {
        self.frame = frame
        self.declination = declination * .pi / 180
        var settings = settings
        func vector(_ values: [Double]?) -> FusionVector<Q32_32> {
            guard let values, values.count == 3 else { return .zero }
            return FusionVector(x: Q32_32(values[0]), y: Q32_32(values[1]), z: Q32_32(values[2]))
        }
        if calibration?.magnetometerOffset != nil { settings.magnetometerOffsetUncertainty = Q32_32(integer: 5) }
        filter = FixedPointAttitudeFilter(settings: settings, magnetometerOffset: vector(calibration?.magnetometerOffset),
                                          gyroscopeBias: vector(calibration?.gyroscopeBias))
        accelerometerCorrection = AccelerometerCorrection(calibration)
        softIron = SoftIronCorrection(calibration)
        if calibration?.magnetometerOffset != nil, let strength = calibration?.magneticFieldStrength {
            storedFieldStrength = Q32_32(strength)
        }
        // True-north frame from magnetic: a field pointing to magnetic north lies `declination`
        // east of true north, i.e. turned by −declination about z (x north, y west, z up).
        let (sine, cosine) = Q32_32.sineCosine(Q32_32(-self.declination / 2))
        declinationRotation = FusionQuaternion(w: cosine, x: .zero, y: .zero, z: sine)
    }

    /// A stored offset that no longer gives back the field strength it left when it was saved
    /// has moved since: a phone's moves by tens of µT between uses (phone_attitude's iPhone 5:
    /// 45 µT between two trials, which left 21 µT of a 41 µT field and started the heading
    /// 100° off), a board's when it is put in a case or beside a new part. Started from as known
    /// to 5 µT, the online calibration rejects the pairs that disagree with it (beyond 3σ) and
    /// relearns only slowly. Beyond 15 % of the strength (the filter takes 10 % for a passing
    /// disturbance; the Earth's field is the same wherever a board is used in one town, to a
    /// few per cent indoors) it is relearned as a new device's offset (1σ 300 µT), from the
    /// stored value. (`field`: the first magnetometer sample, µT, soft iron removed.)
    private mutating func checkStoredOffset(_ field: FusionVector<Q32_32>, strength: Q32_32) {
        let norm = filter.calibrated(field).squaredLength.squareRoot
        let limit = strength * Self.storedStrengthTolerance
        guard norm - strength > limit || strength - norm > limit else { return }
        filter.doubtMagnetometerOffset(uncertainty: AttitudeFilterSettings().magnetometerOffsetUncertainty)
    }

    /// 15 %, see `checkStoredOffset`.
    private static var storedStrengthTolerance: Q32_32 { Q32_32(numerator: 15, denominator: 100) }

    /// Takes one reading; returns the device motion when it was a gyroscope sample.
    public mutating func process(_ reading: SensorReading) -> DeviceMotion? {
        update(reading) ? motion : nil
    }

    /// Fuses one reading; whether it was a gyroscope sample that moved the attitude on (then
    /// `motion` and `attitude` are that sample's, until the next reading).
    public mutating func update(_ reading: SensorReading) -> Bool {
        switch reading.value {
        case .acceleration(let vector):
            let raw = Self.fusion(vector)
            accelerometer.hold(accelerometerCorrection?.apply(raw) ?? raw, at: reading.timestampNanoseconds)
            return false
        case .magneticField(let vector):
            magneticField = vector
            guard frame.usesMagnetometer else { return false }
            let dt = lastMagnetometerNanoseconds.map { Q32_32(nanoseconds: reading.timestampNanoseconds - $0) } ?? .zero
            lastMagnetometerNanoseconds = reading.timestampNanoseconds
            let raw = Self.fusion(vector)
            var field = raw
            if let softIron {  // (one test, `apply` inlined: `?.` and `??` copied it twice per sample)
                field = softIron.apply(raw)
                magneticField = Self.fixed(field)  // what `output` calibrates
            }
            if let strength = storedFieldStrength {
                storedFieldStrength = nil
                checkStoredOffset(field, strength: strength)
            }
            filter.update(magnetometer: field, dt: dt)
            if startHeading == nil, filter.hasHeading {
                let (sine, cosine) = Q32_32.sineCosine(filter.headingOffset.timesPowerOfTwo(-1))
                startHeading = (cosine, sine)
            }
            return false
        case .angularVelocity(let vector):
            let dt = lastGyroscopeNanoseconds.map { Q32_32(nanoseconds: reading.timestampNanoseconds - $0) } ?? .zero
            lastGyroscopeNanoseconds = reading.timestampNanoseconds
            let rate = Self.fusion(vector)
            // Fusion starts with the first accelerometer sample. An accelerometer silent for longer
            // than `accelerometerFreshness` gives no device motion, but the gyroscope is still
            // integrated (nothing before the first one), so the attitude is right when it comes
            // back.
            guard let accelerometer = accelerometer.value(at: reading.timestampNanoseconds) else {
                filter.update(gyroscope: rate, dt: dt)
                return false
            }
            filter.update(gyroscope: rate, accelerometer: accelerometer, dt: dt)
            (fusedNanoseconds, fusedRate, fusedAccelerometer) = (reading.timestampNanoseconds, rate, accelerometer)
            return true
        case .pressure, .temperature:
            return false
        }
    }

    /// The attitude in the frame at the last fused sample (Q2.30, w ≥ 0): `motion.attitude`
    /// alone, for consumers that need nothing else every sample.
    ///
    /// `mutating get` (it changes nothing) so that callers pass the estimator by address: a
    /// plain getter, called from another module on a variable, first copies the whole estimator
    /// (1.3 KB with the filter; a `memcpy` of 180 instructions, 10 % of a 9D sample).
    public var attitude: Quaternion { mutating get { Self.fixed(frameAttitude) } }

    /// The device motion at the last fused gyroscope sample (valid until the next reading:
    /// a magnetometer reading moves the heading and the field). `mutating get`: see `attitude`.
    public var motion: DeviceMotion {
        mutating get { output(at: fusedNanoseconds, rate: fusedRate, accelerometer: fusedAccelerometer) }
    }

    /// The attitude in `frame`: device axes → the frame.
    // Inlined: a call on the estimator would first copy it whole (1.3 KB with the filter).
    @inline(__always)
    private var frameAttitude: FusionQuaternion<Q32_32> {
        switch frame {
        case .xArbitraryZVertical:
            return filter.attitude6D
        case .xArbitraryCorrectedZVertical:
            guard let start = startHeading else { return filter.attitude6D }
            return FusionQuaternion.aboutZ(halfCosine: start.cosine, halfSine: -start.sine) * filter.attitude9D
        case .xMagneticNorthZVertical:
            return filter.attitude9D
        case .xTrueNorthZVertical:
            return declinationRotation * filter.attitude9D
        }
    }

    @inline(__always)  // (see `frameAttitude`)
    private func output(at time: Int64, rate: FusionVector<Q32_32>, accelerometer: FusionVector<Q32_32>) -> DeviceMotion {
        let inclined = filter.attitude6D
        let attitude = frameAttitude
        // Down in device axes: −(third row of the rotation matrix), the same in every frame.
        let q = inclined
        let two = Q32_32.one + Q32_32.one
        let gravity = FusionVector(x: -(two * (q.x * q.z - q.w * q.y)), y: -(two * (q.y * q.z + q.w * q.x)),
                                   z: -(Q32_32.one - two * (q.x * q.x + q.y * q.y)))
        let inverseG = Self.minusInverseStandardGravity
        let measured = accelerometer * inverseG
        let unbiased = rate - filter.bias
        // The calibrated field when the frame uses the magnetometer (the calibration learns
        // only then), else the raw one, uncalibrated.
        let field = frame.usesMagnetometer ? Self.fixed(filter.calibrated(Self.fusion(magneticField))) : magneticField
        let accuracy = frame.usesMagnetometer ? filter.magnetometerAccuracy : -1
        var heading = Self.noHeading
        if frame.isNorthReferenced {
            // The device's +y axis in the frame: (R12, R22); clockwise from north = atan2(east, north), east = −y.
            let north = two * (attitude.x * attitude.y - attitude.w * attitude.z)
            let west = Q32_32.one - two * (attitude.x * attitude.x + attitude.z * attitude.z)
            var degrees = Q32_32.arctangent2(y: -west, x: north) * Self.degreesPerRadian
            if degrees < .zero { degrees = degrees + Self.fullTurnDegrees }
            heading = degrees.q16_16
        }
        return DeviceMotion(timestampNanoseconds: time, attitude: Self.fixed(attitude), gravity: Self.fixed(gravity),
                            userAcceleration: Self.fixed(measured - gravity), rotationRate: Self.fixed(unbiased),
                            magneticField: field, magneticAccuracy: accuracy, heading: heading)
    }

    // Constants of the output as raw literals (a `static let` from a Double is reached through
    // a lazy initialiser's check on every sample): Q32_32(-1 / 9.80665), Q32_32(180 / π),
    // Q32_32(360), Q16_16(-1) (DeviceMotionConstantsTests checks them against those).
    static var minusInverseStandardGravity: Q32_32 { Q32_32(rawValue: -437_964_779) }
    static var degreesPerRadian: Q32_32 { Q32_32(rawValue: 246_083_499_208) }
    static var fullTurnDegrees: Q32_32 { Q32_32(rawValue: 1_546_188_226_560) }
    static var noHeading: Q16_16 { Q16_16(rawValue: -65_536) }

    static func fusion(_ vector: Vector3) -> FusionVector<Q32_32> {
        FusionVector(x: Q32_32(vector.x), y: Q32_32(vector.y), z: Q32_32(vector.z))
    }

    static func fixed(_ vector: FusionVector<Q32_32>) -> Vector3 {
        Vector3(x: vector.x.q16_16, y: vector.y.q16_16, z: vector.z.q16_16)
    }

    static func fixed(_ q: FusionQuaternion<Q32_32>) -> Quaternion {
        // w ≥ 0: one of the two quaternions of a rotation, as recordings and Core Motion give it.
        let q = q.w < .zero ? FusionQuaternion(w: -q.w, x: -q.x, y: -q.y, z: -q.z) : q
        return Quaternion(w: q.w.q2_30, x: q.x.q2_30, y: q.y.q2_30, z: q.z.q2_30)
    }
}
