import Glibc

/// What is wrong with one line of a settings file (board calibration, pedometer profile), for
/// `readSettingsLines` to place in its file.
struct SettingsLineError: Error {
    let problem: String
}

/// Reads the text file at `path` line by line into `parse`; false when there is no such file.
/// A file that cannot be opened, or a line `parse` rejects, is an error naming the file and the
/// line.
func readSettingsLines(path: String, _ parse: (String) throws(SettingsLineError) -> Void) throws(EngineError) -> Bool {
    guard let file = fopen(path, "r") else {
        if errno == ENOENT { return false }
        throw .calibration(path: path, line: nil, problem: "could not open it: \(String(cString: strerror(errno)))")
    }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 1024)
    var lineNumber = 0
    while fgets(&buffer, Int32(buffer.count), file) != nil {
        lineNumber += 1
        let line = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        do throws(SettingsLineError) {
            try parse(line)
        } catch {
            throw .calibration(path: path, line: lineNumber, problem: error.problem)
        }
    }
    return true
}
