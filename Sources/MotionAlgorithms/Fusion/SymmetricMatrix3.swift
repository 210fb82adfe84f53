/// A symmetric 3 × 3 matrix (a covariance) as its six distinct entries, stored scalars: no
/// array, no bounds checks, and the Kalman update writes each off-diagonal entry once.
/// Units are the user's (`MagnetometerCalibration`: µT²).
struct SymmetricMatrix3<Scalar: FusionScalar>: Sendable {
    var xx, xy, xz, yy, yz, zz: Scalar

    /// The diagonal matrix with `value` on the diagonal.
    @inline(__always)
    init(diagonal value: Scalar) {
        (xx, yy, zz) = (value, value, value)
        (xy, xz, yz) = (.zero, .zero, .zero)
    }

    /// The largest diagonal entry (the worst axis's variance).
    @inline(__always)
    var largestDiagonal: Scalar {
        var worst = xx
        if yy > worst { worst = yy }
        if zz > worst { worst = zz }
        return worst
    }

    @inline(__always)
    mutating func addToDiagonal(_ value: Scalar) {
        xx = xx + value
        yy = yy + value
        zz = zz + value
    }

    /// M hᵀ for the row vector h.
    func times(_ h: (Scalar, Scalar, Scalar)) -> (Scalar, Scalar, Scalar) {
        (xx * h.0 + xy * h.1 + xz * h.2, xy * h.0 + yy * h.1 + yz * h.2, xz * h.0 + yz * h.1 + zz * h.2)
    }

    /// h M hᵀ.
    func quadratic(_ h: (Scalar, Scalar, Scalar)) -> Scalar {
        let m = times(h)
        return m.0 * h.0 + m.1 * h.1 + m.2 * h.2
    }

    /// M ← M − a bᵀ, for a rank-one update that leaves M symmetric (a Kalman update: a = K,
    /// b = M hᵀ, a ∝ b): each distinct entry is computed once, from the upper triangle.
    mutating func subtractOuterProduct(_ a: (Scalar, Scalar, Scalar), _ b: (Scalar, Scalar, Scalar)) {
        xx = xx - a.0 * b.0
        xy = xy - a.0 * b.1
        xz = xz - a.0 * b.2
        yy = yy - a.1 * b.1
        yz = yz - a.1 * b.2
        zz = zz - a.2 * b.2
    }
}
