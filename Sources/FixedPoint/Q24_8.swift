/// A signed fixed-point number with 24 integer and 8 fraction bits: value = rawValue / 2⁸.
/// 1 LSB = 1/256; range [−8 388 608, 8 388 608). Holds pressure in Pa: the BMP280 datasheet
/// (BST-BMP280-DS001, §3.11.3) returns pressure in this format ("24674867 represents
/// 24674867/256 = 96386.2 Pa"); 1 LSB ≈ 0.3 mm of altitude near sea level.
@frozen
public struct Q24_8: Sendable, BitwiseCopyable, Hashable, Comparable {
    public static let fractionBits = 8
    public var rawValue: Int32

    @inlinable @inline(__always)
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The nearest Q24.8 value to `value` (ties to even); saturates beyond the range, NaN → 0.
    @inlinable
    public init(_ value: Double) { rawValue = fixedPointRawValue(value, fractionBits: 8) }

    /// The exact value as a Double.
    @inlinable
    public var doubleValue: Double { Double(rawValue) / 256 }

    @inlinable
    public static func < (lhs: Q24_8, rhs: Q24_8) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `lhs + rhs` clamped to the representable range.
    @inlinable
    public static func + (lhs: Q24_8, rhs: Q24_8) -> Q24_8 {
        Q24_8(rawValue: .saturating(Int64(lhs.rawValue) + Int64(rhs.rawValue)))
    }

    /// `lhs − rhs` clamped to the representable range.
    @inlinable
    public static func - (lhs: Q24_8, rhs: Q24_8) -> Q24_8 {
        Q24_8(rawValue: .saturating(Int64(lhs.rawValue) - Int64(rhs.rawValue)))
    }
}
