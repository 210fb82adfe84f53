/// A signed fixed-point number with 2 integer and 30 fraction bits: value = rawValue / 2³⁰.
/// 1 LSB = 2⁻³⁰ ≈ 9.3 × 10⁻¹⁰; range [−2, 2). Holds unit quaternion components, rotation
/// matrix entries and sines/cosines: values in [−1, 1] with room for rounding overshoot.
@frozen
public struct Q2_30: Sendable, BitwiseCopyable, Hashable, Comparable {
    public static let fractionBits = 30
    public var rawValue: Int32

    @inlinable @inline(__always)
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The nearest Q2.30 value to `value` (ties to even); saturates beyond [−2, 2), NaN → 0.
    @inlinable
    public init(_ value: Double) { rawValue = fixedPointRawValue(value, fractionBits: 30) }

    public static let zero = Q2_30(rawValue: 0)
    public static let one = Q2_30(rawValue: 1 << 30)

    /// The exact value as a Double.
    @inlinable
    public var doubleValue: Double { Double(rawValue) / 1_073_741_824 }

    @inlinable
    public static func < (lhs: Q2_30, rhs: Q2_30) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `lhs × rhs` rounded to nearest, ties to even, saturating (only ±2 × ±2 can leave the
    /// range). The Int64 product (< 2⁶² in magnitude) is exact.
    @inlinable
    public static func * (lhs: Q2_30, rhs: Q2_30) -> Q2_30 {
        let product = Int64(lhs.rawValue) * Int64(rhs.rawValue)
        return Q2_30(rawValue: .saturating(product.shiftedRightRoundingToNearestEven(by: 30)))
    }

    /// `lhs + rhs` clamped to [−2, 2).
    @inlinable
    public static func + (lhs: Q2_30, rhs: Q2_30) -> Q2_30 {
        Q2_30(rawValue: .saturating(Int64(lhs.rawValue) + Int64(rhs.rawValue)))
    }

    /// `lhs − rhs` clamped to [−2, 2).
    @inlinable
    public static func - (lhs: Q2_30, rhs: Q2_30) -> Q2_30 {
        Q2_30(rawValue: .saturating(Int64(lhs.rawValue) - Int64(rhs.rawValue)))
    }

    /// −value, saturating (−(−2) is 2 − 2⁻³⁰).
    @inlinable
    public static prefix func - (value: Q2_30) -> Q2_30 {
        Q2_30(rawValue: .saturating(-Int64(value.rawValue)))
    }
}
