import Recordings

/// What an emulated chip feels: the latest accelerometer, gyroscope and barometer values of a
/// real recording at or before a time, read sequentially (constant memory; times must not go
/// back). Board time 0 is the recording's first sample (`startOver` moves it).
final class RecordedMotion {
    private let path: String
    private var reader: RecordingReader
    private var origin: Int64?
    /// Board time of the recording's first sample: 0, then where `startOver` began it again.
    private var startNanoseconds: Int64 = 0
    private var pending: RecordedSample?
    private(set) var acceleration = (0.0, 0.0, 9.80665)
    private(set) var angularVelocity = (0.0, 0.0, 0.0)
    private(set) var pressure = 101_325.0
    /// µT; until the recording has a magnetometer sample, a typical mid-latitude field
    /// (19 µT horizontal along x, 46 µT down) so that emulated magnetometers read the Earth.
    private(set) var magneticField = (19.0, 0.0, -46.0)
    /// Whether the recording has no more samples.
    private(set) var isFinished = false
    /// The reader's error, if the recording turned out malformed: kept for the engine to report.
    private(set) var failure: RecordingError?

    init(path: String) throws(EngineError) {
        self.path = path
        reader = try Self.open(path)
    }

    private static func open(_ path: String) throws(EngineError) -> RecordingReader {
        do { return try RecordingReader(path: path, options: .init(skipUnknownSensors: true)) } catch { throw .recording(error) }
    }

    /// Plays the recording again from its first sample, felt from board time `nanoseconds` on
    /// (the values jump back to the recording's first ones, as a new runtime's would).
    func startOver(at nanoseconds: Int64) throws(EngineError) {
        reader = try Self.open(path)
        origin = nil
        pending = nil
        startNanoseconds = nanoseconds
        isFinished = false
        failure = nil
    }

    /// Advances to board time `nanoseconds`.
    func advance(to nanoseconds: Int64) {
        while !isFinished {
            if pending == nil {
                do { pending = try reader.next() } catch { failure = error; isFinished = true; return }
                guard let sample = pending else { isFinished = true; return }
                if origin == nil { origin = sample.timestampNanoseconds }
            }
            guard let sample = pending, let origin, sample.timestampNanoseconds - origin + startNanoseconds <= nanoseconds else { return }
            switch sample.sensor {
            case .accelerometer: acceleration = (sample.x, sample.y, sample.z)
            case .gyroscope: angularVelocity = (sample.x, sample.y, sample.z)
            case .barometer: pressure = sample.x
            case .magnetometer: magneticField = (sample.x, sample.y, sample.z)
            case .thermometer: break
            }
            pending = nil
        }
    }
}
