/// The factory calibration: PROM words 0…6 (0xA0…0xAC). Word 0 holds the CRC-4 in bits 15…12
/// and the product version in bits 11…5; words 1…6 are C1…C6 ("MS5837-30BA datasheet, TE
/// Connectivity", sections "PROM" / "CRC" and "Version PROM word 0 programming").
public struct MS5837Calibration: Sendable, Equatable {
    public var words: [UInt16]

    public init(words: [UInt16]) {
        precondition(words.count == MS5837Command.promWords, "the MS5837 PROM is 7 words")  // our bug if not
        self.words = words
    }

    /// C1…C6 from their PROM words with a correct CRC in word 0 and `version` in bits 11…5.
    public init(version: UInt8, coefficients c: [UInt16]) {
        precondition(c.count == 6, "C1…C6")
        var words = [UInt16(version & 0x7F) << 5] + c
        words[0] |= UInt16(Self.crc4(words)) << 12
        self.init(words: words)
    }

    /// C1 pressure sensitivity, C2 offset, C3 TCS, C4 TCO, C5 reference temperature, C6 TEMPSENS.
    public func c(_ index: Int) -> Int64 { Int64(words[index]) }

    /// The CRC stored in word 0.
    public var storedCRC: UInt8 { UInt8(words[0] >> 12) }
    /// The product version (bits 11…5 of word 0): 0x1A for the MS5837-30BA26 (30BA datasheet,
    /// "Version PROM word 0 programming"); 0x00 or 0x15 for the 02BA01 / 02BA21 (as Blue
    /// Robotics' ms5837 library reads them).
    public var version: UInt8 { UInt8(words[0] >> 5 & 0x7F) }
    public var isCRCValid: Bool { Self.crc4(words) == storedCRC }
    /// All words 0 or all 0xFFFF: a bus returning junk (the CRC of all zeros is 0, so the CRC
    /// alone would accept it).
    public var isBlank: Bool { words.allSatisfy { $0 == 0 } || words.allSatisfy { $0 == 0xFFFF } }

    /// CRC-4 over the 7 PROM words with the CRC nibble cleared and an eighth word of 0: the
    /// datasheet's "CRC" section code (TE application note AN520's algorithm: polynomial
    /// x⁴ + x + 1 as 0x3000 on a 16-bit remainder, bytes MSB first).
    public static func crc4(_ words: [UInt16]) -> UInt8 {
        var remainder: UInt16 = 0
        for index in 0..<16 {
            let word = index / 2 < words.count ? (index / 2 == 0 ? words[0] & 0x0FFF : words[index / 2]) : 0
            remainder ^= index % 2 == 1 ? word & 0x00FF : word >> 8
            for _ in 0..<8 {
                remainder = remainder & 0x8000 != 0 ? (remainder << 1) ^ 0x3000 : remainder << 1
            }
        }
        return UInt8(remainder >> 12 & 0x0F)
    }

    /// The datasheets' example coefficients ("Pressure and temperature calculation",
    /// "Example / Typical" column).
    public static let example30BA = MS5837Calibration(version: 0x1A, coefficients: [34982, 36352, 20328, 22354, 26646, 26146])
    public static let example02BA = MS5837Calibration(version: 0x15, coefficients: [46372, 43981, 29059, 27842, 31553, 28165])
}
