/// Signed right shifts with the rounding stated, for the narrowing step after a widening
/// multiply. A bare `>>` on a negative value rounds toward −∞ and biases every result by half
/// an LSB downward; a filter that shifts each sample would drift.
extension Int64 {
    /// `self / 2^count` rounded to the nearest integer, ties to even (IEEE 754's default, so
    /// no bias in either direction over many roundings). `count` in 1...62.
    @inlinable @inline(__always)
    public func shiftedRightRoundingToNearestEven(by count: Int64) -> Int64 {
        let half = Int64(1) << (count - 1)
        let mask = (Int64(1) << count) - 1
        let floor = self >> count  // arithmetic shift: rounds toward −∞, corrected below
        // +1 when the remainder exceeds half, or equals it and floor is odd: remainder + (half − 1)
        // + (floor's low bit) reaches 2^count exactly then. Branch-free (the fixed-point filters'
        // atan2, sin/cos and output conversions run it per sample), and with no overflow: the
        // sum is below 2^(count+1).
        let remainder = self & mask
        return floor + ((remainder + (floor & 1) + (half - 1)) >> count)
    }
}

extension Int32 {
    /// `value` clamped to Int32's range: the saturating narrowing used after arithmetic whose
    /// result can leave the format (an explicit decision, see each caller).
    @inlinable @inline(__always)
    public static func saturating(_ value: Int64) -> Int32 {
        if value > Int64(Int32.max) { return .max }
        if value < Int64(Int32.min) { return .min }
        return Int32(truncatingIfNeeded: value)
    }
}

/// Converts a Double to a fixed-point raw value: `value × 2^fractionBits` rounded to nearest,
/// ties to even; beyond the format's range it saturates at Int32.min / Int32.max, and NaN
/// gives 0. Used only at the edges (reading recordings, tests): the pipeline itself never
/// touches floating point.
@inlinable
func fixedPointRawValue(_ value: Double, fractionBits: Int) -> Int32 {
    guard !value.isNaN else { return 0 }
    let scaled = (value * Double(sign: .plus, exponent: fractionBits, significand: 1)).rounded(.toNearestOrEven)
    if scaled >= 2_147_483_647 { return .max }
    if scaled <= -2_147_483_648 { return .min }
    return Int32(scaled)
}
