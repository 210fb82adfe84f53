/// The emulators' side of `CountConversion`: a physical vector written into a register file as
/// the little-endian 16-bit counts an ADC with that LSB size would produce (rounded to nearest,
/// clamped to Int16 like the converter's saturation).
enum EmulatedCounts {
    /// Stores x, y, z at `start`, `start + 2`, `start + 4`. One count is `lsb / denominator`
    /// of the unit (e.g. nano-m/s² per LSB with denominator 10⁹).
    static func storeLittleEndian(_ value: (Double, Double, Double), lsb: Int64, denominator: Double,
                                  into registers: inout [UInt8], at start: Int) {
        for (axis, component) in [value.0, value.1, value.2].enumerated() {
            let counts = Int16(clamping: Int((component * denominator / Double(lsb)).rounded()))
            registers[start + 2 * axis] = UInt8(truncatingIfNeeded: counts)
            registers[start + 2 * axis + 1] = UInt8(truncatingIfNeeded: counts >> 8)
        }
    }
}
