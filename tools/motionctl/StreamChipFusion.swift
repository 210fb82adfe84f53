import ArgumentParser
import Foundation
import Chips
import MotionEngine

extension Stream {
    /// `stream --chip-fusion`: what the board's fusion chips compute themselves, at `--interval`
    /// (0.1 s by default) per chip: attitude as roll, pitch, yaw (Core Motion's definitions, in
    /// the chip's own reference frame), the chip's accuracy, steps, activity and stability
    /// (BNO08x), calibration status sys/gyr/acc/mag (BNO055). What a chip lacks prints as "-".
    func streamChipFusion(_ runtime: BoardRuntime, _ description: BoardDescription) throws {
        guard description.chips.contains(where: \.chipFusion) else {
            let fusing = description.chips.filter { BoardFileParser.fusingDrivers.contains($0.driver) }.map { "[chip \($0.label)]" }
            throw ValidationError("\(board) asks no chip for its own fusion: "
                + (fusing.isEmpty ? "it has no BNO08x or BNO055" : "add \"chip-fusion = on\" to \(fusing.joined(separator: ", "))"))
        }
        let every = Int64((interval > 0 ? interval : 0.1) * 1e9)
        var next: [String: Int64] = [:]
        print("       t s  chip      roll°   pitch°    yaw°  acc  ±heading°  steps  activity (confidence)   stability    calib sys/gyr/acc/mag")
        runtime.onChipFusion = { fusion in
            guard fusion.timestampNanoseconds >= next[fusion.label, default: .min] else { return }
            next[fusion.label] = fusion.timestampNanoseconds + every
            print(Self.format(fusion))
        }
        try runtime.run(untilNanoseconds: playback.durationNanoseconds) { _ in }
        if status { printStatus(runtime) }
    }

    static func format(_ fusion: ChipFusionReading) -> String {
        let angles = fusion.attitude.eulerAngles
        let degrees = 180 / Double.pi
        let activity = fusion.activity.map { "\($0) (\(fusion.activityConfidence ?? 0) %)" } ?? "-"
        let calibration = fusion.calibration.map { "\($0.system)/\($0.gyroscope)/\($0.accelerometer)/\($0.magnetometer)" } ?? "-"
        func column(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
        return String(format: "%10.3f  ", Double(fusion.timestampNanoseconds) / 1e9) + fusion.label.padding(toLength: 8, withPad: " ", startingAt: 0)
            + String(format: "%7.1f %8.1f %7.1f  ", angles.roll.doubleValue * degrees, angles.pitch.doubleValue * degrees, angles.yaw.doubleValue * degrees)
            + column(fusion.attitudeAccuracy.map { "\($0)" } ?? "-", 3) + "  "
            + column(fusion.headingAccuracy.map { String(format: "%.1f", $0.doubleValue * degrees) } ?? "-", 9) + "  "
            + column(fusion.steps.map { "\($0)" } ?? "-", 5) + "  "
            + activity.padding(toLength: 24, withPad: " ", startingAt: 0)
            + (fusion.stability.map { "\($0)" } ?? "-").padding(toLength: 13, withPad: " ", startingAt: 0) + calibration
    }
}
