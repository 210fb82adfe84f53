/// A signed fixed-point number with 16 integer and 16 fraction bits: value = rawValue / 2¹⁶.
/// 1 LSB = 2⁻¹⁶ ≈ 1.53 × 10⁻⁵; range [−32768, 32768 − 2⁻¹⁶]. The pipeline's format for sensor
/// values: m/s² (1 LSB ≈ 1.6 µg), rad/s (1 LSB ≈ 0.00087 °/s), µT, °C.
@frozen
public struct Q16_16: Sendable, BitwiseCopyable, Hashable, Comparable {
    public static let fractionBits = 16
    public var rawValue: Int32

    @inlinable @inline(__always)
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The nearest Q16.16 value to `value` (ties to even); saturates beyond the range, NaN → 0.
    @inlinable
    public init(_ value: Double) { rawValue = fixedPointRawValue(value, fractionBits: 16) }

    /// An integer value, saturating beyond ±32767.
    @inlinable
    public init(integer: Int32) { rawValue = Int32.saturating(Int64(integer) << 16) }

    public static let zero = Q16_16(rawValue: 0)
    public static let one = Q16_16(rawValue: 1 << 16)
    public static let max = Q16_16(rawValue: .max)
    public static let min = Q16_16(rawValue: .min)

    /// The exact value as a Double (every Q16.16 value is representable).
    @inlinable
    public var doubleValue: Double { Double(rawValue) / 65536 }

    @inlinable
    public static func < (lhs: Q16_16, rhs: Q16_16) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `lhs × rhs` rounded to nearest, ties to even, saturating. The Int64 product of two
    /// Int32 raw values (< 2⁶² in magnitude) cannot overflow; only the narrowing can.
    @inlinable
    public static func * (lhs: Q16_16, rhs: Q16_16) -> Q16_16 {
        let product = Int64(lhs.rawValue) * Int64(rhs.rawValue)
        return Q16_16(rawValue: .saturating(product.shiftedRightRoundingToNearestEven(by: 16)))
    }

    /// `lhs + rhs` clamped to the representable range.
    @inlinable
    public static func + (lhs: Q16_16, rhs: Q16_16) -> Q16_16 {
        Q16_16(rawValue: .saturating(Int64(lhs.rawValue) + Int64(rhs.rawValue)))
    }

    /// `lhs − rhs` clamped to the representable range.
    @inlinable
    public static func - (lhs: Q16_16, rhs: Q16_16) -> Q16_16 {
        Q16_16(rawValue: .saturating(Int64(lhs.rawValue) - Int64(rhs.rawValue)))
    }

    /// −value, saturating: −(−32768) is 32768 − 2⁻¹⁶.
    @inlinable
    public static prefix func - (value: Q16_16) -> Q16_16 {
        Q16_16(rawValue: .saturating(-Int64(value.rawValue)))
    }
}
