import ArgumentParser
import Foundation
import MotionAlgorithms
import MotionEngine

/// `motionctl stream`: live values from a board, simulated by default.
struct Stream: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print live sensor values from a board (default: the simulated GY-521).")

    @Option(name: .customLong("board"), help: "A board file (see boards/README.md; default: boards/sim-gy-521.board, with --pedometer or --activity boards/sim-walker.board, with --altitude boards/sim-gy-521-bmp280.board).")
    var boardFile: String?

    /// `--board`, or the default: the simulated walker for the pedometer and activity, the
    /// GY-521 with a BMP280 for the altimeter, else the GY-521.
    var board: String {
        boardFile ?? BoardLocations.locate("boards/" + (pedometer || activity ? "sim-walker.board" : altitude ? "sim-gy-521-bmp280.board" : "sim-gy-521.board"))
    }

    @OptionGroup var playback: PlaybackOptions

    @Flag(help: "At the end, print per chip how it was read (line or timer) and its edges, recoveries and overflows.")
    var status = false

    @Option(help: "Print at most one reading per sensor per this many seconds (0: all), as an app's update interval would.")
    var interval: Double = 0

    @Flag(help: "Print device motion (attitude, gravity, user acceleration, heading) instead of raw readings.")
    var deviceMotion = false

    @Flag(help: "Print the pedometer's live updates (at once, then every 2.5 s while walking, as Core Motion's; cumulative) and pause/resume events.")
    var pedometer = false

    @Flag(help: "Print motion activity (stationary, walking, running, automotive, cycling, with confidence) on each transition, as Core Motion's live updates, then the smoothed history.")
    var activity = false

    @Flag(help: "Print the altimeter's updates (relative altitude, pressure, absolute altitude with accuracy and precision) about every second, as Core Motion's.")
    var altitude = false

    @Flag(help: "Print the board's fusion chips' own outputs (BNO08x, BNO055 sections with chip-fusion = on): their attitude as roll, pitch, yaw in degrees, steps, activity, stability, calibration status.")
    var chipFusion = false

    @Option(help: "With --altitude: the sea-level pressure absolute altitude is measured against, kPa (a QNH; default the standard atmosphere's 101.325).")
    var seaLevelPressure: Double?

    @Option(help: "With --device-motion: the reference frame (\(AttitudeReferenceFrame.allCases.map(\.rawValue).joined(separator: ", "))).")
    var frame: String = AttitudeReferenceFrame.xArbitraryZVertical.rawValue

    @Option(help: "Device motion of a board publishing to an MQTT broker (its board id), as CMHeadphoneMotionManager gives it, with latency; needs --config.")
    var remote: String?

    @Option(name: .customLong("config"), help: "With --remote: the MQTT configuration file (Sources/MotionMQTT/PAYLOADS.md).")
    var mqttConfig: String?

    func validate() throws {
        if remote != nil, mqttConfig == nil { throw ValidationError("--remote needs --config FILE: the MQTT configuration file naming the broker") }
        guard [pedometer, deviceMotion, activity, altitude, chipFusion].filter({ $0 }).count <= 1 else {
            throw ValidationError("--pedometer, --device-motion, --activity, --altitude and --chip-fusion cannot be combined: run one stream at a time")
        }
        if let seaLevelPressure, !(80...110).contains(seaLevelPressure) {
            throw ValidationError("--sea-level-pressure must be 80…110 kPa (1013.2 hPa is 101.32), got \(seaLevelPressure)")
        }
        guard interval >= 0, interval.isFinite else { throw ValidationError("--interval must be 0 or more seconds, got \(interval)") }
        guard AttitudeReferenceFrame(rawValue: frame) != nil else {
            throw ValidationError("--frame \(frame) is not one of \(AttitudeReferenceFrame.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() throws {
        if let remote, let mqttConfig { return try streamRemote(remote, configurationFile: mqttConfig) }
        // --altitude runs the altimeter in-process here (CMAltimeter and ocm_altimeter use motiond);
        // --chip-fusion too (motiond does not carry a chip's own outputs).
        if !altitude, !chipFusion, let client = StreamFromDaemon.connect(boardGiven: boardFile != nil, speedGiven: playback.speed != nil) {
            let frameBit: UInt8 = switch AttitudeReferenceFrame(rawValue: frame)! {  // validated
            case .xArbitraryZVertical: 1
            case .xArbitraryCorrectedZVertical: 2
            case .xMagneticNorthZVertical: 4
            case .xTrueNorthZVertical: 8
            }
            return try StreamFromDaemon(client: client).run(deviceMotion: deviceMotion, pedometer: pedometer, activity: activity,
                                                            interval: interval, frame: frameBit, duration: playback.duration)
        }
        let description = try BoardDescription.load(path: board)
        let runtime = try BoardRuntime(description, root: BoardLocations.dataRoot(forBoardFile: board), speed: playback.speed ?? 1)
        runtime.printWarningsToStandardError()
        print("streaming \(description.name): \(description.chips.map { "\($0.label) (\($0.driver))" }.joined(separator: ", ")) (in-process engine)")
        if deviceMotion { return try streamDeviceMotion(runtime, description) }
        if pedometer { return try streamPedometer(runtime) }
        if activity { return try streamActivity(runtime) }
        if altitude { return try streamAltitude(runtime) }
        if chipFusion { return try streamChipFusion(runtime, description) }
        print("       t s  sensor  x             y             z")
        // Two subscribers, as two apps would have: one counts every reading, one prints at its interval.
        let subscribers = SensorSubscribers()
        var counts = [Int](repeating: 0, count: SensorChannel.allCases.count)
        _ = subscribers.subscribe(Set(SensorChannel.allCases)) { counts[Int($0.value.channel.rawValue)] += 1 }
        _ = subscribers.subscribe(Set(SensorChannel.allCases), intervalNanoseconds: Int64(interval * 1e9)) { print(Self.format($0)) }
        try runtime.run(untilNanoseconds: playback.durationNanoseconds, deliver: subscribers.publish)
        let now = runtime.isFinished ? runtime.nowNanoseconds : playback.durationNanoseconds
        if status { printStatus(runtime) }
        let summary = SensorChannel.allCases.filter { counts[Int($0.rawValue)] > 0 }
            .map { "\(counts[Int($0.rawValue)]) \($0.displayName)" }.joined(separator: ", ")
        print("streamed \(String(format: "%.2f", Double(now) / 1e9)) s: \(summary)")
    }

    /// `--status`: per chip, how it was read and what it and its driver counted.
    func printStatus(_ runtime: BoardRuntime) {
        for chip in runtime.status {
            print("\(chip.label) (\(chip.driver)): \(chip.trigger); \(chip.readings) readings, \(chip.edges) edges, "
                  + "\(chip.watchdogReads) watchdog reads, \(chip.recoveries) recoveries, \(chip.overflows) FIFO overflows, \(chip.busErrors) bus errors retried, "
                  + "\(chip.stuckEpisodes) stuck, \(chip.silentEpisodes) silent, "
                  + "\(chip.droppedSamples.reduce(0, +)) samples dropped, \(chip.duplicateSamples.reduce(0, +)) duplicates withheld; "
                  + "timestamps from the \(chip.timestampSource.rawValue)"
                  + (chip.lastBusError.map { " (last: \($0))" } ?? ""))
            // What only some chips have: their own fusion's readings, their driver's counters.
            let extra = (chip.chipFusionReadings > 0 ? ["\(chip.chipFusionReadings) chip-fusion readings"] : [])
                + chip.driverCounters.map { "\($0.count) \($0.name)" }
            if !extra.isEmpty { print("    driver: " + extra.joined(separator: ", ")) }
        }
    }

    /// Device motion at `--interval` (0.1 s by default): roll, pitch, yaw and heading in degrees,
    /// gravity and user acceleration in g.
    private func streamDeviceMotion(_ runtime: BoardRuntime, _ description: BoardDescription) throws {
        let frame = AttitudeReferenceFrame(rawValue: frame)!  // validated
        // Without a gyroscope (a BNO08x in UART-RVC mode) the estimator would never start: say so.
        guard description.channels.contains(.gyroscope) else {
            let fusing = description.chips.contains { $0.chipFusion }
            throw ValidationError("\(board) has no gyroscope, which device motion needs (its chips: \(description.chips.map(\.driver).joined(separator: ", ")))"
                                  + (fusing ? "; its chip's own attitude: motionctl stream --chip-fusion" : ""))
        }
        guard frame == .xArbitraryZVertical || description.channels.contains(.magnetometer) else {
            throw ValidationError("\(board) has no magnetometer, so only x-arbitrary-z-vertical is available (its chips: \(description.chips.map(\.driver).joined(separator: ", ")))")
        }
        // The board's stored calibration (`motionctl calibrate`), if any.
        let calibration = try BoardCalibration.load(path: BoardCalibration.path(forBoard: board))
        if calibration != nil { print("using the calibration in \(BoardCalibration.path(forBoard: board))") }
        var estimator = DeviceMotionEstimator(frame: frame, calibration: calibration)
        let every = Int64((interval > 0 ? interval : 0.1) * 1e9)
        var next: Int64 = .min
        print("       t s   roll°   pitch°    yaw°   heading°   gravity g (x, y, z)      user acceleration g      mag accuracy")
        try runtime.run(untilNanoseconds: playback.durationNanoseconds) { reading in
            guard estimator.update(reading), reading.timestampNanoseconds >= next else { return }
            let motion = estimator.motion
            next = motion.timestampNanoseconds + every
            let angles = motion.eulerAngles
            let degrees = 180 / Double.pi
            print(String(format: "%10.3f %7.1f %8.1f %7.1f %9.1f   %6.3f %6.3f %6.3f   %6.3f %6.3f %6.3f   %d",
                         Double(motion.timestampNanoseconds) / 1e9, angles.roll.doubleValue * degrees, angles.pitch.doubleValue * degrees,
                         angles.yaw.doubleValue * degrees, motion.heading.doubleValue,
                         motion.gravity.x.doubleValue, motion.gravity.y.doubleValue, motion.gravity.z.doubleValue,
                         motion.userAcceleration.x.doubleValue, motion.userAcceleration.y.doubleValue, motion.userAcceleration.z.doubleValue,
                         Int(motion.magneticAccuracy)))
        }
    }

    static func format(_ reading: SensorReading) -> String {
        let time = String(format: "%10.3f", Double(reading.timestampNanoseconds) / 1e9)
        switch reading.value {
        case .acceleration(let v), .angularVelocity(let v), .magneticField(let v):
            return "\(time)  \(reading.value.channel.displayName.padding(toLength: 6, withPad: " ", startingAt: 0))"
                + String(format: "%13.5f %13.5f %13.5f", v.x.doubleValue, v.y.doubleValue, v.z.doubleValue)
        case .pressure(let pressure):
            return "\(time)  baro  " + String(format: "%13.2f Pa", pressure.doubleValue)
        case .temperature(let temperature):
            return "\(time)  temp  " + String(format: "%13.2f °C", temperature.doubleValue)
        }
    }
}
