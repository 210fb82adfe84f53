import Chips
import Glibc

/// What `motionctl calibrate` measured on a board (and what the online magnetometer calibration
/// learned, see `OnlineCalibrationSaver`), kept per board in `$OCM_CALIBRATION_DIR` or
/// `~/.config/opencoremotion/calibration/NAME.calibration` (NAME: the board file's name), as
/// `key = numbers` lines a person can read. Every key is optional; all are in device axes:
///
/// ```
/// # opencoremotion calibration of sim-mpu-9250.board
/// gyroscope-bias = 0.0012 -0.0031 0.0004                 # rad/s
/// accelerometer-offset = 0.21 -0.12 0.35                 # m/s²
/// accelerometer-scale = 0.998 1.003 0.991                # factor
/// magnetometer-offset = 40.1 -24.8 10.3                  # µT (hard iron)
/// magnetometer-offset-uncertainty = 0.6                  # µT, 1σ of the worst axis
/// magnetic-field-strength = 48.2                         # µT, the Earth's field it left
/// magnetometer-soft-iron = 1.02 0.97 1.01 0.01 0 -0.02   # factor: xx yy zz xy xz yz
/// bno055-profile imu = -12 25 3 480 -320 96 -2 1 0 1000 737   # the BNO055's own registers
/// ```
///
/// `bno055-profile LABEL` is the one exception to device axes and SI units: the calibration
/// profile a BNO055 (the board file's `[chip LABEL]`) learned by itself, its eleven registers
/// 0x55…0x6A as they read (chip axes; accelerometer offset in 0.01 m/s², magnetometer in 1/16 µT,
/// gyroscope in 1/900 rad/s, then the accelerometer's and magnetometer's radii, BST-BNO055-DS000-14
/// §3.6.4). The chip loses it at power-off; it is written back before the chip starts.
///
/// How the engine applies them (`DeviceMotionEstimator`): rate − bias; accelerometer
/// scale ⊙ (raw − offset) (per axis); magnetometer S (raw − offset), S the symmetric soft-iron
/// matrix (identity when absent), then the online calibration goes on from there.
public struct BoardCalibration: Sendable, Equatable {
    /// rad/s, or nil when not measured.
    public var gyroscopeBias: [Double]?
    /// m/s² (what the accelerometer reads when it feels nothing), or nil.
    public var accelerometerOffset: [Double]?
    /// Per-axis factor applied after removing the offset (1: the chip's own sensitivity is right), or nil.
    public var accelerometerScale: [Double]?
    /// µT (hard iron), or nil.
    public var magnetometerOffset: [Double]?
    /// 1σ of the offset's worst axis, µT: how well it is known, so that a later estimate
    /// replaces it only when it is better. Nil when the file does not say.
    public var magnetometerOffsetUncertainty: Double?
    /// The strength of the field the offset left (the Earth's where the board was used), µT, or
    /// nil: the next start checks its offset against it (`DeviceMotionEstimator`).
    public var magneticFieldStrength: Double?
    /// The strengths a `magnetic-field-strength` may have, µT: the geomagnetic field is 22–67 µT
    /// everywhere; indoors a little wider.
    static let magneticFieldStrengths: ClosedRange<Double> = 10...100
    /// The symmetric soft-iron matrix S as (xx, yy, zz, xy, xz, yz), a factor, determinant 1
    /// (it reshapes, it does not rescale, the field), or nil.
    public var magnetometerSoftIron: [Double]?
    /// Per BNO055 (by its board-file label): its calibration profile's eleven register values.
    public var bno055Profiles: [String: [Int16]] = [:]

    public init(gyroscopeBias: [Double]? = nil, accelerometerOffset: [Double]? = nil, accelerometerScale: [Double]? = nil,
                magnetometerOffset: [Double]? = nil, magnetometerOffsetUncertainty: Double? = nil, magneticFieldStrength: Double? = nil,
                magnetometerSoftIron: [Double]? = nil) {
        self.gyroscopeBias = gyroscopeBias
        self.accelerometerOffset = accelerometerOffset
        self.accelerometerScale = accelerometerScale
        self.magnetometerOffset = magnetometerOffset
        self.magnetometerOffsetUncertainty = magnetometerOffsetUncertainty
        self.magneticFieldStrength = magneticFieldStrength
        self.magnetometerSoftIron = magnetometerSoftIron
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
        var calibration = BoardCalibration()
        let found = try readSettingsLines(path: path) { line throws(SettingsLineError) in try calibration.parse(line) }
        return found ? calibration : nil
    }

