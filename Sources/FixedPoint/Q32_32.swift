/// A 64-bit fixed-point number with 32 fraction bits (value = rawValue / 2³²): range ±2³¹,
/// resolution 2.3 × 10⁻¹⁰. For filter states and coefficients that the 32-bit formats cannot
/// hold: a low-pass filter with a 3 s time constant at 286 Hz moves its state by 0.1 % of the
/// input's difference per sample, far below one Q16.16 step for small differences, so a
/// 32-bit state would stall short of its input (a bias, not noise).
///
/// Products go through an exact 128-bit intermediate and round half up (add 2³¹, shift): a tie
/// is a 1-in-2³² event, so the bias is negligible. Sums wrap like Int64: callers keep values
/// far inside ±2³¹ (sensor values in SI units, unit quaternions, angles).
public struct Q32_32: Sendable, BitwiseCopyable, Hashable, Comparable {
    public static let fractionBits = 32
    public var rawValue: Int64

    @inlinable public init(rawValue: Int64) { self.rawValue = rawValue }

    // Constants as inlinable computed properties, not stored `static let`s: a global is reached
    // through its lazy-initialisation accessor from other modules (a call per use on the
    // filters' per-sample path), a literal folds into the instruction.
    @inlinable public static var zero: Q32_32 { Q32_32(rawValue: 0) }
    @inlinable public static var one: Q32_32 { Q32_32(rawValue: 1 << 32) }
    /// π, rounded: round(π × 2³²) (the same as `Q32_32(Double.pi)`; Q32_32Tests).
    @inlinable public static var pi: Q32_32 { Q32_32(rawValue: 13_493_037_705) }
    /// √2, rounded: round(√2 × 2³²) (the same as `Q32_32(2.0.squareRoot())`).
    @inlinable public static var squareRootOfTwo: Q32_32 { Q32_32(rawValue: 6_074_001_000) }

    /// An integer value (exact).
    @inlinable public init(integer: Int32) { rawValue = Int64(integer) << 32 }

    /// The nearest value to `value` (for constants and set-up, not the per-sample path).
    @inlinable
    public init(_ value: Double) {
        let scaled = (value * 4_294_967_296).rounded()
        rawValue = scaled.isNaN ? 0 : scaled >= 9.2e18 ? .max : scaled <= -9.2e18 ? .min : Int64(scaled)
    }

    /// numerator / denominator, rounded to nearest (ties away from zero, as `init(_: Double)`
    /// rounds), in integer arithmetic only: constants and settings without floating point (a
    /// Cortex-M0 has no FPU, and its soft double costs 8 KB of flash). |numerator| < 2³¹ (so
    /// that numerator × 2³² fits Int64) and denominator > 0.
    ///
    /// The same value as `Q32_32(Double(numerator) / Double(denominator))` at least whenever
    /// |quotient| < 2²⁰ / denominator: the exact quotient is then at least 1/(2³³ d) from a
    /// rounding midpoint of 2⁻³² (never on one for d < 2³³), farther than the double's error
    /// of at most |quotient| × 2⁻⁵³ (Q32_32Tests). Beyond, almost always too: make_recording.py
    /// checks every reading the firmware replays.
    @inlinable
    public init(numerator: Int64, denominator: Int64) {
        let scaled = numerator << 32
        let half = denominator / 2
        rawValue = (scaled + (scaled >= 0 ? half : -half)) / denominator
    }

    /// 1/x rounded to nearest (ties up), exact: 2⁶⁴ / raw in integer arithmetic. For x > 0; x
    /// at or below 2⁻³¹ (whose reciprocal does not fit) and x ≤ 0 give `max` (set-up only:
    /// reciprocals of time constants).
    @inlinable
    public var reciprocal: Q32_32 {
        guard rawValue > 2 else { return Q32_32(rawValue: .max) }
        // 2⁶⁴ / d = 2 × (2⁶³ / d): quotient and remainder of 2⁶³, then one more bit.
        let d = UInt64(rawValue)
        let half = UInt64(1) << 63
        let doubledRemainder = half % d * 2  // < 2d < 2⁶⁴
        let quotient = half / d * 2 + doubledRemainder / d
        let remainder = doubledRemainder % d
        return Q32_32(rawValue: Int64(quotient + (remainder >= d - remainder ? 1 : 0)))
    }

    /// Exact conversions from the 32-bit formats.
    @inlinable public init(_ value: Q16_16) { rawValue = Int64(value.rawValue) << 16 }
    @inlinable public init(_ value: Q2_30) { rawValue = Int64(value.rawValue) << 2 }
    @inlinable public init(_ value: Q24_8) { rawValue = Int64(value.rawValue) << 24 }

    /// Nearest Q16.16 / Q2.30, saturating.
    @inlinable public var q16_16: Q16_16 { Q16_16(rawValue: .saturating(rawValue.shiftedRightRoundingToNearestEven(by: 16))) }
    @inlinable public var q2_30: Q2_30 { Q2_30(rawValue: .saturating(rawValue.shiftedRightRoundingToNearestEven(by: 2))) }

    @inlinable
    public var doubleValue: Double { Double(rawValue) * 0x1p-32 }

    @inlinable public static func < (lhs: Q32_32, rhs: Q32_32) -> Bool { lhs.rawValue < rhs.rawValue }
    @inlinable public static func + (lhs: Q32_32, rhs: Q32_32) -> Q32_32 { Q32_32(rawValue: lhs.rawValue &+ rhs.rawValue) }
    @inlinable public static func - (lhs: Q32_32, rhs: Q32_32) -> Q32_32 { Q32_32(rawValue: lhs.rawValue &- rhs.rawValue) }
    @inlinable public static prefix func - (value: Q32_32) -> Q32_32 { Q32_32(rawValue: 0 &- value.rawValue) }

