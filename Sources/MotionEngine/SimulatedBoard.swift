public import MotionAlgorithms
public import Recordings

/// A board with no hardware: it replays a real recording, releasing each sample when its
/// timestamp comes due (``PacedClock``), so everything downstream sees what a live board
/// would deliver. The default when no board is configured, and what the demo runs on.
public final class SimulatedBoard {
    /// The bundled recording the simulated board plays by default: a person standing, then
    /// walking, with a waist-worn phone (UCI HAPT, CC BY 4.0; see Tests/Recordings/README.md).
    /// Found from this source file's location, so it exists in a checkout of the repository.
    public static let defaultRecordingPath: String = {
        var path = "\(#filePath)"  // <root>/Sources/MotionEngine/SimulatedBoard.swift
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path + "/Tests/Recordings/uci_hapt_exp01_user01_stand_walk.csv.gz"
    }()

    public let playback: RecordingPlayback
    private var clock: PacedClock

    /// - Parameters:
    ///   - recordingPath: the recording to play.
    ///   - speed: 1 plays in real time, 10 ten times faster, 0 as fast as possible.
    public init(recordingPath: String = SimulatedBoard.defaultRecordingPath, speed: Double = 1) throws(EngineError) {
        playback = try RecordingPlayback(path: recordingPath)
        clock = PacedClock(speed: speed)
    }

    /// The next sample, once it is due; nil when the recording ends.
    public func next() throws(EngineError) -> (recorded: RecordedSample, reading: SensorReading)? {
        guard let sample = try playback.stepRecorded() else { return nil }
        clock.wait(until: sample.recorded.timestampNanoseconds)
        return sample
    }
}
