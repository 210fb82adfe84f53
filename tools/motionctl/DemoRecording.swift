import Foundation
import MotionEngine
import Recordings

/// What the demo plays: a board file whose emulated chips feel a recording named on the command
/// line (not the board file's own), what that recording holds, and its labels.
///
/// Both paths are explicit, relative to the working directory: the demo does not look for the
/// repository or a default board, so it plays exactly what `tools/setup.sh demo` names.
struct DemoRecording {
    let board: BoardDescription
    let recordingPath: String
    /// The sensors the recording has rows for: an emulated chip reads zero (gyroscope) or a
    /// constant typical field (magnetometer) for any it lacks, so the demo shows only what is real.
    let sensors: Set<SensorKind>
    /// Recording time from the first row to the last, ns.
    let durationNanoseconds: Int64
    let metadata: RecordingMetadata
    let truth: DemoTruth?

    init(boardPath: String, recordingPath: String, truthPath: String?) throws {
        let recording = Self.absolute(recordingPath)
        guard FileManager.default.fileExists(atPath: recording) else {
            throw DemoError("There is no recording at \(Self.shown(recordingPath)). "
                            + "Run the demo from the repository root, or give --recording PATH to a recording (ocm-recording format).")
        }
        guard FileManager.default.fileExists(atPath: Self.absolute(boardPath)) else {
            throw DemoError("There is no board file at \(Self.shown(boardPath)). "
                            + "Run the demo from the repository root, or give --board PATH to a simulated board's file (boards/sim-*.board).")
        }
        var board = try BoardDescription.load(path: Self.absolute(boardPath))
        // Every emulated chip that feels motion feels the named recording instead of the file's.
        var replaced = false
        for index in board.chips.indices where board.chips[index].bus == .emulated && board.chips[index].motionRecording != nil {
            board.chips[index].motionRecording = recording
            replaced = true
        }
        guard replaced else {
            throw DemoError("\(boardPath) has no emulated chip that feels a recording (a `motion = ` line), so it cannot play \(recordingPath). "
                            + "Use a simulated board such as boards/sim-sense-hat.board.")
        }
        self.board = board
        self.recordingPath = recording
        // One pass over the rows first: which sensors are real, and how long the walk lasts.
        let reader = try RecordingReader(path: recording, options: .init(skipUnknownSensors: true))
        var sensors = Set<SensorKind>()
        var first: Int64?, last: Int64 = 0
        while let sample = try reader.next() {
            sensors.insert(sample.sensor)
            first = first ?? sample.timestampNanoseconds
            last = sample.timestampNanoseconds
        }
        self.sensors = sensors
        durationNanoseconds = last - (first ?? last)
        metadata = reader.metadata
        let labels = truthPath.map(Self.absolute) ?? Self.sidecar(of: recording)
        truth = FileManager.default.fileExists(atPath: labels) ? try DemoTruth(path: labels, firstSampleNanoseconds: first ?? 0) : nil
        if truthPath != nil && truth == nil {
            throw DemoError("There is no labels file at \(truthPath!): give the recording's .json sidecar, or leave --truth out.")
        }
    }

    var name: String { URL(fileURLWithPath: recordingPath).lastPathComponent.replacingOccurrences(of: ".csv.gz", with: "") }

    /// `walk.csv.gz` → `walk.json`, where tools/datasets/bundle_test_recordings.py puts the labels.
    private static func sidecar(of recording: String) -> String {
        var base = recording
        for suffix in [".gz", ".csv"] where base.hasSuffix(suffix) { base.removeLast(suffix.count) }
        return base + ".json"
    }

    /// A path as a message gives it: a relative one with the folder it was looked for in.
    private static func shown(_ path: String) -> String {
        path.hasPrefix("/") ? path : "\(path) (looked in \(FileManager.default.currentDirectoryPath))"
    }

    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}

/// A problem the person running the demo can fix: what happened and what to do, in one message.
struct DemoError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
