/// A signed fixed-point number with 24 integer and 8 fraction bits: value = rawValue / 2⁸.
/// 1 LSB = 1/256; range [−8 388 608, 8 388 608). Holds pressure in Pa: the BMP280 datasheet
/// (BST-BMP280-DS001, §3.11.3) returns pressure in this format ("24674867 represents
/// 24674867/256 = 96386.2 Pa"); 1 LSB ≈ 0.3 mm of altitude near sea level.
/// Arithmetic, conversions and their rounding: ``FixedPointNumber``.
@frozen
public struct Q24_8: FixedPointNumber {
    public static var fractionBits: Int { 8 }
    public var rawValue: Int32

    @inlinable @inline(__always)
    public init(rawValue: Int32) { self.rawValue = rawValue }
}
