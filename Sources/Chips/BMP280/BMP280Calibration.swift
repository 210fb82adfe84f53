/// The factory trimming parameters (`calib00`…`calib23`, 0x88…0x9F), decoded (§3.11.2
/// table 17: dig_T1 unsigned 16, dig_T2/T3 signed 16, dig_P1 unsigned 16, dig_P2…P9 signed
/// 16, all little endian).
public struct BMP280Calibration: Sendable, Equatable {
    public var t1: UInt16, t2: Int16, t3: Int16
    public var p1: UInt16, p2: Int16, p3: Int16, p4: Int16, p5: Int16, p6: Int16, p7: Int16, p8: Int16, p9: Int16

    /// Decodes the 24 bytes read from 0x88.
    public init(bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count >= 24, "the BMP280 calibration is 24 bytes")  // our bug if not
        func unsigned(_ index: Int) -> UInt16 { UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8 }
        func signed(_ index: Int) -> Int16 { Int16(bitPattern: unsigned(index)) }
        (t1, t2, t3) = (unsigned(0), signed(2), signed(4))
        (p1, p2, p3, p4, p5) = (unsigned(6), signed(8), signed(10), signed(12), signed(14))
        (p6, p7, p8, p9) = (signed(16), signed(18), signed(20), signed(22))
    }

    public init(t1: UInt16, t2: Int16, t3: Int16, p1: UInt16, p2: Int16, p3: Int16, p4: Int16, p5: Int16,
                p6: Int16, p7: Int16, p8: Int16, p9: Int16) {
        (self.t1, self.t2, self.t3) = (t1, t2, t3)
        (self.p1, self.p2, self.p3, self.p4, self.p5, self.p6, self.p7, self.p8, self.p9) = (p1, p2, p3, p4, p5, p6, p7, p8, p9)
    }

    /// The datasheet's worked example (§3.11.3 table 16), a real chip's trimming.
    public static let datasheetExample = BMP280Calibration(
        t1: 27504, t2: 26435, t3: -1000, p1: 36477, p2: -10685, p3: 3024, p4: 2855, p5: 140, p6: -7,
        p7: 15500, p8: -14600, p9: 6000)

    /// The 24 bytes as the chip stores them.
    public var bytes: [UInt8] {
        let words: [UInt16] = [t1, UInt16(bitPattern: t2), UInt16(bitPattern: t3), p1] + [p2, p3, p4, p5, p6, p7, p8, p9].map { UInt16(bitPattern: $0) }
        return words.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }
}
