/// The `# key: value` lines of a recording's header, in file order. Known keys: `device`,
/// `source`, `license`, `carry`, `subject`, `note`, `board`, `rate.acc`, `rate.gyr`, `rate.mag`,
/// `rate.baro`; unknown keys are kept.
public struct RecordingMetadata: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var key: String
        public var value: String

        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    public var entries: [Entry]

    public init(entries: [Entry] = []) { self.entries = entries }

    /// The first value of `key`; setting replaces it in place, appends a new key, or (nil)
    /// removes every entry of the key.
    public subscript(key: String) -> String? {
        get { entries.first { $0.key == key }?.value }
        set {
            guard let newValue else { entries.removeAll { $0.key == key }; return }
            if let index = entries.firstIndex(where: { $0.key == key }) {
                entries[index].value = newValue
            } else {
                entries.append(Entry(key: key, value: newValue))
            }
        }
    }

    /// Whether `key` is a valid metadata key: lower-case letters, digits, `.`, `_`, `-`.
    public static func isValidKey(_ key: some StringProtocol) -> Bool {
        !key.isEmpty && key.utf8.allSatisfy(isKeyByte)
    }

    static func isKeyByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }
}
