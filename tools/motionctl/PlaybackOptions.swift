import ArgumentParser

/// How the simulated board plays its recording: shared by `demo` and `record`.
struct PlaybackOptions: ParsableArguments {
    @Option(help: "Playback speed: 1 is real time, 0 as fast as possible (default: 1, real time).")
    var speed: Double?

    @Option(help: "Stop after this many seconds of recording time (default: the whole recording).")
    var duration: Double?

    func validate() throws {
        if let speed, !(speed >= 0 && speed.isFinite) { throw ValidationError("--speed must be 0 or more, got \(speed)") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be more than 0 s, got \(duration)") }
    }

    /// `--duration` in nanoseconds of board time (no duration: never ends).
    var durationNanoseconds: Int64 { duration.map { Int64(($0 * 1e9).rounded()) } ?? .max }

    /// Whether a sample `elapsedNanoseconds` after the first is past `--duration`.
    func isPastDuration(elapsedNanoseconds: Int64) -> Bool {
        guard let duration else { return false }
        return Double(elapsedNanoseconds) / 1e9 >= duration
    }
}
