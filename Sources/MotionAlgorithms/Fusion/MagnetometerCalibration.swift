public import FixedPoint

/// Online hard-iron calibration of a magnetometer, from the gyroscope's rotation.
///
/// A magnetometer on a board or in a phone reads the Earth's field B plus a constant offset c
/// from magnetised parts beside it (phones: hundreds of µT). Between two samples a fraction of
/// a second apart the Earth's field is the same in the reference frame, and the 6D attitude's
/// rotations R₁, R₂ (device → reference, gyroscope-integrated) are right relative to each
/// other even when their common heading drifts by degrees per second (a phone's vertical
/// gyroscope bias: the iPhone 5 in phone_attitude drifts 5 °/s). So
///     R₂ (m₂ − c) = R₁ (m₁ − c),  i.e.  (R₂ − R₁) c = R₂ m₂ − R₁ m₁:
/// three linear equations in c alone, whatever the field and the heading are. A Kalman filter
/// with the constant state c solves them as pairs come. Rotation makes c observable: turning
/// about an axis reveals c's components across it; its component along an axis that never
/// tilts is not observable (and then does not matter for the heading either).
///
/// (An earlier version estimated c together with B in the reference frame; with the heading
/// drifting 5 °/s, B itself turns 3.5 µT/s there and the fit needed 10–60 s, or never
/// converged, on the phones.)
///
/// The filter looks at the magnetometer every `updateInterval` and takes a pair once the device
/// has turned by 15° since the first sample of the pair, or half a second has passed:
/// wide pairs carry more information per equation, short ones less heading drift.
///
/// The uncertainty of c gives Core Motion's calibration accuracy: high below 1 µT (1σ, worst
/// axis), medium below 3 µT, low below 10 µT, uncalibrated above.
public struct MagnetometerCalibration<Scalar: FusionScalar>: Sendable {
    public typealias Vector = FusionVector<Scalar>
    public typealias Rotation = FusionQuaternion<Scalar>

    /// The estimated offset c, µT, device axes.
    public private(set) var offset = Vector.zero
    /// Covariance of c, µT².
    private var covariance: SymmetricMatrix3<Scalar>
    /// The first sample of the pair being formed: raw field (µT), 6D attitude, and the time
    /// since it was taken (s).
    private var pairRaw = Vector.zero
    private var pairRotation = Rotation.identity
    private var pairAge = Scalar.zero
    private var hasPairStart = false
    private let updateInterval: Scalar
    private var sinceUpdate = Scalar.zero
    /// The offset's variances (µT², worst axis) below which the accuracy is high, medium, low:
    /// 1σ of 1, 3 and 10 µT.
    private static var accuracyThresholds: (high: Scalar, medium: Scalar, low: Scalar) {
        (Scalar.one, Scalar(Q32_32(integer: 9)), Scalar(Q32_32(integer: 100)))
    }
    /// Variance per equation, µT²: both samples' noise (2 × (1 µT)²: phones' and boards'
    /// magnetometers read 0.3–1 µT rms; the gyroscope's relative rotation over a short pair adds
    /// far less), …
    private static var pairVariance: Scalar { Scalar(Q32_32(integer: 2)) }
    /// … plus the heading drift over the pair, which grows with its length: 5 °/s over t
    /// seconds turns a 40 µT field by 3.5 t µT, so (32 t²) µT² (5.7 µT at t = 1 s).
    private static var pairDriftVariance: Scalar { Scalar(Q32_32(integer: 32)) }
    /// A pair is taken once the device has turned by 15° since its first sample (cos 7.5°, the
    /// quaternions' dot product, round(cos(7.5°) × 2³²)) …
    private static var pairCosineHalfAngle: Scalar { Scalar(Q32_32(rawValue: 4_258_223_255)) }
    /// … or after half a second.
    private static var pairTime: Scalar { Scalar(numerator: 1, denominator: 2) }
    /// The offset drifts with temperature and new magnetised objects: its variance grows by
    /// 1/500 µT² per second.
    private static var offsetDriftRate: Scalar { Scalar(numerator: 1, denominator: 500) }
    /// 130 µT, squared: twice the strongest geomagnetic field (≈ 65 µT near the poles). An
    /// offset that large can only be the device's own iron (phones: 100…600 µT); a smaller one
    /// may as well be a magnet that came near, which the heading filter rejects as a
    /// disturbance instead (in BROAD's attached-magnet trials, applying a learned 58 µT offset
    /// made the heading worse than rejecting it).
    private static var significantOffsetSquared: Scalar { Scalar(Q32_32(integer: 16_900)) }
    /// The offset is applied once its two horizontal components (reference frame, the ones the
    /// heading depends on) are known to 400 µT² together (14 µT each, 1σ): against the
    /// 130 µT or more it removes, that is a heading the magnetometer's correction refines as
    /// the estimate improves (the heading's reference is taken again whenever the applied
    /// offset moves by 5 µT), within seconds of motion, where waiting for all three axes to
    /// 1 µT took 10–60 s on the phones, and never came for a phone held flat.
    private static var applicableHorizontalVariance: Scalar { Scalar(Q32_32(integer: 400)) }
    /// … and only if the field it leaves could be the Earth's: 20 to 70 µT (the geomagnetic
    /// field's strength is 22–67 µT everywhere), squared. While the estimate is still uncertain
    /// the outlier test cannot tell a magnet passing by from rotation; such a pair can throw the
    /// estimate hundreds of µT off (BROAD's stationary-magnet trial B: 330 µT for a sensor
    /// with none), and applying it would leave a field of hundreds of µT.
    private static var earthFieldSquared: (least: Scalar, most: Scalar) { (Scalar(Q32_32(integer: 400)), Scalar(Q32_32(integer: 4_900))) }
    /// Innovations beyond 3σ are disturbances.
    private static var outlierThresholdSquared: Scalar { Scalar(Q32_32(integer: 9)) }
    private var rejectedTime = Scalar.zero
    /// After 60 s of rejected samples, the offset's variance grows by (100 µT)².
    private static var relearnTime: Scalar { Scalar(Q32_32(integer: 60)) }
    private static var relearnVariance: Scalar { Scalar(Q32_32(integer: 10_000)) }

