/// A scan element format or layout that cannot be decoded, with the text and the reason.
public struct IIOScanFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    public var problem: String

    public init(problem: String) { self.problem = problem }

    public var description: String { problem }
}

/// How one channel's value sits in a buffer scan, as the kernel's `scan_elements/<channel>_type`
/// states it: "le:s12/16>>4" = little-endian, signed, 12 real bits in 16 storage bits, shifted
/// left by 4 (Documentation/ABI/testing/sysfs-bus-iio, "in_voltageY_type").
/// Pure Swift with no libiio or Foundation, so the decoder is testable with byte strings.
public struct IIOScanFormat: Sendable, Equatable, CustomStringConvertible {
    /// Bits the value occupies in the scan: 8, 16, 32 or 64 (whole bytes, also its alignment).
    public let storageBits: Int
    /// Bits of the value itself, 1 ... storageBits − shift.
    public let realBits: Int
    /// Right shift that brings the value's lowest bit to bit 0.
    public let shift: Int
    public let isSigned: Bool
    public let isBigEndian: Bool

    /// Bytes the value occupies, which is also its alignment inside the scan.
    public var storageBytes: Int { storageBits / 8 }

    /// Checks the numbers. `repeatCount` > 1 (the kernel's "X3" form, for channels that carry
    /// several values in one element) is rejected: no motion sensor driver uses it, and its
    /// alignment rule changed between kernel versions.
    public init(storageBits: Int, realBits: Int, shift: Int, isSigned: Bool, isBigEndian: Bool,
                repeatCount: Int = 1) throws(IIOScanFormatError) {
        let text = Self.text(storageBits: storageBits, realBits: realBits, shift: shift, isSigned: isSigned,
                             isBigEndian: isBigEndian, repeatCount: repeatCount)
        guard repeatCount == 1 else {
            throw IIOScanFormatError(problem: "scan element type \"\(text)\" repeats its value \(repeatCount) times; repeated elements are not supported")
        }
        guard [8, 16, 32, 64].contains(storageBits) else {
            throw IIOScanFormatError(problem: "scan element type \"\(text)\" has \(storageBits) storage bits; only 8, 16, 32 and 64 are supported")
        }
        guard realBits >= 1, shift >= 0, realBits + shift <= storageBits else {
            throw IIOScanFormatError(problem: "scan element type \"\(text)\": \(realBits) real bits shifted by \(shift) do not fit in \(storageBits) storage bits")
        }
        self.storageBits = storageBits
        self.realBits = realBits
        self.shift = shift
        self.isSigned = isSigned
        self.isBigEndian = isBigEndian
    }

    /// Parses the sysfs text, e.g. "le:s16/16>>0" or "be:u24/32>>0\n" (the kernel writes
    /// "%s:%c%u/%u>>%u": endianness, sign, real bits, storage bits, shift).
    public init(parsing text: String) throws(IIOScanFormatError) {
        var trimmed = Substring(text)
        while let last = trimmed.last, last.isWhitespace { trimmed = trimmed.dropLast() }
        let shown = String(trimmed)
        func malformed(_ why: String) -> IIOScanFormatError {
            IIOScanFormatError(problem: "scan element type \"\(shown)\" is not of the form \"le:s16/16>>0\": \(why)")
        }
        var rest = trimmed.utf8[...]
        func take(_ literal: String) -> Bool {
            guard rest.starts(with: literal.utf8) else { return false }
            rest = rest.dropFirst(literal.utf8.count)
            return true
        }
        func number() -> Int? {
            var value = 0, digits = 0
            while let byte = rest.first, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 4 {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                rest = rest.dropFirst()
            }
            return digits == 0 ? nil : value
        }
        let isBigEndian: Bool
        if take("le:") { isBigEndian = false } else if take("be:") { isBigEndian = true } else {
            throw malformed("it must start with \"le:\" or \"be:\"")
        }
        let isSigned: Bool
        if take("s") || take("S") { isSigned = true } else if take("u") || take("U") { isSigned = false } else {
            throw malformed("the sign must be s or u")
        }
        guard let realBits = number() else { throw malformed("the real bit count is missing") }
        guard take("/"), let storageBits = number() else { throw malformed("\"/\" and the storage bit count are missing") }
        var repeatCount = 1
        if take("X") {
            guard let count = number() else { throw malformed("the repeat count after X is missing") }
            repeatCount = count
        }
        guard take(">>"), let shift = number() else { throw malformed("\">>\" and the shift are missing") }
        guard rest.isEmpty else { throw malformed("unexpected text after the shift") }
        try self.init(storageBits: storageBits, realBits: realBits, shift: shift, isSigned: isSigned,
                      isBigEndian: isBigEndian, repeatCount: repeatCount)
    }

