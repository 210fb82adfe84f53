import Chips
import Testing

/// Golden vectors: the datasheets' "Pressure and temperature calculation" examples
/// ("MS5837-30BA datasheet, TE Connectivity"; MS5837-02BA datasheet).
@Suite struct MS5837ConversionTests {
    @Test func the30BAExample() {
        let result = MS5837Conversion.firstOrder(.bar30, d1: 4_958_179, d2: 6_815_414, .example30BA)
        #expect(result.dT == -5962)
        #expect(result.centidegrees == 1981)  // 19.81 °C
        #expect(result.sensitivity == 1_145_816_755)
        // The datasheet prints OFF = 2381326464; C2·2¹⁶ + (C4·dT)/2⁷ is 2381323464 (one digit
        // differs: a typo) and either gives its P.
        #expect(result.offset == 2_381_323_464)
        #expect(result.pressureSteps == 39998)  // 3999.8 mbar
        #expect(result.pascals == 399_980)
    }

    @Test func the02BAExample() {
        let result = MS5837Conversion.firstOrder(.bar02, d1: 6_465_444, d2: 8_077_636, .example02BA)
        #expect(result.dT == 68)
        #expect(result.centidegrees == 2000)
        #expect(result.offset == 5_764_707_214)
        #expect(result.sensitivity == 3_039_050_829)
        #expect(result.pressureSteps == 110_002)  // 1100.02 mbar
        #expect(result.pascals == 110_002)
    }

    /// Second order, checked against the datasheets' formulas evaluated independently in
    /// floating point (floor for each "/ 2ⁿ").
    @Test(arguments: [(MS5837Variant.bar30, 4_958_179 as UInt32, 6_815_414 as UInt32), (.bar30, 4_958_179, 6_000_000), (.bar30, 4_000_000, 5_000_000),
                      (.bar30, 5_200_000, 7_400_000), (.bar02, 6_465_444, 8_077_636), (.bar02, 6_465_444, 7_500_000), (.bar02, 6_465_444, 8_500_000)])
    func secondOrderFollowsTheFormulas(variant: MS5837Variant, d1: UInt32, d2: UInt32) {
        let prom: MS5837Calibration = variant == .bar30 ? .example30BA : .example02BA
        let c = (1...6).map { Double(prom.c($0)) }
        func floorDiv(_ x: Double, _ power: Double) -> Double { (x / Double.pow2(power)).rounded(.down) }
        let dT = Double(d2) - c[4] * 256
        let temp = 2000 + floorDiv(dT * c[5], 23)
        var off: Double, sens: Double, ti = 0.0, offi = 0.0, sensi = 0.0
        if variant == .bar30 {
            off = c[1] * 65536 + floorDiv(c[3] * dT, 7)
            sens = c[0] * 32768 + floorDiv(c[2] * dT, 8)
            if temp < 2000 {
                ti = floorDiv(3 * dT * dT, 33); offi = floorDiv(3 * (temp - 2000) * (temp - 2000), 1); sensi = floorDiv(5 * (temp - 2000) * (temp - 2000), 3)
                if temp < -1500 { offi += 7 * (temp + 1500) * (temp + 1500); sensi += 4 * (temp + 1500) * (temp + 1500) }
            } else {
                ti = floorDiv(2 * dT * dT, 37); offi = floorDiv((temp - 2000) * (temp - 2000), 4)
            }
        } else {
            off = c[1] * 131_072 + floorDiv(c[3] * dT, 6)
            sens = c[0] * 65536 + floorDiv(c[2] * dT, 7)
            if temp < 2000 { ti = floorDiv(11 * dT * dT, 35); offi = floorDiv(31 * (temp - 2000) * (temp - 2000), 3); sensi = floorDiv(63 * (temp - 2000) * (temp - 2000), 5) }
        }
        let p = floorDiv(floorDiv(Double(d1) * (sens - sensi), 21) - (off - offi), variant == .bar30 ? 13 : 15)
        let result = MS5837Conversion.secondOrder(variant, d1: d1, d2: d2, prom)
        #expect(Double(result.centidegrees) == temp - ti)
        // Doubles hold D1·SENS (< 2⁵³ here) exactly; allow one step for the last rounding.
        #expect(abs(Double(result.pressureSteps) - p) <= 1, "\(result.pressureSteps) vs \(p)")
    }

    /// The datasheet's CRC code over the example PROMs: the CRC we store is the one it computes,
    /// and one flipped bit anywhere in C1…C6 changes it.
    @Test func crc4DetectsEveryFlippedBit() {
        for prom in [MS5837Calibration.example30BA, .example02BA] {
            #expect(prom.isCRCValid)
            for word in 1...6 {
                for bit in 0..<16 {
                    var words = prom.words
                    words[word] ^= 1 << bit
                    #expect(MS5837Calibration.crc4(words) != prom.storedCRC, "word \(word) bit \(bit)")
                }
            }
        }
        #expect(MS5837Calibration.example30BA.version == 0x1A)
    }

    /// The datasheet's CRC code is a CRC-4 with polynomial x⁴ + x + 1: the remainder of the
    /// PROM's bits (word 0's CRC nibble cleared, an eighth word of zeros) without the last four,
    /// which stand for the four zeros a CRC appends, divided by 0b10011, computed bit by bit.
    @Test func crc4IsPolynomialDivision() {
        let words: [UInt16] = [0x0132, 0x3334, 0x3536, 0x3738, 0x393A, 0x3B3C, 0x3D3E]
        var bits: [UInt8] = []
        for word in words + [0] { for bit in (0..<16).reversed() { bits.append(UInt8(word >> bit & 1)) } }
        bits.removeLast(4)
        for index in 0..<(bits.count - 4) where bits[index] == 1 {
            for (offset, g) in [1, 0, 0, 1, 1].enumerated() { bits[index + offset] ^= UInt8(g) }
        }
        let remainder = bits.suffix(4).reduce(UInt8(0)) { $0 << 1 | $1 }
        #expect(MS5837Calibration.crc4(words) == remainder)
    }
}

extension Double {
    fileprivate static func pow2(_ n: Double) -> Double { Double(sign: .plus, exponent: Int(n), significand: 1) }
}