    /// `lhs × rhs`, rounded to nearest (ties up), through an exact 128-bit product.
    @inlinable @inline(__always)
    public static func * (lhs: Q32_32, rhs: Q32_32) -> Q32_32 { Q32_32(rawValue: product(lhs.rawValue, rhs.rawValue)) }

    // A 64-bit core multiplies 64 × 64 → 128 bits in one instruction: inlined everywhere. A
    // 32-bit one (Cortex-M) needs a dozen instructions and calls for it: there one shared copy
    // keeps the firmware inside its flash (inlined, each multiplication costs ~40 bytes, and the
    // fusion's vector and quaternion operations, inlined for 64-bit speed, hold hundreds).
    #if _pointerBitWidth(_64)
    @inlinable @inline(__always)
    static func product(_ a: Int64, _ b: Int64) -> Int64 { roundedProduct(a, b) }
    #else
    @inline(never) @usableFromInline
    static func product(_ a: Int64, _ b: Int64) -> Int64 { roundedProduct(a, b) }
    #endif

    /// Bits 32…95 of a × b, rounded at bit 31: one 64 × 64 → 128-bit multiply (no Int128
    /// arithmetic, whose overflow checks cost more than the multiply).
    @inlinable @inline(__always)
    static func roundedProduct(_ a: Int64, _ b: Int64) -> Int64 {
        let (high, low) = a.multipliedFullWidth(by: b)
        let (rounded, carry) = low.addingReportingOverflow(1 << 31)
        let top = high &+ (carry ? 1 : 0)
        return (top &<< 32) | Int64(bitPattern: rounded >> 32)
    }

    /// × 2ⁿ (exact) or ÷ 2ⁿ (rounded half up, like the product), n < 63.
    @inlinable @inline(__always)
    public func timesPowerOfTwo(_ exponent: Int) -> Q32_32 {
        if exponent >= 0 { return Q32_32(rawValue: rawValue << exponent) }
        let n = -exponent
        // Wrapping, like the sums (values far inside the range): no overflow trap per call.
        return Q32_32(rawValue: (rawValue &+ (1 << (n - 1))) >> n)
    }

    /// 1/√x for x > 0 (0 for x ≤ 0). With x = m × 2^e, m in [1, 4) and e even, 1/√x =
    /// (1/√m) × 2^(−e/2); 1/√m is seeded by a quadratic (least-squares fit on [1, 4], within
    /// 3.7 %), then three Newton steps y ← y (3 − x y²) / 2 square the relative error each time
    /// (3.7 × 10⁻² → 2 × 10⁻³ → 6 × 10⁻⁶ → 6 × 10⁻¹¹): what remains is rounding, within 10⁻⁸
    /// relative or 4 units of 2⁻³² for x ≥ 2⁻¹⁴ (below, x's own few significant bits limit it
    /// to 10⁻⁵; Q32_32Tests). No table, no division: 12 multiplications.
    @inlinable
    public var reciprocalSquareRoot: Q32_32 {
        guard rawValue > 0 else { return .zero }
        var exponent = 63 - rawValue.leadingZeroBitCount - 32  // ⌊log₂ x⌋
        if exponent & 1 != 0 { exponent -= 1 }                 // even: m = x / 2^e in [1, 4)
        // m in Q30.
        let shift = exponent + 2  // m × 2³⁰ = raw × 2⁻³² × 2^−e × 2³⁰ = raw >> (e + 2)
        let m = shift >= 0 ? rawValue >> shift : rawValue << -shift
        // y₀(m) = 0.0493858 m² − 0.39508271 m + 1.30867376, in Q30.
        let m2 = Int64(truncatingIfNeeded: (Int128(m) * Int128(m)) >> 30)  // m² < 16: fits, m × m does not
        let seed = ((53_027_599 * m2) >> 30) - ((424_216_830 * m) >> 30) + 1_405_177_750
        // × 2^(−e/2), Q30 → Q32.
        let scale = 2 - exponent / 2
        var y = Q32_32(rawValue: scale >= 0 ? seed << scale : seed >> -scale)
        let threeHalves = Q32_32(rawValue: 3 << 31)
        for _ in 0..<3 {
            let xyy = self * y * y  // x first: y may be large, x y stays near 1/y
            y = y * (threeHalves - xyy.timesPowerOfTwo(-1))
        }
        return y
    }

    /// √x for x ≥ 0 (0 otherwise), as x × (1/√x).
    @inlinable
    public var squareRoot: Q32_32 { self * reciprocalSquareRoot }

    /// atan2(y, x) in radians, in (−π, π] (within 6 × 10⁻⁹ rad; `Angle.arctangent2Q30`).
    @inlinable
    public static func arctangent2(y: Q32_32, x: Q32_32) -> Q32_32 {
        Q32_32(rawValue: Angle.arctangent2Q30(y: y.rawValue, x: x.rawValue) << 2)
    }

    /// sin and cos of an angle in radians (|angle| < 32768), within 4 × 10⁻⁹ plus the angle's
    /// rounding to Q16.16 (≤ 7.6 × 10⁻⁶ rad).
    @inlinable
    public static func sineCosine(_ angle: Q32_32) -> (sine: Q32_32, cosine: Q32_32) {
        let (sine, cosine) = Angle.sineCosine(of: angle.q16_16)
        return (Q32_32(sine), Q32_32(cosine))
    }
}
