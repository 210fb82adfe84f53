import Glibc

/// Parsing of one row's fields straight from the line buffer: no String, no allocation.
enum FieldParsing {
    /// Parses `t` (decimal seconds, optional sign, up to 9 fraction digits) into nanoseconds,
    /// exactly. nil when the text is not such a number or does not fit in Int64 nanoseconds.
    static func parseTimestamp(_ bytes: UnsafeMutableBufferPointer<UInt8>, _ range: Range<Int>) -> Int64? {
        var index = range.lowerBound
        var negative = false
        if index < range.upperBound, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var seconds: Int64 = 0
        var integerDigits = 0
        while index < range.upperBound, let digit = digitValue(bytes[index]) {
            // 9 223 372 036 s fit in Int64 nanoseconds; refuse anything with more digits than that.
            guard integerDigits < 10 else { return nil }
            seconds = seconds * 10 + digit
            integerDigits += 1
            index += 1
        }
        var nanoseconds: Int64 = 0
        var fractionDigits = 0
        if index < range.upperBound, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < range.upperBound, let digit = digitValue(bytes[index]) {
                guard fractionDigits < 9 else { return nil }
                nanoseconds = nanoseconds * 10 + digit
                fractionDigits += 1
                index += 1
            }
        }
        guard index == range.upperBound, integerDigits + fractionDigits > 0 else { return nil }
        for _ in fractionDigits..<9 { nanoseconds *= 10 }
        let (total, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow, total <= Int64.max - nanoseconds else { return nil }
        return negative ? -(total + nanoseconds) : total + nanoseconds
    }

    /// Parses a finite decimal number (`-9.81`, `1.5e-3`, `.5`): the syntax is checked here, the
    /// conversion is glibc's correctly rounded `strtod`. nil for anything else, including
    /// `nan`, `inf` and values that overflow a Double.
    static func parseNumber(_ bytes: UnsafeMutableBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        guard isDecimalNumber(bytes, range) else { return nil }
        // strtod needs a NUL after the number: the buffer always has a byte after the line
        // (LineReader allocates one extra), and the byte after a field is its comma or that
        // byte; restore it afterwards.
        let terminator = range.upperBound
        let saved = bytes.baseAddress![terminator]
        bytes.baseAddress![terminator] = 0
        defer { bytes.baseAddress![terminator] = saved }
        let value = bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: terminator + 1) {
            strtod($0 + range.lowerBound, nil)
        }
        return value.isFinite ? value : nil
    }

    private static func isDecimalNumber(_ bytes: UnsafeMutableBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var index = range.lowerBound
        if index < range.upperBound, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
        var mantissaDigits = 0
        while index < range.upperBound, digitValue(bytes[index]) != nil { index += 1; mantissaDigits += 1 }
        if index < range.upperBound, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < range.upperBound, digitValue(bytes[index]) != nil { index += 1; mantissaDigits += 1 }
        }
        guard mantissaDigits > 0 else { return false }
        if index < range.upperBound, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < range.upperBound, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
            var exponentDigits = 0
            while index < range.upperBound, digitValue(bytes[index]) != nil { index += 1; exponentDigits += 1 }
            guard exponentDigits > 0 else { return false }
        }
        return index == range.upperBound
    }

    @inline(__always)
    static func digitValue(_ byte: UInt8) -> Int64? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int64(byte - UInt8(ascii: "0")) : nil
    }

    /// Whether the bytes in `range` equal `text` (ASCII).
    static func equals(_ bytes: UnsafeMutableBufferPointer<UInt8>, _ range: Range<Int>, _ text: StaticString) -> Bool {
        guard range.count == text.utf8CodeUnitCount else { return false }
        let expected = text.utf8Start
        for offset in 0..<range.count where bytes[range.lowerBound + offset] != expected[offset] { return false }
        return true
    }

    /// The text of a field for an error message (at most 40 characters, invalid UTF-8 repaired).
    static func text(_ bytes: UnsafeMutableBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        let shown = range.lowerBound..<min(range.upperBound, range.lowerBound + 40)
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[shown]), as: UTF8.self)
        return shown.count < range.count ? text + "…" : text
    }
}
