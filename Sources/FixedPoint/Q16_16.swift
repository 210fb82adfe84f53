/// A signed fixed-point number with 16 integer and 16 fraction bits: value = rawValue / 2¹⁶.
/// 1 LSB = 2⁻¹⁶ ≈ 1.53 × 10⁻⁵; range [−32768, 32768 − 2⁻¹⁶]. The pipeline's format for sensor
/// values: m/s² (1 LSB ≈ 1.6 µg), rad/s (1 LSB ≈ 0.00087 °/s), µT, °C, and angles in radians.
/// Arithmetic, conversions and their rounding: ``FixedPointNumber``.
@frozen
public struct Q16_16: FixedPointNumber {
    public static var fractionBits: Int { 16 }
    public var rawValue: Int32

    @inlinable @inline(__always)
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// An integer value, saturating beyond ±32767.
    @inlinable
    public init(integer: Int32) { rawValue = Int32.saturating(Int64(integer) << 16) }

    public static let zero = Q16_16(rawValue: 0)
    public static let one = Q16_16(rawValue: 1 << 16)
    public static let max = Q16_16(rawValue: .max)
    public static let min = Q16_16(rawValue: .min)
}
