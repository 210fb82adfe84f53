import ArgumentParser
import MotionAlgorithms

/// `replay --step-setting NAME=VALUE`: the step detector's settings by name, so that
/// tools/benchmarks/loso.py can choose among variants on the training subjects of each fold
/// without a rebuild. Each value is the setting's own unit (see `StepDetector`).
enum StepSettings {
    static var settings: KeyValuePairs<String, WritableKeyPath<StepDetector, Int>> { [
        "confirmation-steps": \.confirmationSteps,
        "confirm-correlation": \.confirmCorrelation,
        "keep-correlation": \.keepCorrelation,
        "confirm-vertical-share": \.confirmVerticalShare,
        "keep-vertical-share": \.keepVerticalShare,
        "steady-steps": \.steadySteps,
        "steady-stride-percent": \.steadyStridePercent,
        "steady-vertical-share": \.steadyVerticalShare,
        "thigh-vertical-share": \.thighVerticalShare,
        "thigh-rotation-rate": \.thighRotationRate,
        "limb-swing-rate": \.limbSwingRate,
        "vibration-ratio-percent": \.vibrationRatioPercent,
    ] }

    /// The detector's on/off switches, given as 1 or 0.
    static var switches: KeyValuePairs<String, WritableKeyPath<StepDetector, Bool>> { [
        "rhythm-keeps": \.rhythmKeeps,
        "gap-keeps-rhythm": \.gapKeepsRhythm,
    ] }

    static var names: String { (settings.map(\.key) + switches.map(\.key)).joined(separator: ", ") }

    /// A detector with `assignments` (NAME=VALUE) applied, or a usage error naming the bad one.
    static func detector(_ assignments: [String]) throws -> StepDetector {
        var detector = StepDetector()
        for assignment in assignments {
            let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let value = Int(parts[1]) else {
                throw ValidationError("--step-setting \(assignment): expected NAME=INTEGER, e.g. steady-steps=8")
            }
            if let path = settings.first(where: { $0.key == parts[0] })?.value {
                detector[keyPath: path] = value
            } else if let path = switches.first(where: { $0.key == parts[0] })?.value {
                guard value == 0 || value == 1 else {
                    throw ValidationError("--step-setting \(assignment): \(parts[0]) is a switch: 1 (on) or 0 (off)")
                }
                detector[keyPath: path] = value == 1
            } else {
                throw ValidationError("--step-setting \(assignment): no setting \(parts[0]); known: \(names)")
            }
        }
        return detector
    }
}