    /// - Parameters:
    ///   - initialOffset: a stored calibration (µT), or zero.
    ///   - initialUncertainty: 1σ of the initial offset, µT (300 µT: a phone's worst).
    public init(initialOffset: Vector = .zero, initialUncertainty: Q32_32 = Q32_32(integer: 300)) {
        offset = initialOffset
        isApplied = initialOffset.squaredLength > .zero
        let p = SymmetricMatrix3(diagonal: Scalar(initialUncertainty * initialUncertainty))
        covariance = p
        accuracy = Self.accuracy(of: p)
        updateInterval = Scalar(numerator: 1, denominator: 20)
    }

    /// The offset to remove, µT: the estimate once its horizontal part is known, it is
    /// significant (at least 130 µT, see `Self.significantOffsetSquared`) and what it leaves is
    /// Earth-like (`Self.earthFieldSquared`), else zero. A
    /// well-calibrated sensor's estimate hovers around zero by the estimator's own noise, a few
    /// tenths of a µT, which at a 15 µT horizontal field is a degree of heading: removing it
    /// would only add error.
    /// Once applied, the offset stays applied (no toggling at the threshold).
    // Inlined: called on the inout self of a mutating method, a call would first copy the whole
    // struct (Swift passes a large self by value: a kilobyte of stack on a Cortex-M0).
    @inline(__always)
    public var appliedOffset: Vector { isApplied ? offset : .zero }
    public private(set) var isApplied = false
    /// Whether the calibrated field (`calibrated`) is the Earth's field plus at most a few µT
    /// horizontally: the offset is applied, or it is small and known well enough to say that
    /// leaving it is right. Until then the heading must not learn from the field.
    public private(set) var isHorizontallyKnown = false

    /// Forgets how well the offset is known: its 1σ becomes `uncertainty` (µT) on every axis,
    /// the estimate stays as the starting point (a stored offset that no longer gives the
    /// Earth's field back: relearned from the rotation to come, as a new device's).
    public mutating func doubt(uncertainty: Q32_32) {
        covariance = SymmetricMatrix3(diagonal: Scalar(uncertainty * uncertainty))
        accuracy = Self.accuracy(of: covariance)
    }

    /// The calibrated field, µT.
    public func calibrated(_ raw: Vector) -> Vector { raw - appliedOffset }

    /// 1σ of the offset's worst axis, µT (for people: set-up and diagnostics, not per sample).
    public var offsetUncertainty: Double {
        covariance.largestDiagonal.doubleValue.squareRoot()
    }

    /// Core Motion's accuracy: −1 uncalibrated, 0 low, 1 medium, 2 high. Stored, and computed
    /// again only when the covariance changes (a pair, every half second at most): read every
    /// sample from other modules, a computed property was a call into the unspecialised generic
    /// getter (470 instructions per sample, a third of the 9D filter's own cost).
    public private(set) var accuracy: Int8

    /// The accuracy the covariance `p` gives (see `accuracy`).
    private static func accuracy(of p: SymmetricMatrix3<Scalar>) -> Int8 {
        let worst = p.largestDiagonal
        let thresholds = accuracyThresholds
        return worst < thresholds.high ? 2 : worst < thresholds.medium ? 1 : worst < thresholds.low ? 0 : -1
    }

