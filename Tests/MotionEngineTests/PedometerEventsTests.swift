import FixedPoint
import Foundation
import MotionAlgorithms
import MotionEngine
import Testing

/// Pause/resume events, the walking gate and the stage's live figures on synthetic walks whose
/// truth is known.
@Suite struct PedometerEventsTests {
    /// A walk at 1.8 steps/s with a vertical bounce of `amplitude` m/s² during `walking`
    /// intervals (s), standing still with a little noise otherwise; 100 Hz.
    static func samples(seconds: Double, walking: [ClosedRange<Double>], amplitude: Double = 2.5,
                        rotating: Bool = false, rate: Double = 100) -> [SensorReading] {
        var seed: UInt64 = 99
        func noise() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return (Double(seed >> 11) * 0x1p-53 - 0.5) * 0.05
        }
        return (0..<Int(seconds * rate)).map { index in
            let t = Double(index) / rate
            let bounce = walking.contains { $0.contains(t) } ? amplitude * sin(2 * .pi * 1.8 * t) : 0
            // Gravity along z, or turning about x once every 1.5 s (a device turned in the hand).
            let angle = rotating ? 2 * .pi * t / 1.5 : 0
            let g = 9.81 + bounce
            let v = Vector3(x: Q16_16(noise()), y: Q16_16(g * sin(angle) + noise()), z: Q16_16(g * cos(angle) + noise()))
            return SensorReading(timestampNanoseconds: Int64((t * 1e9).rounded()), value: .acceleration(v))
        }
    }

    static func run(_ readings: [SensorReading]) -> (stage: PedometerStage, outputs: [PedometerOutput]) {
        var stage = PedometerStage()
        var outputs: [PedometerOutput] = []
        for reading in readings { stage.process(reading) { outputs.append($0) } }
        return (stage, outputs)
    }

    @Test func aStopAndAStartAreReportedWithinASecondAtTheRightTimes() {
        // Walk 2…20 s, stand 20…28 s, walk 28…45 s.
        let (_, outputs) = Self.run(Self.samples(seconds: 50, walking: [2...20, 28...45]))
        let events = outputs.compactMap { output -> PedometerEvent? in
            if case .event(let event) = output { return event } else { return nil }
        }
        let kinds = events.map(\.kind)
        #expect(kinds == [.resume, .pause, .resume, .pause], "\(events)")
        guard events.count == 4 else { return }
        let pause = events[1], resume = events[2]
        // The last step is the last bounce peak before 20 s, the first after 28 s.
        #expect(abs(Double(pause.timeNanoseconds) / 1e9 - 19.9) < 0.7, "pause at \(pause.timeNanoseconds)")
        #expect(abs(Double(resume.timeNanoseconds) / 1e9 - 28.3) < 0.7, "resume at \(resume.timeNanoseconds)")
        // A resume is delivered at the second step; a pause once the last step's trough has
        // died away (decaying with ⅓ s) after the step was due (0.83 s): about a second after
        // that last peak here, where the bounce stops dead (on the IPOL walks, median 0.65 s
        // after the true last step).
        let resumeLatency = Double(resume.deliveredNanoseconds - resume.timeNanoseconds) / 1e9
        let pauseLatency = Double(pause.deliveredNanoseconds - pause.timeNanoseconds) / 1e9
        #expect(resumeLatency > 0 && resumeLatency <= 1.0, "resume delivered after \(resumeLatency) s: \(events)")
        #expect(pauseLatency >= 0.8 && pauseLatency <= 1.5, "pause delivered after \(pauseLatency) s: \(events)")
    }

    @Test func stepsOfADeviceTurnedOverInTheHandAreNotCounted() {
        let carried = Self.run(Self.samples(seconds: 30, walking: [0...30])).stage.numberOfSteps
        let turned = Self.run(Self.samples(seconds: 30, walking: [0...30], rotating: true)).stage.numberOfSteps
        #expect(abs(carried - 54) <= 2, "carried: \(carried) steps of 54")
        #expect(turned == 0, "turned in the hand: \(turned) steps")
    }

    @Test func aWatchSampledAt12_5HzCountsItsWalk() {
        // The step signal's 3 Hz low-pass is close to such a rate's Nyquist limit: its
        // coefficients must come from the exact tan and 1/D, not the small-angle series.
        let steps = Self.run(Self.samples(seconds: 30, walking: [0...30], rate: 12.5)).stage.numberOfSteps
        #expect(abs(steps - 54) <= 3, "\(steps) steps of 54")
    }

    @Test func cadencePaceAndDistanceFollowTheWalk() {
        let (stage, outputs) = Self.run(Self.samples(seconds: 21, walking: [0...21]))
        let cadence = stage.currentCadence ?? 0
        #expect(abs(cadence - 1.8) < 0.05, "cadence \(cadence)")
        // 1.8 steps/s at 1.70 m: 0.415 × 1.70 = 0.7055 m a step, so 1 / (1.8 × 0.7055) s/m.
        let pace = stage.currentPace ?? 0
        #expect(abs(pace - 1 / (1.8 * 0.7055)) < 0.03, "pace \(pace)")
        let lengths = outputs.compactMap { output -> Double? in
            if case .step(_, let length) = output { return length } else { return nil }
        }
        #expect(abs(stage.distanceMeters - lengths.reduce(0, +)) < 1e-9)
        #expect(abs(stage.distanceMeters / Double(stage.numberOfSteps) - 0.7055) < 0.02)
        #expect(abs((stage.averageActivePace ?? 0) - pace) < 0.05)
    }

    @Test func aStillDeviceHasNoLiveCadenceOrPace() {
        let (stage, outputs) = Self.run(Self.samples(seconds: 10, walking: []))
        #expect(outputs.isEmpty)
        #expect(stage.currentCadence == nil && stage.currentPace == nil && stage.averageActivePace == nil)
    }

    @Test func theStrideModelScalesWithCadenceHeightAndCalibration() {
        let model = StrideModel(heightMeters: 1.70)
        #expect(abs(model.stepLength(cadence: 1.8) - 0.415 * 1.70) < 1e-9)
        #expect(model.stepLength(cadence: 2.8) > model.stepLength(cadence: 1.8))
        #expect(model.stepLength(cadence: 10) == model.stepLength(cadence: 3.5), "cadence is clamped")
        #expect(abs(StrideModel(heightMeters: 1.70, scale: 1.1).stepLength(cadence: 1.8) - 1.1 * 0.415 * 1.70) < 1e-9)
    }

    @Test func updatesComeAtOnceThenEveryTwoAndAHalfSecondsOnlyWhileStepping() {
        var schedule = PedometerUpdateSchedule()
        let second: Int64 = 1_000_000_000
        // (time, steps so far) → due?
        let calls: [(Int64, Int, Bool)] = [
            (0, 0, true),                // one at once
            (3 * second, 0, false),      // none while still
            (4 * second, 5, true),       // steps since the last: due
            (5 * second, 7, false),      // not before 2.5 s
            (6_500_000_000, 9, true),
            (20 * second, 9, false),     // still again: none
        ]
        for (time, steps, due) in calls {
            let answer = schedule.isDue(at: time, steps: steps)
            #expect(answer == due, "at \(time) ns with \(steps) steps")
        }
    }
}
