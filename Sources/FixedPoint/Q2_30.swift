/// A signed fixed-point number with 2 integer and 30 fraction bits: value = rawValue / 2³⁰.
/// 1 LSB = 2⁻³⁰ ≈ 9.3 × 10⁻¹⁰; range [−2, 2). Holds unit quaternion components, rotation
/// matrix entries and sines/cosines: values in [−1, 1] with room for rounding overshoot.
/// Arithmetic, conversions and their rounding: ``FixedPointNumber``.
@frozen
public struct Q2_30: FixedPointNumber {
    public static var fractionBits: Int { 30 }
    public var rawValue: Int32

    @inlinable @inline(__always)
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let zero = Q2_30(rawValue: 0)
    public static let one = Q2_30(rawValue: 1 << 30)
}
