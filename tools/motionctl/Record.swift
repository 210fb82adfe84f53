import ArgumentParser
import Foundation
import MotionEngine
import Recordings

/// `motionctl record --out FILE`: writes what a board delivers in the recording format.
struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record a board's samples to a recording file (.csv or .csv.gz).",
        discussion: """
            For now the board is the simulated one, replaying --from (default: the bundled demo
            recording); hardware boards come with the hardware layer. The output's metadata
            says where the samples came from.
            """)

    @Option(name: .long, help: "The file to write (.csv.gz compresses).")
    var out: String

    @Option(name: .long, help: "The recording the simulated board replays.")
    var from: String = SimulatedBoard.defaultRecordingPath

    @Option(help: "Playback speed of the simulated board: 1 is real time, 0 as fast as possible.")
    var speed: Double = 1

    @Option(help: "Stop after this many seconds (default: until the source ends).")
    var duration: Double?

    func validate() throws {
        guard speed >= 0, speed.isFinite else { throw ValidationError("--speed must be 0 or more, got \(speed)") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be more than 0 s, got \(duration)") }
        guard out.hasSuffix(".csv") || out.hasSuffix(".csv.gz") else {
            throw ValidationError("--out must end in .csv or .csv.gz, got \(out)")
        }
    }

    func run() throws {
        let board = try SimulatedBoard(recordingPath: from, speed: speed)
        var metadata = RecordingMetadata()
        let source = board.playback.metadata
        metadata["device"] = "simulated board replaying \((from as NSString).lastPathComponent)"
            + (source["device"].map { " (\($0))" } ?? "")
        metadata["source"] = "recorded with motionctl record \(OpenCoreMotionVersion.string)"
        // The samples are the source's: its license and labels travel with them.
        for key in ["license", "carry", "subject"] { if let value = source[key] { metadata[key] = value } }
        for entry in source.entries where entry.key.hasPrefix("rate.") { metadata[entry.key] = entry.value }

        let writer = try RecordingWriter(path: out, metadata: metadata)
        var count = 0
        var start: Int64?
        while let sample = try board.next() {
            let timestamp = sample.recorded.timestampNanoseconds
            if start == nil { start = timestamp }
            if let duration, Double(timestamp - start!) / 1e9 >= duration { break }
            try writer.write(sample.recorded)
            count += 1
        }
        try writer.close()
        print("recorded \(count) samples to \(out)")
    }
}
