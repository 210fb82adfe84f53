/// A 3-vector of Q16.16 components: a sensor value in device axes (m/s², rad/s, µT).
@frozen
public struct Vector3: Sendable, BitwiseCopyable, Hashable {
    public var x: Q16_16
    public var y: Q16_16
    public var z: Q16_16

    @inlinable @inline(__always)
    public init(x: Q16_16, y: Q16_16, z: Q16_16) {
        self.x = x
        self.y = y
        self.z = z
    }

    public static let zero = Vector3(x: .zero, y: .zero, z: .zero)

    /// x² + y² + z² in raw units squared (Q32.32): each square ≤ 2⁶²,
    /// and three of them < 3 × 2⁶² < 2⁶⁴, so the sum is exact in UInt64.
    @inlinable
    public var squaredLengthRaw: UInt64 {
        let x = Int64(self.x.rawValue), y = Int64(self.y.rawValue), z = Int64(self.z.rawValue)
        return UInt64(x * x) + UInt64(y * y) + UInt64(z * z)
    }

    /// |v| = √(x² + y² + z²), rounded to the nearest LSB (exact rounding; saturates at the
    /// Q16.16 maximum for vectors longer than 32768, which only saturated inputs reach).
    @inlinable
    public var length: Q16_16 {
        // √(Σ raw²) is |v| in raw units: Q16.16 squared is Q32.32, its root Q16.16 again.
        Q16_16(rawValue: .saturating(Int64(squaredLengthRaw.roundedSquareRoot)))
    }

    @inlinable
    public static func + (lhs: Vector3, rhs: Vector3) -> Vector3 {
        Vector3(x: lhs.x + rhs.x, y: lhs.y + rhs.y, z: lhs.z + rhs.z)
    }

    @inlinable
    public static func - (lhs: Vector3, rhs: Vector3) -> Vector3 {
        Vector3(x: lhs.x - rhs.x, y: lhs.y - rhs.y, z: lhs.z - rhs.z)
    }

    /// The vector scaled by `factor`, each component rounded to nearest even and saturating.
    @inlinable
    public func scaled(by factor: Q16_16) -> Vector3 {
        Vector3(x: x * factor, y: y * factor, z: z * factor)
    }
}
