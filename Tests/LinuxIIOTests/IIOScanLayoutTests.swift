import LinuxIIO
import Testing

/// Golden vectors computed by hand from the kernel's scan element rules
/// (Documentation/ABI/testing/sysfs-bus-iio, "in_voltageY_type"; iio_compute_scan_bytes).
@Suite struct IIOScanLayoutTests {
    private func raw(_ type: String, _ bytes: [UInt8], at offset: Int = 0) throws -> Int64 {
        let format = try IIOScanFormat(parsing: type)
        return bytes.withUnsafeBytes { format.rawValue(in: $0, at: offset) }
    }

    @Test func formatsParseIntoTheirParts() throws {
        let format = try IIOScanFormat(parsing: "be:s12/16>>4\n")
        #expect(format.isBigEndian && format.isSigned)
        #expect((format.realBits, format.storageBits, format.shift, format.storageBytes) == (12, 16, 4, 2))
        #expect(format.description == "be:s12/16>>4")
        let unsigned = try IIOScanFormat(parsing: "le:u24/32>>0")
        #expect(!unsigned.isBigEndian && !unsigned.isSigned && unsigned.realBits == 24 && unsigned.storageBits == 32)
        #expect(try IIOScanFormat(storageBits: 64, realBits: 64, shift: 0, isSigned: true, isBigEndian: false).description == "le:s64/64>>0")
    }

    @Test func littleAndBigEndian16BitValues() throws {
        #expect(try raw("le:s16/16>>0", [0x64, 0x00]) == 100)
        #expect(try raw("le:s16/16>>0", [0x38, 0xFF]) == -200)        // 0xFF38
        #expect(try raw("le:s16/16>>0", [0x00, 0x40]) == 16384)
        #expect(try raw("le:s16/16>>0", [0x00, 0x80]) == -32768)
        #expect(try raw("be:s16/16>>0", [0xFF, 0x38]) == -200)
        #expect(try raw("be:s16/16>>0", [0x38, 0xFF]) == 0x38FF)      // 14591
        #expect(try raw("le:u16/16>>0", [0x38, 0xFF]) == 65336)
        #expect(try raw("be:u16/16>>0", [0xFF, 0xFF]) == 65535)
        #expect(try raw("le:s8/8>>0", [0xFF]) == -1)
        #expect(try raw("le:u8/8>>0", [0xFF]) == 255)
    }

    @Test func twelveBitsInSixteenAreShiftedMaskedAndSignExtended() throws {
        // be, shifted by 4 (e.g. adxl345-style left-justified): 0x8010 >> 4 = 0x801 → 0x801 − 0x1000
        #expect(try raw("be:s12/16>>4", [0x80, 0x10]) == -2047)
        #expect(try raw("be:s12/16>>4", [0x7F, 0xF0]) == 2047)
        #expect(try raw("be:s12/16>>4", [0xFF, 0xFF]) == -1)          // the low nibble is not data
        #expect(try raw("be:s12/16>>4", [0x12, 0x3F]) == 0x123)       // 291
        #expect(try raw("be:u12/16>>4", [0x80, 0x10]) == 0x801)       // 2049
        // le, not shifted: the top nibble is not data and must be masked off
        #expect(try raw("le:s12/16>>0", [0xFF, 0xF7]) == 2047)        // 0xF7FF & 0xFFF = 0x7FF
        #expect(try raw("le:s12/16>>0", [0x00, 0x08]) == -2048)       // 0x800
    }

    @Test func twentyFourBitsInThirtyTwo() throws {
        #expect(try raw("le:u24/32>>0", [0x56, 0x34, 0x12, 0xAB]) == 0x123456)   // 1193046; byte 3 masked
        #expect(try raw("le:s24/32>>0", [0x00, 0x00, 0x80, 0x00]) == -8_388_608) // 0x800000
        #expect(try raw("le:s24/32>>0", [0xFF, 0xFF, 0xFF, 0x00]) == -1)
        #expect(try raw("be:s24/32>>8", [0xFF, 0xFF, 0xFE, 0x00]) == -2)        // 0xFFFFFE00 >> 8
        #expect(try raw("be:u24/32>>8", [0x12, 0x34, 0x56, 0x78]) == 0x123456)
    }

    @Test func sixtyFourBitTimestamps() throws {
        #expect(try raw("le:s64/64>>0", [0x00, 0xCA, 0x9A, 0x3B, 0, 0, 0, 0]) == 1_000_000_000)
        #expect(try raw("le:s64/64>>0", [UInt8](repeating: 0xFF, count: 8)) == -1)
        #expect(try raw("be:s64/64>>0", [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08]) == 0x0102_0304_0506_0708)
        #expect(try raw("le:s64/64>>0", [0xAA, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08], at: 1) == 0x0807_0605_0403_0201)
    }

