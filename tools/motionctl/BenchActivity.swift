import ArgumentParser
import FixedPoint
import Foundation
import MotionAlgorithms
import MotionEngine

/// `motionctl bench-activity RECORDING`: the activity stage's cost per reading, the recording
/// held in memory so that no parsing or I/O is timed (tools/benchmarks/activity.py).
struct BenchActivity: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-activity",
        abstract: "Time the motion-activity stage per sensor reading on a recording held in memory.")

    @Argument(help: "A recording (.csv or .csv.gz).")
    var recording: String

    @Option(help: "Minimum seconds of timing (the recording is run as many times as needed).")
    var seconds: Double = 0.5

    @Flag(help: "Instead of timing: print the classifier's window and evidence every 0.5 s (diagnostics).")
    var trace = false

    func run() throws {
        let playback = try RecordingPlayback(path: recording)
        var readings: [SensorReading] = []
        while let reading = try playback.step() { readings.append(reading) }
        if trace { return traceActivity(readings) }
        var processed = 0, updates = 0, runs = 0
        let started = PacedClock.monotonicNanoseconds()
        var elapsed: Int64 = 0
        repeat {
            var stage = ActivityStage()
            readings.withUnsafeBufferPointer { buffer in
                for reading in buffer { stage.process(reading) { _ in updates += 1 } }
            }
            processed += readings.count
            runs += 1
            elapsed = PacedClock.monotonicNanoseconds() - started
        } while Double(elapsed) / 1e9 < seconds
        let perSample = Double(elapsed) / Double(max(processed, 1))
        print("\(runs) runs, \(processed) readings, \(updates) updates; ns per sample: \(String(format: "%.1f", perSample))")
    }
}

extension BenchActivity {
    /// One line per 0.5 s of the recording's clock: t, vibration, ride, spread, steadiness,
    /// rotation, gait and pedal rhythm, then the evidence flags and the estimate.
    func traceActivity(_ readings: [SensorReading]) {
        var tracker = ActivityTracker()
        var gyro = HeldSample<FusionVector<Q32_32>>()  // as ActivityStage holds it
        var nextPrint: Int64 = 0
        func d(_ q: Q32_32?) -> String { q.map { String(format: "%.3f", Double($0.rawValue) / 4_294_967_296) } ?? "-" }
        print("t vib ride spread steady rot gaitR pedalR cadence stepping gait rhythmWalk held car bike noGait rough AUTO CYC still flags")
        for reading in readings {
            switch reading.value {
            case .angularVelocity(let w):
                let rotation = FusionVector(x: Q32_32(w.x), y: Q32_32(w.y), z: Q32_32(w.z))
                gyro.hold(rotation, at: reading.timestampNanoseconds)
                tracker.update(rotationRate: rotation, timeNanoseconds: reading.timestampNanoseconds)
            case .acceleration(let v):
                let time = reading.timestampNanoseconds
                _ = tracker.update(acceleration: FusionVector(x: Q32_32(v.x), y: Q32_32(v.y), z: Q32_32(v.z)), rotationRate: gyro.value(at: time),
                                   timeNanoseconds: time) { _ in }
                guard time >= nextPrint else { continue }
                nextPrint = time + 500_000_000
                let g = tracker.diagnostics, e = g.evidence
                guard let w = g.window else { continue }
                let b = { (x: Bool) in x ? "1" : "." }
                print(String(format: "%.1f", Double(time) / 1e9), d(w.vibration), d(w.rideDeviation), d(w.axisSpread),
                      d(w.gravitySteadiness), d(w.rotation), d(g.gaitRhythm), d(g.pedalRhythm), d(e.rhythmCadence * Q32_32(integer: 60)),
                      b(g.stepping), b(e.gaitBlock), b(e.rhythmWalking), b(e.walkHeld), b(e.carBlock), b(e.bikeBlock), b(e.noGait), b(e.rough),
                      b(e.automotive), b(e.cycling), b(e.still), tracker.current.flags.rawValue)
            default: break
            }
        }
    }
}
