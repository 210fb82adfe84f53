public import MotionAlgorithms
public import Recordings

/// A recording played back in time: each sample is released when its timestamp comes due
/// (``PacedClock``), as a live source would deliver it. `motionctl record --from` uses it.
/// (Simulated boards, which run recordings through chip emulators and drivers, are
/// ``BoardRuntime`` with emulated buses.)
public final class PacedRecordingPlayback {
    /// The bundled recording tools play by default, as a path in the source tree (find it with
    /// `BoardLocations.locate`): a person standing, then walking, with a waist-worn phone
    /// (UCI HAPT, CC BY 4.0; see Tests/Recordings/README.md).
    public static let defaultRecording = "Tests/Recordings/uci_hapt_exp01_user01_stand_walk.csv.gz"

    public let playback: RecordingPlayback
    private var clock: PacedClock

    /// - Parameters:
    ///   - recordingPath: the recording to play.
    ///   - speed: 1 plays in real time, 10 ten times faster, 0 as fast as possible.
    public init(recordingPath: String = BoardLocations.locate(PacedRecordingPlayback.defaultRecording), speed: Double = 1) throws(EngineError) {
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
