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

    @OptionGroup var playback: PlaybackOptions

    func validate() throws {
        guard out.hasSuffix(".csv") || out.hasSuffix(".csv.gz") else {
            throw ValidationError("--out must end in .csv or .csv.gz, got \(out)")
        }
    }

    func run() throws {
        let board = try SimulatedBoard(recordingPath: from, speed: playback.speed ?? 1)
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
            if playback.isPastDuration(elapsedNanoseconds: timestamp - start!) { break }
            try writer.write(sample.recorded)
            count += 1
        }
        try writer.close()
        print("recorded \(count) samples to \(out)")
    }
}
