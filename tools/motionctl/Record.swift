import ArgumentParser
import Foundation
import MotionAlgorithms
import MotionEngine
import Recordings

/// `motionctl record --out FILE`: writes what a source delivers in the recording format.
struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record a board's samples (or a recording played back in time) to a recording file (.csv or .csv.gz).",
        discussion: """
            With --board, every chip of the board file is read (real /dev/i2c buses or emulators)
            for --duration seconds. Without it, --from is played back at --speed. The output's
            metadata says where the samples came from.
            """)

    @Option(name: .long, help: "The file to write (.csv.gz compresses).")
    var out: String

    @Option(name: .long, help: "A board file to record from (requires --duration).")
    var board: String?

    @Option(name: .long, help: "The recording to play back when no --board is given.")
    var from: String = BoardLocations.locate(PacedRecordingPlayback.defaultRecording)

    @OptionGroup var playback: PlaybackOptions

    func validate() throws {
        guard out.hasSuffix(".csv") || out.hasSuffix(".csv.gz") else {
            throw ValidationError("--out must end in .csv or .csv.gz, got \(out)")
        }
        if board != nil, playback.duration == nil {
            throw ValidationError("--board needs --duration SECONDS (a live board never ends by itself)")
        }
    }

    func run() throws {
        let count = try board.map { try recordBoard($0) } ?? recordPlayback()
        print("recorded \(count) samples to \(out)")
    }

    private func recordPlayback() throws -> Int {
        let source = try PacedRecordingPlayback(recordingPath: from, speed: playback.speed ?? 1)
        var metadata = RecordingMetadata()
        let sourceMetadata = source.playback.metadata
        metadata["device"] = "playback of \((from as NSString).lastPathComponent)" + (sourceMetadata["device"].map { " (\($0))" } ?? "")
        metadata["source"] = "recorded with motionctl record \(OpenCoreMotionVersion.string)"
        // The samples are the source's: its license and labels travel with them.
        for key in ["license", "carry", "subject"] { if let value = sourceMetadata[key] { metadata[key] = value } }
        for entry in sourceMetadata.entries where entry.key.hasPrefix("rate.") { metadata[entry.key] = entry.value }

        let writer = try RecordingWriter(path: out, metadata: metadata)
        var count = 0
        var start: Int64?
        while let sample = try source.next() {
            let timestamp = sample.recorded.timestampNanoseconds
            if start == nil { start = timestamp }
            if playback.isPastDuration(elapsedNanoseconds: timestamp - start!) { break }
            try writer.write(sample.recorded)
            count += 1
        }
        try writer.close()
        return count
    }

    private func recordBoard(_ path: String) throws -> Int {
        let description = try BoardDescription.load(path: path)
        let runtime = try BoardRuntime(description, root: BoardLocations.dataRoot(forBoardFile: path), speed: playback.speed ?? 1)
        runtime.printWarningsToStandardError()
        var metadata = RecordingMetadata()
        metadata["device"] = description.name + ": " + description.chips.map { "\($0.driver) at 0x\(String($0.address, radix: 16))" }.joined(separator: ", ")
        metadata["source"] = "recorded with motionctl record \(OpenCoreMotionVersion.string)"
        metadata["board"] = (path as NSString).lastPathComponent
        let writer = try RecordingWriter(path: out, metadata: metadata)
        // Chips are read at different moments and FIFO frames arrive back-dated, so readings
        // wait here until nothing older can still come (longer than any chip's poll interval
        // or line watchdog), then leave in time order (stable: chips in board order).
        let horizon: Int64 = 250_000_000
        var pending: [SensorReading] = []
        pending.reserveCapacity(4096)
        var count = 0
        func write(upTo time: Int64) throws {
            pending = pending.enumerated().sorted { ($0.element.timestampNanoseconds, $0.offset) < ($1.element.timestampNanoseconds, $1.offset) }.map(\.element)
            let ready = pending.prefix { $0.timestampNanoseconds <= time }
            for reading in ready { try writer.write(RecordedSample(reading)) }
            count += ready.count
            pending.removeFirst(ready.count)
        }
        let end = playback.durationNanoseconds
        while !runtime.isFinished && runtime.nowNanoseconds < end - 1 {
            let now = try runtime.step(notAfter: end - 1) { pending.append($0) }
            if pending.count > 1024 { try write(upTo: now - horizon) }
        }
        try write(upTo: .max)
        try writer.close()
        return count
    }
}

extension RecordedSample {
    /// A pipeline reading back in the recording's SI units (exact: every fixed-point value is a Double).
    init(_ reading: SensorReading) {
        switch reading.value {
        case .acceleration(let v): self.init(timestampNanoseconds: reading.timestampNanoseconds, sensor: .accelerometer, x: v.x.doubleValue, y: v.y.doubleValue, z: v.z.doubleValue)
        case .angularVelocity(let v): self.init(timestampNanoseconds: reading.timestampNanoseconds, sensor: .gyroscope, x: v.x.doubleValue, y: v.y.doubleValue, z: v.z.doubleValue)
        case .magneticField(let v): self.init(timestampNanoseconds: reading.timestampNanoseconds, sensor: .magnetometer, x: v.x.doubleValue, y: v.y.doubleValue, z: v.z.doubleValue)
        case .pressure(let pressure): self.init(timestampNanoseconds: reading.timestampNanoseconds, sensor: .barometer, x: pressure.doubleValue)
        case .temperature(let temperature): self.init(timestampNanoseconds: reading.timestampNanoseconds, sensor: .thermometer, x: temperature.doubleValue)
        }
    }
}