    @Test func bmi160ScanIsSixBytesOfAccelTwoOfPaddingAndTheTimestamp() throws {
        let s16 = try IIOScanFormat(parsing: "le:s16/16>>0"), s64 = try IIOScanFormat(parsing: "le:s64/64>>0")
        // Given out of scan index order: offsets follow the index, elements keep the given order.
        let layout = try IIOScanLayout([(3, s64), (0, s16), (2, s16), (1, s16)])
        #expect(layout.scanBytes == 16)
        #expect(layout.elements.map(\.byteOffset) == [8, 0, 4, 2])
        #expect(layout.elements.map(\.scanIndex) == [3, 0, 2, 1])
        let scan: [UInt8] = [0x64, 0x00, 0x38, 0xFF, 0x00, 0x40, 0xEE, 0xEE, 0x00, 0xCA, 0x9A, 0x3B, 0, 0, 0, 0]
        let values = scan.withUnsafeBytes { bytes in (0..<4).map { layout.rawValue($0, in: bytes) } }
        #expect(values == [1_000_000_000, 100, 16384, -200])
    }

    @Test func elementsAlignToTheirSizeAndScansToTheLargest() throws {
        let u8 = try IIOScanFormat(parsing: "le:u8/8>>0"), s16 = try IIOScanFormat(parsing: "le:s16/16>>0")
        let s32 = try IIOScanFormat(parsing: "le:s24/32>>0"), s64 = try IIOScanFormat(parsing: "le:s64/64>>0")
        // lis3mdl: 3 × s16 = 6 bytes, no padding
        #expect(try IIOScanLayout([(0, s16), (1, s16), (2, s16)]).scanBytes == 6)
        // s32 then s16: 4 + 2, padded to a multiple of 4
        let mixed = try IIOScanLayout([(0, s32), (1, s16)])
        #expect(mixed.elements.map(\.byteOffset) == [0, 4] && mixed.scanBytes == 8)
        // u8, s16, u8: 0, 2 (aligned), 4; 5 bytes padded to 6
        let bytes = try IIOScanLayout([(0, u8), (1, s16), (2, u8)])
        #expect(bytes.elements.map(\.byteOffset) == [0, 2, 4] && bytes.scanBytes == 6)
        // s32, s16, s64 timestamp: 0, 4, padded from 6 to 8, 8 → 16 bytes
        let pressure = try IIOScanLayout([(0, s32), (1, s16), (2, s64)])
        #expect(pressure.elements.map(\.byteOffset) == [0, 4, 8] && pressure.scanBytes == 16)
        #expect(try IIOScanLayout([]).scanBytes == 0)
    }

    @Test func malformedFormatsAreClearErrors() {
        let cases: [(String, String)] = [
            ("", "must start with \"le:\" or \"be:\""),
            ("xe:s16/16>>0", "must start with \"le:\" or \"be:\""),
            ("le:q16/16>>0", "the sign must be s or u"),
            ("le:s/16>>0", "the real bit count is missing"),
            ("le:s16>>0", "\"/\" and the storage bit count are missing"),
            ("le:s16/16", "\">>\" and the shift are missing"),
            ("le:s16/16>>", "\">>\" and the shift are missing"),
            ("le:s16/16>>0 junk", "unexpected text after the shift"),
            ("le:s16/16X>>0", "the repeat count after X is missing"),
            ("le:s16/16X3>>0", "repeats its value 3 times; repeated elements are not supported"),
            ("le:s17/16>>0", "17 real bits shifted by 0 do not fit in 16 storage bits"),
            ("le:s12/16>>5", "12 real bits shifted by 5 do not fit in 16 storage bits"),
            ("le:s0/16>>0", "0 real bits shifted by 0 do not fit"),
            ("le:s12/12>>0", "has 12 storage bits; only 8, 16, 32 and 64 are supported"),
        ]
        for (text, expected) in cases {
            do {
                let format = try IIOScanFormat(parsing: text)
                Issue.record("\"\(text)\" parsed as \(format)")
            } catch {
                #expect(error.description.contains(expected), "\(text): \(error)")
                #expect(error.description.hasPrefix("scan element type \""), "\(text): \(error)")
            }
        }
    }

    @Test func duplicateScanIndicesAreAnError() throws {
        let s16 = try IIOScanFormat(parsing: "le:s16/16>>0")
        #expect(throws: IIOScanFormatError(problem: "two enabled scan elements have scan index 1")) {
            try IIOScanLayout([(0, s16), (1, s16), (1, s16)])
        }
    }
}
