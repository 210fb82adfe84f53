import ArgumentParser
import Foundation
import Geomagnetism
import MotionEngine
import Recordings

/// `motionctl replay RECORDING --out DIR`: runs a recording through the pipeline as fast as the
/// machine allows and writes one file per stage (../shared/specs/replay-outputs.md).
struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a recording through the pipeline and write each stage's output files.",
        discussion: """
            Writes into DIR the files of the stages that exist (see the replay-outputs spec) and
            summary.json (per-sensor sample counts, rates, gaps and value ranges). Shows progress
            on a terminal.
            """
    )

    @Argument(help: "A recording (.csv or .csv.gz).")
    var recording: String

    @Option(name: .long, help: "The folder to write the outputs into (created if missing).")
    var out: String

    @Flag(help: "Skip rows of sensor kinds this version does not know, instead of stopping.")
    var skipUnknownSensors = false

    @Option(help: "Device motion's reference frame: \(AttitudeReferenceFrame.allCases.map(\.rawValue).joined(separator: ", ")).")
    var frame: String = AttitudeReferenceFrame.xArbitraryZVertical.rawValue

    @Option(help: "Magnetic declination in degrees east, for x-true-north-z-vertical (or give --latitude, --longitude and --date).")
    var declination: Double?

    @Option(help: "Where the recording was made, degrees north (for the World Magnetic Model's declination).")
    var latitude: Double?

    @Option(help: "Where the recording was made, degrees east.")
    var longitude: Double?

    @Option(help: "When the recording was made, YYYY-MM-DD (WMM2025 covers 2025-01-01 to 2029-12-31).")
    var date: String?

    /// The declination: given, or from WMM2025 at the place and date.
    func resolvedDeclination() throws -> Double? {
        if let declination { return declination }
        guard let latitude, let longitude, let date else { return nil }
        let parts = date.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { throw ValidationError("--date \(date) is not YYYY-MM-DD") }
        let year = try WorldMagneticModel.decimalYear(year: parts[0], month: parts[1], day: parts[2])
        return try WorldMagneticModel.wmm2025.field(latitude: latitude, longitude: longitude, heightKilometers: 0, decimalYear: year).declinationDegrees
    }

    @Option(help: "The user's height in cm, for the stride model (a 1.8 steps/s step is 0.415 × height).")
    var heightCm: Double = 170

    @Option(help: "The user's stride correction from `motionctl calibrate stride` (1 = the published model).")
    var strideScale: Double = 1

    @Option(help: "A board calibration file (as `motionctl calibrate` and motiond write them) to start from, as a board with that stored calibration starts.")
    var calibration: String?

    @Option(help: "Keep what the online calibration learned in this calibration file, as motiond keeps it for a live board: the magnetometer's offset (when known to medium accuracy or better, and better than the file's) and the gyroscope's bias (once learned).")
    var saveCalibration: String?

    @Option(name: .customLong("step-setting"), help: "A step detector setting NAME=VALUE (repeatable; for tools/benchmarks/loso.py): \(StepSettings.names).")
    var stepSettings: [String] = []

    func validate() throws {
        _ = try StepSettings.detector(stepSettings)
        guard heightCm >= 50, heightCm <= 250 else { throw ValidationError("--height-cm must be 50…250, got \(heightCm)") }
        guard strideScale >= 0.5, strideScale <= 2 else { throw ValidationError("--stride-scale must be 0.5…2, got \(strideScale)") }
        guard let parsed = AttitudeReferenceFrame(rawValue: frame) else {
            throw ValidationError("--frame \(frame) is not one of \(AttitudeReferenceFrame.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if parsed == .xTrueNorthZVertical && declination == nil && (latitude == nil || longitude == nil || date == nil) {
            throw ValidationError("--frame x-true-north-z-vertical needs the declination: --declination DEGREES (east positive), or --latitude, --longitude and --date for the World Magnetic Model")
        }
    }

    func run() throws {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let playback = try RecordingPlayback(path: recording, skipUnknownSensors: skipUnknownSensors)
        var progress = ProgressLine(label: (recording as NSString).lastPathComponent)
        let started = Date()
        let frame = AttitudeReferenceFrame(rawValue: frame)!  // validated
        var stored: BoardCalibration?
        if let calibration {
            guard let found = try BoardCalibration.load(path: calibration) else {
                throw ValidationError("--calibration \(calibration): no such file (write one with `motionctl calibrate`)")
            }
            stored = found
        }
        var estimator = DeviceMotionEstimator(frame: frame, declination: try resolvedDeclination() ?? 0, calibration: stored)
        let deviceMotion = try DeviceMotionFile(path: (out as NSString).appendingPathComponent("device_motion.csv"))
        var pedometer = PedometerStage(stride: StrideModel(heightMeters: heightCm / 100, scale: strideScale),
                                       detector: try StepSettings.detector(stepSettings))
        let pedometerFiles = try PedometerFiles(folder: out)
        let altitudeFile = try AltitudeFile(folder: out)
        // The activity comes from the pedometer stage's classifier (one per sample, as in
        // motiond; the same updates as an `ActivityStage`'s).
        let activityFile = try ActivityFile(folder: out)
        var last: Int64 = 0
        // As a live board keeps them (`EngineWorker`): looked at as the samples come, written
        // when they qualify and when the stream stops.
        var saver = saveCalibration.map { OnlineCalibrationSaver(path: $0, board: (recording as NSString).lastPathComponent) }
        let samples = try playback.run { reading in
            progress.update(timestampNanoseconds: reading.timestampNanoseconds)
            last = reading.timestampNanoseconds
            if let motion = estimator.process(reading) {
                deviceMotion.write(motion)
                saver?.observe(estimator, at: reading.timestampNanoseconds)
            }
            pedometerFiles.process(reading, through: &pedometer) { activityFile.write($0) }
            altitudeFile.process(reading)
        }
        try deviceMotion.close()
        if var saver {
            saver.finish(estimator)
            if let failure = saver.failure { throw failure }
        }
        try pedometerFiles.finish(pedometer, end: last)
        try altitudeFile.close()
        try activityFile.finish(endNanoseconds: last)
        progress.finish()
        let summaryPath = (out as NSString).appendingPathComponent("summary.json")
        let report = SummaryReport(playback: playback)
        try report.writeJSON(to: summaryPath)  // (its warnings too)
        let elapsed = Date().timeIntervalSince(started)
        print("replayed \(samples) samples of \(recording) in \(String(format: "%.2f", elapsed)) s → \(out)")
        print(report.table())
        for warning in report.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
    }
}
