/// What the Q formats share: an Int32 raw value scaled by 2^−fractionBits, with conversions,
/// comparison and arithmetic whose rounding and saturation are the same for every format.
/// (A protocol with static dispatch only: `@inlinable` generic code specialises per format,
/// and nothing here needs an existential, so it stays in the Embedded Swift subset.)
public protocol FixedPointNumber: Sendable, BitwiseCopyable, Hashable, Comparable {
    /// Bits after the binary point: value = rawValue / 2^fractionBits.
    static var fractionBits: Int { get }
    var rawValue: Int32 { get set }
    init(rawValue: Int32)
}

extension FixedPointNumber {
    /// The nearest value to `value` (ties to even); saturates beyond the range, NaN → 0.
    @inlinable
    public init(_ value: Double) {
        self.init(rawValue: fixedPointRawValue(value, fractionBits: Self.fractionBits))
    }

    /// The exact value as a Double (every Int32 raw value is representable).
    @inlinable
    public var doubleValue: Double {
        Double(rawValue) * Double(sign: .plus, exponent: -Self.fractionBits, significand: 1)
    }

    @inlinable
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `lhs × rhs` rounded to nearest, ties to even, saturating. The Int64 product of two Int32
    /// raw values (|p| ≤ 2⁶²) is exact; only the narrowing can leave the range.
    @inlinable
    public static func * (lhs: Self, rhs: Self) -> Self {
        let product = Int64(lhs.rawValue) * Int64(rhs.rawValue)
        return Self(rawValue: .saturating(product.shiftedRightRoundingToNearestEven(by: Int64(Self.fractionBits))))
    }

    /// `lhs + rhs` clamped to the representable range.
    @inlinable
    public static func + (lhs: Self, rhs: Self) -> Self {
        Self(rawValue: .saturating(Int64(lhs.rawValue) + Int64(rhs.rawValue)))
    }

    /// `lhs − rhs` clamped to the representable range.
    @inlinable
    public static func - (lhs: Self, rhs: Self) -> Self {
        Self(rawValue: .saturating(Int64(lhs.rawValue) - Int64(rhs.rawValue)))
    }

    /// −value, saturating: the negation of the minimum is the maximum.
    @inlinable
    public static prefix func - (value: Self) -> Self {
        Self(rawValue: .saturating(-Int64(value.rawValue)))
    }
}