    /// One raw sample (µT, device axes) with the attitude `rotation` (device → reference frame,
    /// 6D), `dt` seconds after the previous sample.
    public mutating func update(raw: Vector, rotation: Rotation, dt: Scalar) {
        sinceUpdate = sinceUpdate + dt
        guard sinceUpdate >= updateInterval else { return }
        pairAge = pairAge + sinceUpdate
        sinceUpdate = .zero
        guard hasPairStart else {
            startPair(raw, rotation)
            return
        }
        let d = pairRotation.w * rotation.w + pairRotation.x * rotation.x + pairRotation.y * rotation.y + pairRotation.z * rotation.z
        let turned = !(d > Self.pairCosineHalfAngle || -d > Self.pairCosineHalfAngle)  // |q₁·q₂| = cos(angle/2)
        guard turned || pairAge >= Self.pairTime else { return }
        let age = pairAge
        covariance.addToDiagonal(Self.offsetDriftRate * age)
        // Rows of R₂ − R₁ and R₂ m₂ − R₁ m₁.
        let now = Self.rows(rotation), then = Self.rows(pairRotation)
        let difference = (now.x - then.x, now.y - then.y, now.z - then.z)
        let value = rotation.rotate(raw) - pairRotation.rotate(pairRaw)
        let variance = Self.pairVariance + Self.pairDriftVariance * age * age
        var rejected = observe(row: difference.0, value: value.x, variance: variance)
        rejected = observe(row: difference.1, value: value.y, variance: variance) || rejected
        rejected = observe(row: difference.2, value: value.z, variance: variance) || rejected
        startPair(raw, rotation)
        // Rejected for long, the offset itself has probably changed (a magnetic case, a new
        // board mount): forget enough of it to learn it again.
        rejectedTime = rejected ? rejectedTime + age : .zero
        if rejectedTime >= Self.relearnTime {
            covariance.addToDiagonal(Self.relearnVariance)
            rejectedTime = .zero
        }
        accuracy = Self.accuracy(of: covariance)
        // The variance of c's two horizontal components in the reference frame: rᵢ P rᵢᵀ for
        // the rows x and y of R.
        let horizontal = quadratic(now.x) + quadratic(now.y)
        let known = horizontal < Self.applicableHorizontalVariance
        let significant = offset.squaredLength >= Self.significantOffsetSquared
        let left = (raw - offset).squaredLength
        let earthLike = !(left < Self.earthFieldSquared.least) && !(left > Self.earthFieldSquared.most)
        if !isApplied, known, significant, earthLike { isApplied = true }
        isHorizontallyKnown = isApplied || (known && !significant)
    }

    private mutating func startPair(_ raw: Vector, _ rotation: Rotation) {
        pairRaw = raw
        pairRotation = rotation
        pairAge = .zero
        hasPairStart = true
    }

    /// The rows of the rotation's matrix. (Static: no copy of self to avoid, and called at most
    /// 20 times a second, so not inlined: the Cortex-M0 firmware's flash is short.)
    @inline(never)
    private static func rows(_ rotation: Rotation) -> (x: Vector, y: Vector, z: Vector) { rotation.matrixRows }

    /// h P hᵀ, µT².
    @inline(__always)  // (see `appliedOffset`)
    private func quadratic(_ h: Vector) -> Scalar { covariance.quadratic((h.x, h.y, h.z)) }

    /// One scalar equation value = h · c with variance `variance` (µT²); whether it was
    /// rejected as a disturbance.
    private mutating func observe(row: Vector, value: Scalar, variance: Scalar) -> Bool {
        let h = (row.x, row.y, row.z)
        // P hᵀ and S = h P hᵀ + r.
        let ph = covariance.times(h)
        let s = ph.0 * h.0 + ph.1 * h.1 + ph.2 * h.2 + variance
        let inverseRoot = s.reciprocalSquareRoot
        let inverseS = inverseRoot * inverseRoot
        let innovation = value - (h.0 * offset.x + h.1 * offset.y + h.2 * offset.z)
        // A pair far outside what the estimate expects (beyond 3σ) is a disturbance — a magnet
        // nearby, steel in a wall — not information about the device's own offset: skipped.
        guard innovation * innovation * inverseS < Self.outlierThresholdSquared else { return true }
        let gain = (ph.0 * inverseS, ph.1 * inverseS, ph.2 * inverseS)
        offset = Vector(x: offset.x + gain.0 * innovation, y: offset.y + gain.1 * innovation, z: offset.z + gain.2 * innovation)
        // P ← P − K (P hᵀ)ᵀ (symmetric: K is P hᵀ / S).
        covariance.subtractOuterProduct(gain, ph)
        return false
    }
}
