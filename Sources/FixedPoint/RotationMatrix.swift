/// A 3×3 rotation matrix with Q2.30 entries, row-major: `m[r][c]` is `rows.r.c`. Rotates a
/// vector from device axes into the reference frame (Core Motion's `CMRotationMatrix`).
@frozen
public struct RotationMatrix: Sendable, BitwiseCopyable, Hashable {
    public var m11, m12, m13: Q2_30
    public var m21, m22, m23: Q2_30
    public var m31, m32, m33: Q2_30

    public static let identity = RotationMatrix(Quaternion.identity)

    /// The matrix of a unit quaternion (the standard formula, e.g. Kuipers, "Quaternions and
    /// Rotation Sequences", eq. 7.7): entries like 1 − 2(y² + z²) and 2(xy − wz). Each entry
    /// is formed from exact Int64 products and rounded once.
    @inlinable
    public init(_ q: Quaternion) {
        let w = Int64(q.w.rawValue), x = Int64(q.x.rawValue), y = Int64(q.y.rawValue), z = Int64(q.z.rawValue)
        let one: Int64 = 1 << 60  // 1 in Q60
        // Entry = (Q60 exact value) / 2³⁰ rounded. For |components| ≤ 1, 2(a b + c d) ≤ 2⁶²: exact.
        func entry(_ q60: Int64) -> Q2_30 { Q2_30(rawValue: .saturating(q60.shiftedRightRoundingToNearestEven(by: 30))) }
        m11 = entry(one - 2 * (y * y + z * z)); m12 = entry(2 * (x * y - w * z)); m13 = entry(2 * (x * z + w * y))
        m21 = entry(2 * (x * y + w * z)); m22 = entry(one - 2 * (x * x + z * z)); m23 = entry(2 * (y * z - w * x))
        m31 = entry(2 * (x * z - w * y)); m32 = entry(2 * (y * z + w * x)); m33 = entry(one - 2 * (x * x + y * y))
    }

    /// M · v: each component Σ m × v is exact in Int64 (Q30 × Q16 = Q46; a rotation's entries
    /// are within ±1 plus rounding, so each term is ≤ about 2⁶¹ and three stay below 2⁶³),
    /// rounded once to Q16.16.
    @inlinable
    public static func * (matrix: RotationMatrix, vector: Vector3) -> Vector3 {
        let vx = Int64(vector.x.rawValue), vy = Int64(vector.y.rawValue), vz = Int64(vector.z.rawValue)
        func row(_ a: Q2_30, _ b: Q2_30, _ c: Q2_30) -> Q16_16 {
            let sum = Int64(a.rawValue) * vx + Int64(b.rawValue) * vy + Int64(c.rawValue) * vz
            return Q16_16(rawValue: .saturating(sum.shiftedRightRoundingToNearestEven(by: 30)))
        }
        return Vector3(x: row(matrix.m11, matrix.m12, matrix.m13),
                       y: row(matrix.m21, matrix.m22, matrix.m23),
                       z: row(matrix.m31, matrix.m32, matrix.m33))
    }
}
