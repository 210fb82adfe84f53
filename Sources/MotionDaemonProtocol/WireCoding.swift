/// The primitive encodings of the daemon's wire protocol (PROTOCOL.md, "Primitives"): every
/// integer little-endian and fixed width; a Float64 as its IEEE 754 bits (u64); a string as a
/// u16 byte count and that many bytes of UTF-8; a list as a u32 count and its elements.
/// Standard library only, so both the daemon and any client can link it.
public struct WireWriter {
    public private(set) var bytes: [UInt8]

    public init(reservingCapacity capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public mutating func u8(_ value: UInt8) { bytes.append(value) }

    public mutating func u16(_ value: UInt16) { fixed(UInt64(value), byteCount: 2) }

    public mutating func u32(_ value: UInt32) { fixed(UInt64(value), byteCount: 4) }

    public mutating func u64(_ value: UInt64) { fixed(value, byteCount: 8) }

    public mutating func i64(_ value: Int64) { fixed(UInt64(bitPattern: value), byteCount: 8) }

    public mutating func f64(_ value: Double) { fixed(value.bitPattern, byteCount: 8) }

    /// An optional Double: nil is sent as NaN (no field that can be nil is ever NaN otherwise).
    public mutating func optionalF64(_ value: Double?) { f64(value ?? .nan) }

    /// An optional count: nil is sent as −1 (i32).
    public mutating func optionalCount(_ value: Int?) {
        fixed(UInt64(UInt32(bitPattern: Int32(clamping: value ?? -1))), byteCount: 4)
    }

    /// A string: its UTF-8 cut to 65 535 bytes (at a character boundary), after a u16 count.
    public mutating func string(_ value: String) {
        var utf8 = Array(value.utf8)
        if utf8.count > Int(UInt16.max) {
            utf8 = Array(utf8.prefix(Int(UInt16.max)))
            while let last = utf8.last, last & 0xC0 == 0x80 { utf8.removeLast() }  // a cut continuation byte
            if let last = utf8.last, last >= 0xC0 { utf8.removeLast() }           // its lead byte
        }
        u16(UInt16(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// A list's u32 count (the elements follow, written by the caller).
    public mutating func count(_ value: Int) { u32(UInt32(clamping: value)) }

    private mutating func fixed(_ value: UInt64, byteCount: Int) {
        for index in 0..<byteCount { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(8 * index))) }
    }
}

/// Reads what `WireWriter` wrote from one frame's body; every read throws `ProtocolError` past
/// the end, so a short or lying frame is an error and never a half-read value.
public struct WireReader {
    private let bytes: [UInt8]
    private var offset = 0
    /// The message being decoded, for errors ("welcome: …").
    private let message: String

    public init(_ bytes: [UInt8], message: String) {
        self.bytes = bytes
        self.message = message
    }

    public var isAtEnd: Bool { offset == bytes.count }
    public var remaining: Int { bytes.count - offset }

    public mutating func u8(_ field: String) throws(ProtocolError) -> UInt8 {
        UInt8(try fixed(field, byteCount: 1))
    }

    public mutating func u16(_ field: String) throws(ProtocolError) -> UInt16 {
        UInt16(try fixed(field, byteCount: 2))
    }

    public mutating func u32(_ field: String) throws(ProtocolError) -> UInt32 {
        UInt32(try fixed(field, byteCount: 4))
    }

    public mutating func u64(_ field: String) throws(ProtocolError) -> UInt64 {
        try fixed(field, byteCount: 8)
    }

    public mutating func i64(_ field: String) throws(ProtocolError) -> Int64 {
        Int64(bitPattern: try fixed(field, byteCount: 8))
    }

    public mutating func f64(_ field: String) throws(ProtocolError) -> Double {
        Double(bitPattern: try fixed(field, byteCount: 8))
    }

    public mutating func optionalF64(_ field: String) throws(ProtocolError) -> Double? {
        let value = try f64(field)
        return value.isNaN ? nil : value
    }

    public mutating func optionalCount(_ field: String) throws(ProtocolError) -> Int? {
        let value = Int32(bitPattern: UInt32(try fixed(field, byteCount: 4)))
        return value < 0 ? nil : Int(value)
    }

    public mutating func string(_ field: String) throws(ProtocolError) -> String {
        let length = Int(try u16(field))
        guard remaining >= length else { throw .truncated(message: message, field: field) }
        let utf8 = bytes[offset..<offset + length]
        offset += length
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw ProtocolError(.malformed, "\(message): \(field) is not valid UTF-8")
        }
        return text
    }

    /// A list's count, checked against the bytes left (each element takes at least
    /// `minimumElementSize`), so a lying count fails here instead of allocating.
    public mutating func count(_ field: String, minimumElementSize: Int) throws(ProtocolError) -> Int {
        let value = Int(try u32(field))
        guard value <= remaining / max(1, minimumElementSize) else {
            throw ProtocolError(.malformed, "\(message): \(field) says \(value) elements, but only \(remaining) bytes follow")
        }
        return value
    }

    /// A list: its count (checked as `count` does), then each element as `element` reads it.
    public mutating func list<Element>(_ field: String, minimumElementSize: Int,
                                       _ element: (inout WireReader) throws(ProtocolError) -> Element) throws(ProtocolError) -> [Element] {
        let count = try count(field, minimumElementSize: minimumElementSize)
        var elements: [Element] = []
        elements.reserveCapacity(count)
        for _ in 0..<count { elements.append(try element(&self)) }
        return elements
    }

    /// An enumeration's raw byte, mapped by `make` (nil: not a value this version knows).
    public mutating func enumeration<T>(_ field: String, _ make: (UInt8) -> T?) throws(ProtocolError) -> T {
        let raw = try u8(field)
        guard let value = make(raw) else { throw ProtocolError(.malformed, "\(message): \(field) has the unknown value \(raw)") }
        return value
    }

    /// Throws unless the whole body was read (a longer body is a different protocol, not padding).
    public func finish() throws(ProtocolError) {
        guard isAtEnd else { throw ProtocolError(.malformed, "\(message): \(remaining) bytes left over after its last field") }
    }

    private mutating func fixed(_ field: String, byteCount: Int) throws(ProtocolError) -> UInt64 {
        guard remaining >= byteCount else { throw .truncated(message: message, field: field) }
        var value: UInt64 = 0
        for index in 0..<byteCount { value |= UInt64(bytes[offset + index]) << UInt64(8 * index) }
        offset += byteCount
        return value
    }
}
