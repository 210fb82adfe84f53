import ArgumentParser
import Foundation
import MotionAlgorithms
import MotionEngine

/// `motionctl calibrate stride`'s options.
struct StrideOptions: ParsableArguments {
    @Option(help: "stride: the length of the walk, m.")
    var distance: Double?

    @Option(help: "stride: a recording of the walk instead of walking with --board live.")
    var recording: String?

    @Option(help: "stride: seconds into the recording where the walk starts.")
    var from: Double?

    @Option(help: "stride: seconds into the recording where the walk ends.")
    var to: Double?

    @Option(help: "stride: the user's height in cm (default: the profile's, else 170).")
    var heightCm: Double?

    @Option(help: "stride: give up after this many seconds live.")
    var timeout: Double = 600

    /// Checked by `calibrate` for `stride` only (a `validate()` here would run for every sensor).
    func check() throws {
        guard let distance else { throw ValidationError("calibrate stride needs --distance M, the length of the walk in metres") }
        guard distance >= 5, distance <= 10_000 else { throw ValidationError("--distance must be 5…10000 m, got \(distance)") }
        if let heightCm, !(50...250).contains(heightCm) { throw ValidationError("--height-cm must be 50…250, got \(heightCm)") }
    }
}

/// `motionctl calibrate stride --distance M`: the user walks a known distance (live on a board,
/// ending at the first pause after at least 10 steps, or from a recording between --from and
/// --to); the ratio of it to the stride model's distance becomes their `stride-scale` in the
/// pedometer profile (`PedometerProfile`), which every live pedometer applies.
struct StrideCalibration {
    let options: StrideOptions
    let board: String
    let speed: Double
    var distance: Double { options.distance ?? 0 }

    func run() throws {
        var profile = try PedometerProfile.load()
        if let heightCm = options.heightCm { profile.heightCentimeters = heightCm }
        // The model as published: the new scale replaces the old one, it does not compound it.
        let model = StrideModel(heightMeters: profile.heightCentimeters / 100)
        let walk = try options.recording.map { try walkInRecording($0, model: model) } ?? walkLive(model: model)
        guard walk.steps >= 10 else {
            throw CalibrationFailure(description: "only \(walk.steps) steps were counted: walk at least 10 steps (and 5 m), then stand still")
        }
        let scale = distance / walk.meters
        guard (0.5...2).contains(scale) else {
            throw CalibrationFailure(description: String(format: "the walk's %d steps give %.1f m by the model but you said %.1f m (scale %.2f, outside 0.5…2): check --distance and --height-cm, and walk again", walk.steps, walk.meters, distance, scale))
        }
        profile.strideScale = scale
        try profile.save()
        print(String(format: "%d steps, %.1f m by the model for %.0f cm → stride scale %.3f (a 1.8 steps/s step: %.2f m)",
                     walk.steps, walk.meters, profile.heightCentimeters, scale, profile.stride.stepLength(cadence: 1.8)))
        print("stored in \(PedometerProfile.path)")
    }

    /// Steps and model distance of the recorded walk inside [--from, --to].
    private func walkInRecording(_ path: String, model: StrideModel) throws -> (steps: Int, meters: Double) {
        let playback = try RecordingPlayback(path: path, skipUnknownSensors: true)
        var stage = PedometerStage(stride: model)
        var start: Int64?, steps = 0, meters = 0.0
        let low = options.from.map { Int64($0 * 1e9) } ?? .min, high = options.to.map { Int64($0 * 1e9) } ?? .max
        _ = try playback.run { reading in
            if start == nil { start = reading.timestampNanoseconds }
            stage.process(reading) { output in
                guard case .step(let time, let length) = output, let start else { return }
                guard time - start >= low, time - start <= high else { return }
                steps += 1
                meters += length
            }
        }
        return (steps, meters)
    }

    /// Steps and model distance of a live walk, from its first step to the pause that ends it.
    private func walkLive(model: StrideModel) throws -> (steps: Int, meters: Double) {
        let description = try BoardDescription.load(path: board)
        let runtime = try BoardRuntime(description, root: BoardLocations.dataRoot(forBoardFile: board), speed: speed)
        runtime.printWarningsToStandardError()
        print(String(format: "walk %.0f m at your usual pace, then stand still", distance))
        var stage = PedometerStage(stride: model)
        var steps = 0, meters = 0.0, done = false
        let end = Int64(options.timeout * 1e9)
        while !done, !runtime.isFinished, runtime.nowNanoseconds < end {
            _ = try runtime.step(notAfter: end) { reading in
                stage.process(reading) { output in
                switch output {
                case .step(_, let length):
                    steps += 1
                    meters += length
                    print("\r\(steps) steps", terminator: "")
                    fflush(nil)  // every stream: stdout is line-buffered on a terminal
                case .event(let event) where event.kind == .pause && steps >= 10:
                    done = true
                default:
                    break
                }
                }
            }
        }
        print()
        guard done else {
            throw CalibrationFailure(description: "no walk of 10 steps or more ended in a pause within \(Int(options.timeout)) s: walk, then stand still")
        }
        return (steps, meters)
    }
}
