import Glibc

/// Replaces the text file at `path` atomically, creating its folder: a reader (an engine
/// starting) sees the old file or the new one, never half of one, even if the power fails while
/// writing (the text reaches the disk before the rename). Used for the per-board calibration and
/// the user's pedometer profile.
func replaceFileAtomically(path: String, text: String) throws(EngineError) {
    var folder = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/").dropLast() {
        folder += "/" + component
        if mkdir(folder, 0o755) != 0 && errno != EEXIST {
            throw .calibration(path: path, line: nil, problem: "could not create \(folder): \(String(cString: strerror(errno)))")
        }
    }
    // Per process: two engines saving at once each write their own temporary file.
    let temporary = path + ".new.\(getpid())"
    guard let file = fopen(temporary, "w") else {
        throw .calibration(path: path, line: nil, problem: "could not write it: \(String(cString: strerror(errno)))")
    }
    let written = fputs(text, file) >= 0 && fflush(file) == 0 && fsync(fileno(file)) == 0
    if fclose(file) != 0 || !written || rename(temporary, path) != 0 {
        let reason = String(cString: strerror(errno))
        unlink(temporary)
        throw .calibration(path: path, line: nil, problem: "could not write it: \(reason)")
    }
}
