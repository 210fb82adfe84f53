public import FixedPoint

/// The arithmetic the attitude filter needs. One algorithm, two number types: `Q32_32` on the
/// device (integer only, deterministic, no FPU needed), `Double` as the reference it is checked
/// against in the tests, so the comparison measures quantisation and nothing else.
public protocol FusionScalar: Sendable, BitwiseCopyable, Comparable {
    static var zero: Self { get }
    static var one: Self { get }
    /// A constant or setting, exact in Q32.32 (set-up only, never per sample): the Double
    /// reference takes the very same number, so the two differ only in their arithmetic.
    init(_ value: Q32_32)
    /// A sensor value in Q16.16 (m/s², rad/s, µT).
    init(_ value: Q16_16)
    /// A time step in seconds from nanoseconds.
    init(nanoseconds: Int64)
    var doubleValue: Double { get }
    static func + (lhs: Self, rhs: Self) -> Self
    static func - (lhs: Self, rhs: Self) -> Self
    static prefix func - (value: Self) -> Self
    static func * (lhs: Self, rhs: Self) -> Self
    /// × 2ⁿ (exact, or rounded for negative n in fixed point): constants on the per-sample path
    /// without a conversion from Double.
    func timesPowerOfTwo(_ exponent: Int) -> Self
    /// 1/√x for x > 0.
    var reciprocalSquareRoot: Self { get }
    /// atan2(y, x) in radians, (−π, π].
    static func arctangent2(y: Self, x: Self) -> Self
    static func sineCosine(_ angle: Self) -> (sine: Self, cosine: Self)
}

extension FusionScalar {
    /// numerator / denominator as a constant, rounded as `Q32_32(numerator:denominator:)` does.
    @inlinable
    init(numerator: Int64, denominator: Int64) { self.init(Q32_32(numerator: numerator, denominator: denominator)) }
}

extension Q32_32: FusionScalar {
    @inlinable
    public init(_ value: Q32_32) { self = value }

    @inlinable
    public init(nanoseconds: Int64) {
        // ns × 2³² / 10⁹, rounded: exact for any step below 2 s (ns < 2³¹ keeps ns << 32 in range).
        let clamped = min(max(nanoseconds, 0), 2_000_000_000)
        self.init(rawValue: ((clamped << 32) + 500_000_000) / 1_000_000_000)
    }
}
