public import FixedPoint

/// Online hard-iron calibration of a magnetometer, aided by the 6D attitude.
///
/// A magnetometer on a board or in a phone reads the Earth's field B plus a constant offset c
/// from magnetised parts beside it (phones: hundreds of µT). In the attitude's reference frame
/// (rotation R from device axes, from gyroscope and accelerometer only) the Earth's field is
/// constant, so every sample m gives three linear equations in six unknowns:
///     R m = B + R c.
/// A Kalman filter with the constant state (c, B) solves them as samples come. Rotation makes
/// c observable: turning about the vertical reveals its horizontal components; its component
/// along an axis that never tilts is not (and then does not matter for the heading either).
/// The filter runs at most every `updateInterval`, which is plenty for a constant: the cost per
/// sensor sample stays small.
///
/// The uncertainty of c gives Core Motion's calibration accuracy: high below 1 µT (1σ, worst
/// axis), medium below 3 µT, low below 10 µT, uncalibrated above.
public struct MagnetometerCalibration<Scalar: FusionScalar>: Sendable {
    public typealias Vector = FusionVector<Scalar>

    /// The estimated offset c, µT, device axes.
    public private(set) var offset = Vector.zero
    /// The Earth's field in the attitude's frame, µT.
    public private(set) var earthField = Vector.zero
    /// Covariance of (c, B), µT², row-major 6 × 6 (symmetric).
    @usableFromInline var covariance: InlineArray<36, Scalar>
    private let measurementVariance: Scalar
    private let offsetDriftVariance: Scalar
    private let fieldDriftVariance: Scalar
    private let updateInterval: Scalar
    private var sinceUpdate = Scalar.zero
    @usableFromInline let thresholds: (high: Scalar, medium: Scalar, low: Scalar)
    /// 130 µT, squared: twice the strongest geomagnetic field (≈ 65 µT near the poles). An
    /// offset that large can only be the device's own iron (phones: 100…400 µT); a smaller one
    /// may as well be a magnet that came near, which the heading filter rejects as a
    /// disturbance instead (in BROAD's attached-magnet trials, applying a learned 58 µT offset
    /// made the heading worse than rejecting it).
    private static var significantOffsetSquared: Scalar { Scalar(Q32_32(integer: 16_900)) }
    /// Innovations beyond 3σ are disturbances.
    private static var outlierThresholdSquared: Scalar { Scalar(Q32_32(integer: 9)) }
    private var rejected = false
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
        var p = InlineArray<36, Scalar>(repeating: .zero)
        for i in 0..<3 { p[i * 6 + i] = Scalar(initialUncertainty * initialUncertainty) }
        for i in 3..<6 { p[i * 6 + i] = Scalar(Q32_32(integer: 100 * 100)) }  // the Earth's field is 25–65 µT
        covariance = p
        // Sensor noise and attitude error (2° of a 50 µT field: 1.7 µT), per axis, µT².
        measurementVariance = Scalar(Q32_32(integer: 4))
        // The offset drifts with temperature and new magnetised objects; B turns with the 6D
        // frame's heading drift. Per update, µT².
        offsetDriftVariance = Scalar(numerator: 1, denominator: 10_000)
        fieldDriftVariance = Scalar(numerator: 1, denominator: 100)
        updateInterval = Scalar(numerator: 1, denominator: 20)
        thresholds = (Scalar.one, Scalar(Q32_32(integer: 9)), Scalar(Q32_32(integer: 100)))  // variances for 1, 3, 10 µT
    }

    /// The offset to remove, µT: the estimate once it is known (accuracy low or better) and
    /// significant (at least 130 µT, see `Self.significantOffsetSquared`), else zero. A
    /// well-calibrated sensor's estimate hovers around zero by the estimator's own noise, a few
    /// tenths of a µT, which at a 15 µT horizontal field is a degree of heading: removing it
    /// would only add error.
    /// Once applied, the offset stays applied (no toggling at the threshold).
    // Inlined: called on the inout self of a mutating method, a call would first copy the whole
    // struct (Swift passes a large self by value: a kilobyte of stack on a Cortex-M0).
    @inlinable @inline(__always)
    public var appliedOffset: Vector { isApplied ? offset : .zero }
    public private(set) var isApplied = false

    /// The calibrated field, µT.
    @inlinable @inline(__always) public func calibrated(_ raw: Vector) -> Vector { raw - appliedOffset }

    /// 1σ of the offset's worst axis, µT (for people: set-up and diagnostics, not per sample).
    public var offsetUncertainty: Double {
        max(covariance[0].doubleValue, covariance[7].doubleValue, covariance[14].doubleValue).squareRoot()
    }

    /// Core Motion's accuracy: −1 uncalibrated, 0 low, 1 medium, 2 high.
    @inlinable @inline(__always)  // (see `appliedOffset`)
    public var accuracy: Int8 {
        var worst = covariance[0]
        if covariance[7] > worst { worst = covariance[7] }
        if covariance[14] > worst { worst = covariance[14] }
        return worst < thresholds.high ? 2 : worst < thresholds.medium ? 1 : worst < thresholds.low ? 0 : -1
    }

    /// One raw sample (µT, device axes) with the attitude `rotation` (device → reference frame,
    /// 6D), `dt` seconds after the previous sample.
    public mutating func update(raw: Vector, rotation: FusionQuaternion<Scalar>, dt: Scalar) {
        sinceUpdate = sinceUpdate + dt
        guard sinceUpdate >= updateInterval else { return }
        sinceUpdate = .zero
        for i in 0..<3 { covariance[i * 6 + i] = covariance[i * 6 + i] + offsetDriftVariance }
        for i in 3..<6 { covariance[i * 6 + i] = covariance[i * 6 + i] + fieldDriftVariance }
        rejected = false
        // The rows of R, and R m row by row.
        let rows = rotation.matrixRows
        observe(row: (rows.x.x, rows.x.y, rows.x.z), axis: 0, value: rows.x.dot(raw))
        observe(row: (rows.y.x, rows.y.y, rows.y.z), axis: 1, value: rows.y.dot(raw))
        observe(row: (rows.z.x, rows.z.y, rows.z.z), axis: 2, value: rows.z.dot(raw))
        // Rejected for long, the offset itself has probably changed (a magnetic case, a new
        // board mount): forget enough of it to learn it again.
        rejectedTime = rejected ? rejectedTime + updateInterval : .zero
        if rejectedTime >= Self.relearnTime {
            for i in 0..<3 { covariance[i * 6 + i] = covariance[i * 6 + i] + Self.relearnVariance }
            rejectedTime = .zero
        }
        if !isApplied, accuracy == 2, offset.squaredLength >= Self.significantOffsetSquared { isApplied = true }
    }

    /// One scalar equation value = R_i · c + B_i (H = [R_i, e_i]).
    private mutating func observe(row: (Scalar, Scalar, Scalar), axis: Int, value: Scalar) {
        var h = InlineArray<6, Scalar>(repeating: .zero)
        h[0] = row.0
        h[1] = row.1
        h[2] = row.2
        h[3 + axis] = .one
        // P Hᵀ and S = H P Hᵀ + r.
        var ph = InlineArray<6, Scalar>(repeating: .zero)
        for i in 0..<6 {
            ph[i] = covariance[i * 6] * h[0] + covariance[i * 6 + 1] * h[1] + covariance[i * 6 + 2] * h[2] + covariance[i * 6 + 3 + axis]
        }
        let s = ph[0] * h[0] + ph[1] * h[1] + ph[2] * h[2] + ph[3 + axis] + measurementVariance
        let inverseRoot = s.reciprocalSquareRoot
        let inverseS = inverseRoot * inverseRoot
        let predicted = row.0 * offset.x + row.1 * offset.y + row.2 * offset.z + field(axis)
        let innovation = value - predicted
        // A sample far outside what the estimate expects (beyond 3σ) is a disturbance — a magnet
        // nearby, steel in a wall — not information about the device's own offset: skipped.
        guard innovation * innovation * inverseS < Self.outlierThresholdSquared else {
            rejected = true
            return
        }
        var gain = InlineArray<6, Scalar>(repeating: .zero)
        for i in 0..<6 { gain[i] = ph[i] * inverseS }
        offset = Vector(x: offset.x + gain[0] * innovation, y: offset.y + gain[1] * innovation, z: offset.z + gain[2] * innovation)
        earthField = Vector(x: earthField.x + gain[3] * innovation, y: earthField.y + gain[4] * innovation,
                            z: earthField.z + gain[5] * innovation)
        // P ← P − K (P Hᵀ)ᵀ, kept symmetric.
        for i in 0..<6 {
            for j in i..<6 {
                let updated = covariance[i * 6 + j] - gain[i] * ph[j]
                covariance[i * 6 + j] = updated
                covariance[j * 6 + i] = updated
            }
        }
    }

    @inline(__always)  // (see `appliedOffset`)
    private func field(_ axis: Int) -> Scalar { axis == 0 ? earthField.x : axis == 1 ? earthField.y : earthField.z }
}
