/// The BMP388/BMP390 trimming coefficients as the NVM stores them (0x31…0x45, BST-BMP388-DS001
/// §3.11.1 table 22): NVM_PAR_T1, T2 unsigned 16; T3 signed 8; P1, P2 signed 16; P3, P4 signed
/// 8; P5, P6 unsigned 16; P7, P8 signed 8; P9 signed 16; P10, P11 signed 8; 16-bit values little
/// endian. The datasheet's floating-point PAR_x are these scaled by powers of two (§9.1, e.g.
/// PAR_T1 = NVM_PAR_T1 × 2⁸, PAR_P1 = (NVM_PAR_P1 − 2¹⁴) / 2²⁰): `BMP388Conversion` keeps the
/// integers and folds the powers of two into its fixed-point scales.
public struct BMP388Calibration: Sendable, Equatable {
    public var t1: UInt16, t2: UInt16, t3: Int8
    public var p1: Int16, p2: Int16, p3: Int8, p4: Int8, p5: UInt16, p6: UInt16, p7: Int8, p8: Int8, p9: Int16, p10: Int8, p11: Int8

    /// Decodes the 21 bytes read from 0x31.
    public init(bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count >= BMP388Register.calibrationLength, "the BMP388 calibration is 21 bytes")  // our bug if not
        func unsigned(_ index: Int) -> UInt16 { UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8 }
        func signed(_ index: Int) -> Int16 { Int16(bitPattern: unsigned(index)) }
        func byte(_ index: Int) -> Int8 { Int8(bitPattern: bytes[index]) }
        (t1, t2, t3) = (unsigned(0), unsigned(2), byte(4))
        (p1, p2, p3, p4) = (signed(5), signed(7), byte(9), byte(10))
        (p5, p6, p7, p8) = (unsigned(11), unsigned(13), byte(15), byte(16))
        (p9, p10, p11) = (signed(17), byte(19), byte(20))
    }

    public init(t1: UInt16, t2: UInt16, t3: Int8, p1: Int16, p2: Int16, p3: Int8, p4: Int8, p5: UInt16, p6: UInt16,
                p7: Int8, p8: Int8, p9: Int16, p10: Int8, p11: Int8) {
        (self.t1, self.t2, self.t3) = (t1, t2, t3)
        (self.p1, self.p2, self.p3, self.p4, self.p5, self.p6) = (p1, p2, p3, p4, p5, p6)
        (self.p7, self.p8, self.p9, self.p10, self.p11) = (p7, p8, p9, p10, p11)
    }

    /// A trimming set of a real chip's magnitudes (the datasheet prints none), used by the
    /// emulator and the tests; its golden values come from the datasheet's float formulas.
    public static let example = BMP388Calibration(t1: 27772, t2: 19216, t3: -7, p1: -1920, p2: -3012, p3: 35, p4: 1,
                                                  p5: 25200, p6: 30200, p7: 3, p8: -6, p9: 15900, p10: 8, p11: -60)

    /// The 21 bytes as the chip stores them.
    public var bytes: [UInt8] {
        func le(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        func b(_ value: Int8) -> UInt8 { UInt8(bitPattern: value) }
        return le(t1) + le(t2) + [b(t3)] + le(UInt16(bitPattern: p1)) + le(UInt16(bitPattern: p2)) + [b(p3), b(p4)]
            + le(p5) + le(p6) + [b(p7), b(p8)] + le(UInt16(bitPattern: p9)) + [b(p10), b(p11)]
    }
}
