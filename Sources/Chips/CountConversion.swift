public import FixedPoint

/// Raw sensor counts to SI fixed point, shared by every chip family (each chip's table gives
/// its LSB size; this is only the arithmetic).
public enum CountConversion {
    /// counts × LSB size in Q16.16 SI units, where the LSB is `nanoUnitsPerLSB` × 10⁻⁹ of the
    /// unit (m/s², rad/s) — or, with `unitsPerLSBDenominator` 1000, nT per LSB into µT.
    /// Rounded to nearest (ties away from zero); exact in Int64: |counts| ≤ 2¹⁵, the LSB size
    /// < 2²³ and × 2¹⁶ keep the product below 2⁵⁴.
    @inlinable
    public static func siValue(counts: Int16, nanoUnitsPerLSB: Int64, denominator: Int64 = 1_000_000_000) -> Q16_16 {
        let scaled = Int64(counts) * nanoUnitsPerLSB * 65536
        let half = denominator / 2
        return Q16_16(rawValue: Int32(clamping: (scaled + (scaled >= 0 ? half : -half)) / denominator))
    }

    /// A little-endian 16-bit two's complement value (ST chips).
    @inlinable
    public static func littleEndian16(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int16 {
        Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8)
    }

    /// A vector of three little-endian counts starting at `offset`.
    @inlinable
    public static func littleEndianVector(_ bytes: UnsafeRawBufferPointer, at offset: Int, nanoUnitsPerLSB: Int64,
                                          denominator: Int64 = 1_000_000_000) -> Vector3 {
        Vector3(x: siValue(counts: littleEndian16(bytes, at: offset), nanoUnitsPerLSB: nanoUnitsPerLSB, denominator: denominator),
                y: siValue(counts: littleEndian16(bytes, at: offset + 2), nanoUnitsPerLSB: nanoUnitsPerLSB, denominator: denominator),
                z: siValue(counts: littleEndian16(bytes, at: offset + 4), nanoUnitsPerLSB: nanoUnitsPerLSB, denominator: denominator))
    }
}