    public var description: String {
        Self.text(storageBits: storageBits, realBits: realBits, shift: shift, isSigned: isSigned, isBigEndian: isBigEndian, repeatCount: 1)
    }

    private static func text(storageBits: Int, realBits: Int, shift: Int, isSigned: Bool, isBigEndian: Bool, repeatCount: Int) -> String {
        (isBigEndian ? "be:" : "le:") + (isSigned ? "s" : "u") + "\(realBits)/\(storageBits)"
            + (repeatCount == 1 ? "" : "X\(repeatCount)") + ">>\(shift)"
    }

    /// The raw integer stored at `byteOffset` in `scan`: bytes assembled in the element's byte
    /// order, shifted right, masked to `realBits` and sign-extended when signed. No allocation.
    /// An unsigned 64-bit value above Int64.max comes back as its bit pattern (no motion sensor
    /// has one; the kernel's timestamp is signed).
    public func rawValue(in scan: UnsafeRawBufferPointer, at byteOffset: Int) -> Int64 {
        let count = storageBits / 8
        precondition(byteOffset >= 0 && byteOffset + count <= scan.count, "scan element outside the scan")
        var word: UInt64 = 0
        for position in 0..<count {
            let byte = UInt64(scan[byteOffset + (isBigEndian ? position : count - 1 - position)])
            word = word << 8 | byte
        }
        word >>= UInt64(shift)
        guard realBits < 64 else { return Int64(bitPattern: word) }
        let mask: UInt64 = (1 << UInt64(realBits)) - 1
        word &= mask
        if isSigned, word & (1 << UInt64(realBits - 1)) != 0 { word |= ~mask }
        return Int64(bitPattern: word)
    }
}

/// Where each enabled channel's value sits in one scan (one record of an IIO buffer), by the
/// kernel's rule (iio_compute_scan_bytes): elements in scan index order, each aligned to its own
/// storage size; the scan is padded to a multiple of the largest element. For the bmi160's
/// 3 × s16 accel + s64 timestamp: offsets 0, 2, 4, 8 and 16 bytes per scan.
public struct IIOScanLayout: Sendable, Equatable {
    public struct Element: Sendable, Equatable {
        /// The channel's `scan_elements/<channel>_index`.
        public let scanIndex: Int
        public let format: IIOScanFormat
        /// Bytes from the start of the scan.
        public let byteOffset: Int
    }

    /// The elements in the order the caller gave them (not necessarily scan index order).
    public let elements: [Element]
    /// Bytes per scan, padding included.
    public let scanBytes: Int

    /// Lays out the enabled channels; duplicate scan indices are an error.
    public init(_ channels: [(scanIndex: Int, format: IIOScanFormat)]) throws(IIOScanFormatError) {
        var offsets = [Int](repeating: 0, count: channels.count)
        var bytes = 0, largest = 1
        var previousIndex: Int?
        for position in channels.indices.sorted(by: { channels[$0].scanIndex < channels[$1].scanIndex }) {
            let (scanIndex, format) = channels[position]
            if scanIndex == previousIndex {
                throw IIOScanFormatError(problem: "two enabled scan elements have scan index \(scanIndex)")
            }
            previousIndex = scanIndex
            let size = format.storageBytes
            bytes = (bytes + size - 1) / size * size
            offsets[position] = bytes
            bytes += size
            largest = max(largest, size)
        }
        scanBytes = (bytes + largest - 1) / largest * largest
        elements = channels.indices.map { Element(scanIndex: channels[$0].scanIndex, format: channels[$0].format, byteOffset: offsets[$0]) }
    }

    /// The raw integer of `elements[element]` in `scan` (which starts at the scan's first byte).
    public func rawValue(_ element: Int, in scan: UnsafeRawBufferPointer) -> Int64 {
        let element = elements[element]
        return element.format.rawValue(in: scan, at: element.byteOffset)
    }
}
