/// A quaternion w + xi + yj + zk with Q2.30 components: attitudes, as unit quaternions that
/// rotate a vector from device axes into the reference frame (Core Motion's `CMQuaternion`).
@frozen
public struct Quaternion: Sendable, BitwiseCopyable, Hashable {
    public var w: Q2_30
    public var x: Q2_30
    public var y: Q2_30
    public var z: Q2_30

    @inlinable @inline(__always)
    public init(w: Q2_30, x: Q2_30, y: Q2_30, z: Q2_30) {
        self.w = w
        self.x = x
        self.y = y
        self.z = z
    }

    /// No rotation.
    public static let identity = Quaternion(w: .one, x: .zero, y: .zero, z: .zero)

    /// The conjugate w − xi − yj − zk: the inverse rotation of a unit quaternion.
    @inlinable
    public var conjugate: Quaternion { Quaternion(w: w, x: -x, y: -y, z: -z) }

    /// The Hamilton product `lhs ⊗ rhs` (apply rhs, then lhs), each component rounded once
    /// (to nearest even) from its exact sum of four products, saturating.
    ///
    /// Headroom: for components within [−1, 1] (unit quaternions and their rounding
    /// overshoot) each product is ≤ 2⁶⁰ and the sum of four ≤ 2⁶², exact in Int64. Beyond that
    /// the sum is computed with overflow detection and saturates.
    @inlinable
    public static func * (lhs: Quaternion, rhs: Quaternion) -> Quaternion {
        let (aw, ax, ay, az) = (Int64(lhs.w.rawValue), Int64(lhs.x.rawValue), Int64(lhs.y.rawValue), Int64(lhs.z.rawValue))
        let (bw, bx, by, bz) = (Int64(rhs.w.rawValue), Int64(rhs.x.rawValue), Int64(rhs.y.rawValue), Int64(rhs.z.rawValue))
        return Quaternion(
            w: Q2_30(rawValue: sumOfProductsQ30(aw * bw, -(ax * bx), -(ay * by), -(az * bz))),
            x: Q2_30(rawValue: sumOfProductsQ30(aw * bx, ax * bw, ay * bz, -(az * by))),
            y: Q2_30(rawValue: sumOfProductsQ30(aw * by, -(ax * bz), ay * bw, az * bx)),
            z: Q2_30(rawValue: sumOfProductsQ30(aw * bz, ax * by, -(ay * bx), az * bw)))
    }

    /// |q|² in Q60 (exact; < 2⁶⁴ for components within (−2, 2)).
    @inlinable
    public var squaredNormQ60: UInt64 {
        let components = (Int64(w.rawValue), Int64(x.rawValue), Int64(y.rawValue), Int64(z.rawValue))
        return UInt64(components.0 * components.0) &+ UInt64(components.1 * components.1)
            &+ UInt64(components.2 * components.2) &+ UInt64(components.3 * components.3)
    }

    /// q / |q|: the unit quaternion of the same rotation. Each component is c × 2³⁰ / n rounded,
    /// with n = √|q|²_Q60 correctly rounded (|q| in Q30, off by ≤ ½): the result is within
    /// ½ + ½/|q| LSB (2⁻³⁰) of the true value, ≤ 1 LSB when re-normalising a quaternion of
    /// length about 1, as the filters do. The zero quaternion (no rotation) gives the identity.
    @inlinable
    public var normalized: Quaternion {
        let squaredNorm = squaredNormQ60
        guard squaredNorm > 0 else { return .identity }
        let norm = squaredNorm.roundedSquareRoot  // |q| in Q30, ≥ 1
        // Scale each component: c × 2³⁰ / norm, rounded to nearest. |c| < 2³¹ so c × 2³⁰ < 2⁶¹.
        func scale(_ component: Q2_30) -> Q2_30 {
            let numerator = Int64(component.rawValue) << 30
            let half = Int64(norm / 2)
            let quotient = (numerator + (numerator >= 0 ? half : -half)) / Int64(norm)
            return Q2_30(rawValue: .saturating(quotient))
        }
        return Quaternion(w: scale(w), x: scale(x), y: scale(y), z: scale(z))
    }

    /// The rotation matrix of this unit quaternion (Q2.30 entries).
    @inlinable
    public var rotationMatrix: RotationMatrix { RotationMatrix(self) }

    /// `vector` rotated by this unit quaternion (from device axes into the reference frame).
    @inlinable
    public func rotate(_ vector: Vector3) -> Vector3 { rotationMatrix * vector }
}

/// (a + b + c + d) / 2³⁰ rounded to nearest even and saturated to Int32. Each term is a
/// product of two Int32 values (|term| ≤ 2⁶²), so the exact sum needs up to 65 bits: it is
/// formed in Int128 and, when it does not fit Int64, saturates by its sign (it is then far
/// beyond the Int32 range after the shift anyway).
@inlinable
func sumOfProductsQ30(_ a: Int64, _ b: Int64, _ c: Int64, _ d: Int64) -> Int32 {
    let total = Int128(a) + Int128(b) + Int128(c) + Int128(d)
    guard let narrow = Int64(exactly: total) else { return total > 0 ? .max : .min }
    return .saturating(narrow.shiftedRightRoundingToNearestEven(by: 30))
}