    /// One line: a comment, a blank, or `key = numbers` (see the type's documentation).
    mutating func parse(_ line: String) throws(SettingsLineError) {
        let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard content.contains(where: { !$0.isWhitespace }) else { return }
        let parts = content.split(separator: "=", maxSplits: 1)
        let leftWords = parts.first?.split(whereSeparator: { $0 == " " || $0 == "\t" }) ?? []
        if leftWords.first.map(String.init) == Self.bno055ProfileKey {
            try parseBNO055Profile(label: leftWords.count == 2 ? String(leftWords[1]) : nil, parts.count == 2 ? parts[1] : "",
                                   line: line.trimmingCharacters(in: " \t\n\r"))
            return
        }
        let key = parts.first.map { $0.filter { !$0.isWhitespace } } ?? ""
        let found = line.trimmingCharacters(in: " \t\n\r")
        guard let layout = Self.keys.first(where: { $0.name == key }) else {
            let known = Self.keys.map(\.name).joined(separator: ", ")
            throw SettingsLineError(problem: parts.count == 2 ? "unknown key \"\(key)\" (known: \(known))"
                                                                 : "expected \"key = numbers\" (keys: \(known)), found \"\(found)\"")
        }
        let words = parts.count == 2 ? parts[1].split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }) : []
        let numbers = words.compactMap { Double($0) }.filter(\.isFinite)
        guard numbers.count == words.count, numbers.count == layout.count else {
            throw SettingsLineError(problem: "expected \"\(layout.format)\", found \"\(found)\"")
        }
        if let limits = layout.limits, let outside = numbers.first(where: { !limits.contains($0) }) {
            throw SettingsLineError(problem: "\(key) \(outside) is outside \(limits.lowerBound)…\(limits.upperBound), which no working \(layout.sensor) needs: \"\(found)\"")
        }
        switch key {
        case "gyroscope-bias": gyroscopeBias = numbers
        case "accelerometer-offset": accelerometerOffset = numbers
        case "accelerometer-scale": accelerometerScale = numbers
        case "magnetometer-offset": magnetometerOffset = numbers
        case "magnetometer-offset-uncertainty": magnetometerOffsetUncertainty = numbers[0]
        case "magnetic-field-strength": magneticFieldStrength = numbers[0]
        default: magnetometerSoftIron = numbers  // "magnetometer-soft-iron", the last of `keys`
        }
    }

    static let bno055ProfileKey = "bno055-profile"

    /// `bno055-profile LABEL = eleven integers` within the datasheet's ranges.
    private mutating func parseBNO055Profile(label: String?, _ text: Substring, line: String) throws(SettingsLineError) {
        let format = "bno055-profile LABEL = eleven integers (the chip's registers 0x55…0x6A)"
        guard let label else { throw SettingsLineError(problem: "expected \"\(format)\", found \"\(line)\"") }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        let values = words.compactMap { Int16($0) }
        guard values.count == 11, words.count == 11 else { throw SettingsLineError(problem: "expected \"\(format)\", found \"\(line)\"") }
        guard BNO055CalibrationProfile(values: values)?.isPlausible == true else {
            throw SettingsLineError(problem: "\(Self.bno055ProfileKey) \(label) is outside the BNO055's offset and radius ranges, which no working BNO055 needs: \"\(line)\"")
        }
        bno055Profiles[label] = values
    }

    /// Every key: its name, how many numbers, how a line looks, the unit written beside it, and
    /// the plausible range of each number (a typo such as a scale of 0 or 10 is caught on load).
    static let keys: [(name: String, count: Int, format: String, unit: String, sensor: String, limits: ClosedRange<Double>?)] = [
        ("gyroscope-bias", 3, "key = x y z", "rad/s, device axes", "gyroscope", nil),
        ("accelerometer-offset", 3, "key = x y z", "m/s², device axes", "accelerometer", -20...20),
        ("accelerometer-scale", 3, "key = x y z", "factor, device axes", "accelerometer", 0.5...2),
        ("magnetometer-offset", 3, "key = x y z", "µT (hard iron), device axes", "magnetometer", nil),
        ("magnetometer-offset-uncertainty", 1, "magnetometer-offset-uncertainty = µT", "µT, 1σ of the worst axis, device axes", "magnetometer", 0...1000),
        ("magnetic-field-strength", 1, "magnetic-field-strength = µT", "µT, the field strength the offset left", "magnetometer",
         magneticFieldStrengths),
        ("magnetometer-soft-iron", 6, "magnetometer-soft-iron = xx yy zz xy xz yz", "factor, symmetric matrix: xx yy zz xy xz yz, device axes", "magnetometer", -2...2),
    ]

    /// The file's text: a header naming the board, then one line per key present.
    func text(board: String) -> String {
        var text = "# opencoremotion calibration of \(board)\n"
        let values: [[Double]?] = [gyroscopeBias, accelerometerOffset, accelerometerScale, magnetometerOffset,
                                   magnetometerOffsetUncertainty.map { [$0] }, magneticFieldStrength.map { [$0] }, magnetometerSoftIron]
        for (key, values) in zip(Self.keys, values) {
            guard let values else { continue }
            text += "\(key.name) = " + values.map { String($0) }.joined(separator: " ") + "      # \(key.unit)\n"
        }
        for (label, values) in bno055Profiles.sorted(by: { $0.key < $1.key }) {
            text += "\(Self.bno055ProfileKey) \(label) = " + values.map { String($0) }.joined(separator: " ")
                + "      # the BNO055's registers 0x55…0x6A, chip axes and units\n"
        }
        return text
    }

    /// Writes the calibration (creating the folder), replacing the file atomically
    /// (`replaceFileAtomically`).
    public func save(path: String, board: String) throws(EngineError) {
        try replaceFileAtomically(path: path, text: text(board: board))
    }
}
