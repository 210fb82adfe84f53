/// A 3-vector of a fusion scalar (sensor values in SI units, or unit directions).
///
/// Every operation here and in `FusionQuaternion` is `@inline(__always)`: they are a few
/// multiplications each, and the optimizer otherwise keeps many of them as calls that pass and
/// return the vectors through memory (measured: a third of the attitude filter's instructions).
public struct FusionVector<Scalar: FusionScalar>: Sendable, BitwiseCopyable {
    public var x: Scalar
    public var y: Scalar
    public var z: Scalar

    @inlinable @inline(__always)
    public init(x: Scalar, y: Scalar, z: Scalar) {
        self.x = x
        self.y = y
        self.z = z
    }

    @inlinable @inline(__always) public static var zero: FusionVector { FusionVector(x: .zero, y: .zero, z: .zero) }

    @inlinable @inline(__always) public static func + (a: FusionVector, b: FusionVector) -> FusionVector { FusionVector(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z) }
    @inlinable @inline(__always) public static func - (a: FusionVector, b: FusionVector) -> FusionVector { FusionVector(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z) }
    @inlinable @inline(__always) public static func * (a: FusionVector, k: Scalar) -> FusionVector { FusionVector(x: a.x * k, y: a.y * k, z: a.z * k) }
    @inlinable @inline(__always) public func dot(_ b: FusionVector) -> Scalar { x * b.x + y * b.y + z * b.z }
    @inlinable @inline(__always) public var squaredLength: Scalar { dot(self) }

    @inlinable @inline(__always)
    public func cross(_ b: FusionVector) -> FusionVector {
        FusionVector(x: y * b.z - z * b.y, y: z * b.x - x * b.z, z: x * b.y - y * b.x)
    }

    /// `self + (target − self) × k`: one step of a first-order low-pass filter.
    @inlinable @inline(__always)
    public func approaching(_ target: FusionVector, by k: Scalar) -> FusionVector { self + (target - self) * k }
}

/// A quaternion of a fusion scalar; unit quaternions rotate vectors (Hamilton convention,
/// q ⊗ v ⊗ q*: from the frame on the right to the frame on the left).
public struct FusionQuaternion<Scalar: FusionScalar>: Sendable, BitwiseCopyable {
    public var w: Scalar
    public var x: Scalar
    public var y: Scalar
    public var z: Scalar

    @inlinable @inline(__always)
    public init(w: Scalar, x: Scalar, y: Scalar, z: Scalar) {
        self.w = w
        self.x = x
        self.y = y
        self.z = z
    }

    @inlinable @inline(__always) public static var identity: FusionQuaternion { FusionQuaternion(w: .one, x: .zero, y: .zero, z: .zero) }
    @inlinable @inline(__always) public var conjugate: FusionQuaternion { FusionQuaternion(w: w, x: -x, y: -y, z: -z) }
    @inlinable @inline(__always) var vector: FusionVector<Scalar> { FusionVector(x: x, y: y, z: z) }

    /// Hamilton product.
    @inlinable @inline(__always)
    public static func * (a: FusionQuaternion, b: FusionQuaternion) -> FusionQuaternion {
        FusionQuaternion(w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
                         x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                         y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                         z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    /// This rotation turned about z first: (c, 0, 0, s) ⊗ self with c, s the cos and sin of
    /// half the angle (8 multiplications instead of the general product's 16).
    @inlinable @inline(__always)
    public func turnedAboutZ(halfCosine c: Scalar, halfSine s: Scalar) -> FusionQuaternion {
        FusionQuaternion(w: c * w - s * z, x: c * x - s * y, y: c * y + s * x, z: c * z + s * w)
    }

    /// A horizontal-axis rotation (w, x, y, 0) applied first: (w, x, y, 0) ⊗ self (12 multiplications).
    @inlinable @inline(__always)
    public func tilted(by a: FusionQuaternion) -> FusionQuaternion {
        FusionQuaternion(w: a.w * w - a.x * x - a.y * y,
                         x: a.w * x + a.x * w + a.y * z,
                         y: a.w * y - a.x * z + a.y * w,
                         z: a.w * z + a.x * y - a.y * x)
    }

    /// A rotation about z by `angle`, given cos and sin of half the angle.
    @inlinable @inline(__always)
    public static func aboutZ(halfCosine: Scalar, halfSine: Scalar) -> FusionQuaternion {
        FusionQuaternion(w: halfCosine, x: .zero, y: .zero, z: halfSine)
    }

    /// The vector rotated by this unit quaternion: v + 2w (u × v) + 2 u × (u × v), u the vector
    /// part (15 multiplications, no matrix).
    @inlinable @inline(__always)
    public func rotate(_ v: FusionVector<Scalar>) -> FusionVector<Scalar> {
        let u = vector
        let t = u.cross(v)
        let t2 = t + t
        return v + t2 * w + u.cross(t2)
    }

    /// The rows of this unit quaternion's rotation matrix (9 products): a matrix row dotted with a
    /// vector gives that component of the rotated vector, for 3 multiplications instead of 5.
    @inlinable
    public var matrixRows: (x: FusionVector<Scalar>, y: FusionVector<Scalar>, z: FusionVector<Scalar>) {
        let (xx, yy, zz) = (x * x, y * y, z * z)
        let (xy, xz, yz) = (x * y, x * z, y * z)
        let (wx, wy, wz) = (w * x, w * y, w * z)
        let one = Scalar.one
        return (FusionVector(x: one - (yy + zz) - (yy + zz), y: (xy - wz) + (xy - wz), z: (xz + wy) + (xz + wy)),
                FusionVector(x: (xy + wz) + (xy + wz), y: one - (xx + zz) - (xx + zz), z: (yz - wx) + (yz - wx)),
                FusionVector(x: (xz - wy) + (xz - wy), y: (yz + wx) + (yz + wx), z: one - (xx + yy) - (xx + yy)))
    }

    @inlinable @inline(__always) public var squaredNorm: Scalar { w * w + x * x + y * y + z * z }

    @inlinable @inline(__always)
    func scaled(by k: Scalar) -> FusionQuaternion { FusionQuaternion(w: w * k, x: x * k, y: y * k, z: z * k) }

    /// Normalised. A quaternion renormalised every step has |q|² = 1 + ε with tiny ε, where
    /// 1/√(1 + ε) ≈ 1 − ε/2 + 3ε²/8 is exact to ε³ (< 2 × 10⁻¹² for |ε| < 1.2 × 10⁻⁴): three
    /// multiplications instead of Newton's iteration, which larger ε still gets.
    @inlinable @inline(__always)
    public var normalized: FusionQuaternion {
        let n = squaredNorm
        let epsilon = n - .one
        let limit = Scalar.one.timesPowerOfTwo(-13)  // 1.2 × 10⁻⁴
        guard epsilon < limit, -epsilon < limit else { return scaled(by: n.reciprocalSquareRoot) }
        let epsilonSquared = epsilon * epsilon
        let factor = Scalar.one - epsilon.timesPowerOfTwo(-1) + (epsilonSquared + epsilonSquared + epsilonSquared).timesPowerOfTwo(-3)
        return scaled(by: factor)
    }
}
