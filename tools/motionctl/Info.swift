import ArgumentParser
import MotionEngine

/// `motionctl info RECORDING`: what a recording holds.
struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a recording's metadata and, per sensor, its samples, rate, gaps and value ranges.")

    @Argument(help: "A recording (.csv or .csv.gz).")
    var recording: String

    @Flag(help: "Skip rows of sensor kinds this version does not know, instead of stopping.")
    var skipUnknownSensors = false

    func run() throws {
        let playback = try RecordingPlayback(path: recording, skipUnknownSensors: skipUnknownSensors)
        for entry in playback.metadata.entries { print("\(entry.key): \(entry.value)") }
        try playback.run()
        print("")
        print(SummaryReport(playback: playback).table())
        if playback.skippedUnknownSensorRows > 0 {
            print("skipped \(playback.skippedUnknownSensorRows) rows of unknown sensor kinds")
        }
    }
}
