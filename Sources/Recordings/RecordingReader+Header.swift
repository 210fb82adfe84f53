extension RecordingReader {
    /// Reads the signature line, the `# key: value` metadata lines and the column line.
    static func readHeader(_ lines: LineReader, path: String) throws(RecordingError) -> RecordingMetadata {
        func error(_ problem: String, advice: String? = nil) -> RecordingError {
            RecordingError(path: path, line: lines.lineNumber, problem: problem, advice: advice)
        }
        guard let first = try lines.nextLine() else {
            throw RecordingError(path: path, line: 1, problem: "the file is empty",
                                 advice: "A recording starts with the line \"\(signature)\".")
        }
        let firstText = String(decoding: UnsafeBufferPointer(first), as: UTF8.self)
        guard firstText == signature else {
            let shown = firstText.count > 60 ? String(firstText.prefix(60)) + "…" : firstText
            throw error("the first line is \"\(shown)\", not \"\(signature)\"",
                        advice: "This is not an OpenCoreMotion recording of format version 1.")
        }
        var metadata = RecordingMetadata()
        while let line = try lines.nextLine() {
            let text = String(decoding: UnsafeBufferPointer(line), as: UTF8.self)
            if text == columnLine { return metadata }
            guard text.hasPrefix("# ") else {
                throw error("expected a \"# key: value\" metadata line or the column line \"\(columnLine)\", found \"\(text.prefix(60))\"")
            }
            let body = text.dropFirst(2)
            guard let colon = body.firstIndex(of: ":") else {
                throw error("metadata line without \": \" between key and value: \"\(text.prefix(60))\"")
            }
            let key = body[..<colon]
            guard RecordingMetadata.isValidKey(key) else {
                throw error("metadata key \"\(key.prefix(40))\" may hold only lower-case letters, digits, '.', '_' and '-'")
            }
            let afterColon = body[body.index(after: colon)...]
            guard afterColon.isEmpty || afterColon.first == " " else {
                throw error("metadata line needs a space after \"\(key):\"")
            }
            metadata.entries.append(.init(key: String(key), value: String(afterColon.dropFirst())))
        }
        throw error("the file ends before the column line \"\(columnLine)\"",
                    advice: "The header is incomplete; the file may be truncated.")
    }
}
