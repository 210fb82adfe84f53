// What the kernel's IIO sysfs files hold, read as text by LinuxIIO: a scan element's
// `type` ("le:s12/16>>4"), a channel's id from its file name, a mount matrix. A driver or a
// device tree overlay writes them; a bug there must not become a crash here.
internal import LinuxIIO

enum IIOTargets {
    /// Lines of the input: the first lines up to an empty one are scan element types (a layout is
    /// built from those that parse, and every element read from the bytes after the empty line
    /// as scans); any other line is tried as a channel id and as a mount matrix.
    static func sysfs(_ bytes: UnsafeRawBufferPointer) {
        let blank = findBlankLine(bytes)
        let header = String(decoding: bytes[..<(blank ?? bytes.count)], as: UTF8.self)
        var formats: [(scanIndex: Int, format: IIOScanFormat)] = []
        for (index, line) in header.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = String(line)
            if let format = try? IIOScanFormat(parsing: text) {
                formats.append((scanIndex: index, format: format))
            }
            _ = IIOChannelKind.parse(channelID: text)
            if let matrix = MountMatrix(text: text) {
                _ = matrix.apply((1, -2, 3))
            }
        }
        guard let layout = try? IIOScanLayout(formats) else { return }
        fuzzCheck(layout.scanBytes >= 0, "a layout of \(layout.scanBytes) bytes")
        let scans = blank.map { UnsafeRawBufferPointer(rebasing: bytes[($0 + 2)...]) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
        guard layout.scanBytes > 0 else { return }
        var offset = 0
        while offset + layout.scanBytes <= scans.count {
            let scan = UnsafeRawBufferPointer(rebasing: scans[offset..<(offset + layout.scanBytes)])
            for element in layout.elements.indices {
                _ = layout.rawValue(element, in: scan)
            }
            offset += layout.scanBytes
        }
    }

    /// The index of the first "\n\n", if any.
    private static func findBlankLine(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= 2 else { return nil }
        for index in 0..<(bytes.count - 1) where bytes[index] == 0x0A && bytes[index + 1] == 0x0A {
            return index
        }
        return nil
    }
}
