/// Integer square roots, the base of vector lengths and normalisation.
extension UInt64 {
    /// ⌊√self⌋, exact for every UInt64 (the bit-by-bit method: one trial subtraction per result
    /// bit, no division, no table). Hacker's Delight, 2nd ed., §11-1, Fig. 11-4. It starts at
    /// the highest even power of 2 not above self, from the count of leading zeros (one
    /// instruction on x86-64, Armv7 and Armv8; a short routine on a Cortex-M0), where halving
    /// down from 2⁶² one test at a time took up to 31 iterations (12 for |a|² of 1 g in Q16.16).
    @inlinable
    public var integerSquareRoot: UInt64 {
        guard self != 0 else { return 0 }
        var remainder = self
        var root: UInt64 = 0
        var bit: UInt64 = 1 << ((63 - leadingZeroBitCount) & ~1)
        while bit != 0 {
            if remainder >= root + bit {
                remainder -= root + bit
                root = (root >> 1) + bit
            } else {
                root >>= 1
            }
            bit >>= 2
        }
        return root
    }

    /// √self rounded to the nearest integer (exact: the true root lies within half of ⌊√x⌋ + ½
    /// exactly when x ≤ r² + r, since (r + ½)² = r² + r + ¼ and x is an integer).
    @inlinable
    public var roundedSquareRoot: UInt64 {
        let root = integerSquareRoot
        return self > root * root + root ? root + 1 : root
    }
}

extension Q16_16 {
    /// √self, rounded to the nearest LSB (error ≤ ½ LSB = 7.6 × 10⁻⁶, exact rounding of the true
    /// root: √(raw/2¹⁶) × 2¹⁶ = √(raw × 2¹⁶)). Negative inputs give 0.
    @inlinable
    public var squareRoot: Q16_16 {
        guard rawValue > 0 else { return .zero }
        // raw × 2¹⁶ < 2⁴⁷: no overflow; the root < 2²⁴ fits Int32.
        return Q16_16(rawValue: Int32((UInt64(rawValue) << 16).roundedSquareRoot))
    }
}
