import Glibc

/// The user's pedometer settings, kept beside the board calibrations in
/// `$OCM_CALIBRATION_DIR` or `~/.config/opencoremotion/calibration/pedometer.profile`, as lines a
/// person can read and edit:
///
/// ```
/// height-cm = 182          # the user's height
/// stride-scale = 1.043     # from `motionctl calibrate stride` (1 = the published model)
/// ```
/// Live pedometers (the Swift and C APIs, `motionctl stream --pedometer`) start from it.
public struct PedometerProfile: Sendable, Equatable {
    /// cm.
    public var heightCentimeters: Double = 170
    /// Per-user correction of the stride model.
    public var strideScale: Double = 1

    public init(heightCentimeters: Double = 170, strideScale: Double = 1) {
        self.heightCentimeters = heightCentimeters
        self.strideScale = strideScale
    }

    /// The stride model these settings give.
    public var stride: StrideModel { StrideModel(heightMeters: heightCentimeters / 100, scale: strideScale) }

    public static var path: String { BoardCalibration.folder + "/pedometer.profile" }

    /// The stored profile, or the defaults when there is none; a malformed file is an error
    /// naming its line.
    public static func load(path: String = PedometerProfile.path) throws(EngineError) -> PedometerProfile {
        var profile = PedometerProfile()
        _ = try readSettingsLines(path: path) { line throws(SettingsLineError) in try profile.parse(line) }
        return profile
    }

    /// One line: a comment, a blank, or `key = number`.
    mutating func parse(_ line: String) throws(SettingsLineError) {
        let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard content.contains(where: { !$0.isWhitespace }) else { return }
        let parts = content.split(separator: "=", maxSplits: 1).map { $0.filter { !$0.isWhitespace } }
        guard parts.count == 2, let value = Double(parts[1]) else {
            throw SettingsLineError(problem: "expected \"key = number\"")
        }
        switch parts[0] {
        case "height-cm" where (50...250).contains(value): heightCentimeters = value
        case "stride-scale" where (0.5...2).contains(value): strideScale = value
        case "height-cm", "stride-scale":
            throw SettingsLineError(problem: "\(parts[0]) \(value) is out of range (height-cm 50…250, stride-scale 0.5…2); fix it or run `motionctl calibrate stride` again")
        default:
            throw SettingsLineError(problem: "unknown key \"\(parts[0])\" (known: height-cm, stride-scale)")
        }
    }

    /// Stores the profile atomically.
    public func save(path: String = PedometerProfile.path) throws(EngineError) {
        let text = "# opencoremotion pedometer profile\n"
            + "height-cm = \(heightCentimeters)          # the user's height\n"
            + "stride-scale = \(strideScale)      # from motionctl calibrate stride (1 = the published model)\n"
        try replaceFileAtomically(path: path, text: text)
    }
}
