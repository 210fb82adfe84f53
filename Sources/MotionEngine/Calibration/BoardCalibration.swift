import Glibc

/// What `motionctl calibrate` measured on a board, kept per board in
/// `$OCM_CALIBRATION_DIR` or `~/.config/opencoremotion/calibration/NAME.calibration`
/// (NAME: the board file's name), as `key = x y z` lines a person can read:
///
/// ```
/// # opencoremotion calibration of sim-mpu-9250.board
/// gyroscope-bias = 0.0012 -0.0031 0.0004      # rad/s, device axes
/// magnetometer-offset = 40.1 -24.8 10.3       # µT, device axes (hard iron)
/// ```
public struct BoardCalibration: Sendable, Equatable {
    /// rad/s, device axes, or nil when not measured.
    public var gyroscopeBias: [Double]?
    /// µT, device axes, or nil when not measured.
    public var magnetometerOffset: [Double]?

    public init(gyroscopeBias: [Double]? = nil, magnetometerOffset: [Double]? = nil) {
        self.gyroscopeBias = gyroscopeBias
        self.magnetometerOffset = magnetometerOffset
    }

    /// Where the calibration of the board file `boardPath` lives.
    public static func path(forBoard boardPath: String) -> String {
        let name = boardPath.split(separator: "/").last.map(String.init) ?? boardPath
        let base = name.hasSuffix(".board") ? String(name.dropLast(".board".count)) : name
        return folder + "/" + base + ".calibration"
    }

    static var folder: String {
        if let directory = getenv("OCM_CALIBRATION_DIR") { return String(cString: directory) }
        let home = getenv("HOME").map { String(cString: $0) } ?? "."
        return home + "/.config/opencoremotion/calibration"
    }

    /// The stored calibration, nil when there is none; a malformed file is an error naming its line.
    public static func load(path: String) throws(EngineError) -> BoardCalibration? {
        guard let file = fopen(path, "r") else {
            if errno == ENOENT { return nil }
            throw .calibration(path: path, line: nil, problem: "could not open it: \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var calibration = BoardCalibration()
        var buffer = [CChar](repeating: 0, count: 1024)
        var lineNumber = 0
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            lineNumber += 1
            let line = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            guard content.contains(where: { !$0.isWhitespace }) else { continue }
            let parts = content.split(separator: "=", maxSplits: 1)
            let key = parts.first.map { $0.filter { !$0.isWhitespace } } ?? ""
            let numbers = parts.count == 2 ? parts[1].split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { Double($0) } : []
            guard numbers.count == 3 else {
                throw .calibration(path: path, line: lineNumber, problem: "expected \"key = x y z\", found \"\(line.trimmingCharacters(in: " \t\n"))\"")
            }
            switch key {
            case "gyroscope-bias": calibration.gyroscopeBias = numbers
            case "magnetometer-offset": calibration.magnetometerOffset = numbers
            default: throw .calibration(path: path, line: lineNumber, problem: "unknown key \"\(key)\" (known: gyroscope-bias, magnetometer-offset)")
            }
        }
        return calibration
    }

    /// Writes the calibration (creating the folder), replacing the file atomically.
    public func save(path: String, board: String) throws(EngineError) {
        var folder = ""
        for component in path.split(separator: "/").dropLast() {
            folder += "/" + component
            if mkdir(folder, 0o755) != 0 && errno != EEXIST {
                throw .calibration(path: path, line: nil, problem: "could not create \(folder): \(String(cString: strerror(errno)))")
            }
        }
        var text = "# opencoremotion calibration of \(board)\n"
        func line(_ key: String, _ values: [Double]?, _ unit: String) {
            guard let values else { return }
            text += "\(key) = " + values.map { String($0) }.joined(separator: " ") + "      # \(unit), device axes\n"
        }
        line("gyroscope-bias", gyroscopeBias, "rad/s")
        line("magnetometer-offset", magnetometerOffset, "µT (hard iron)")
        let temporary = path + ".new"
        guard let file = fopen(temporary, "w") else {
            throw .calibration(path: path, line: nil, problem: "could not write it: \(String(cString: strerror(errno)))")
        }
        let written = fputs(text, file) >= 0
        if fclose(file) != 0 || !written || rename(temporary, path) != 0 {
            throw .calibration(path: path, line: nil, problem: "could not write it: \(String(cString: strerror(errno)))")
        }
    }
}
