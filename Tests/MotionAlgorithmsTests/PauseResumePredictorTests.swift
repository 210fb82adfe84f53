import FixedPoint
import Foundation
import MotionAlgorithms
import Testing

/// `PauseResumePredictor` on step signals whose stops and starts are known to the sample: the
/// event's time must be the true last or first step, and its delivery within about a second.
@Suite struct PauseResumePredictorTests {
    /// 100 Hz, as the IPOL recordings and most phones' step counters.
    static let sampleInterval: Int64 = 10_000_000
    /// The candidate threshold the step detector would have in force, m/s².
    static let threshold = 0.5

    /// A step signal (m/s²) made of whole bounce cycles, `steps` a list of (cycle start s,
    /// cycle length s, amplitude m/s²); zero between them. Each cycle is a sine whose peak, a
    /// quarter of the way in, is the step.
    static func signal(at t: Double, steps: [(start: Double, length: Double, amplitude: Double)]) -> Double {
        for step in steps where t >= step.start && t < step.start + step.length {
            return step.amplitude * sin(2 * .pi * (t - step.start) / step.length)
        }
        return 0
    }

    /// `count` steps of `length` s from `start`, of 2 m/s².
    static func walk(from start: Double, count: Int, length: Double) -> [(start: Double, length: Double, amplitude: Double)] {
        (0..<count).map { (start: start + Double($0) * length, length: length, amplitude: 2.0) }
    }

    /// The time of each step (the peak of its cycle), s.
    static func stepTimes(_ steps: [(start: Double, length: Double, amplitude: Double)]) -> [Double] {
        steps.filter { $0.amplitude > threshold }.map { $0.start + $0.length / 4 }
    }

    /// Feeds the predictor as `StepDetector` does: every sample, then a candidate at each local
    /// maximum above the threshold (found one sample late). Returns each event with the time it
    /// carries and the time it was delivered, s.
    static func run(seconds: Double, steps: [(start: Double, length: Double, amplitude: Double)])
        -> [(output: StepDetector.Output, time: Double, delivered: Double)] {
        var predictor = PauseResumePredictor()
        var events: [(output: StepDetector.Output, time: Double, delivered: Double)] = []
        var older = 0.0, last = 0.0
        let threshold = Q32_32(Self.threshold)
        for index in 0..<Int64(seconds * 100) {
            let time = index * sampleInterval
            let value = signal(at: Double(time) / 1e9, steps: steps)
            let record = { (output: StepDetector.Output) in
                switch output {
                case .pause(let at), .resume(let at): events.append((output, Double(at) / 1e9, Double(time) / 1e9))
                case .step: break
                }
            }
            predictor.observe(signal: Q32_32(value), threshold: threshold, timeNanoseconds: time, output: record)
            if last > older, last >= value, last > Self.threshold {
                predictor.candidate(at: time - sampleInterval, output: record)
            }
            (older, last) = (last, value)
        }
        return events
    }

    static func isPause(_ output: StepDetector.Output) -> Bool {
        if case .pause = output { return true } else { return false }
    }

    @Test func aStopIsReportedAtTheLastStepWithinASecond() throws {
        // 20 steps at 1.8 steps/s from 1 s, then still.
        let steps = Self.walk(from: 1, count: 20, length: 1 / 1.8)
        let events = Self.run(seconds: 20, steps: steps)
        #expect(events.map { Self.isPause($0.output) } == [false, true], "\(events)")
        let pause = try #require(events.last)
        let lastStep = try #require(Self.stepTimes(steps).last)
        #expect(abs(pause.time - lastStep) < 0.015, "pause at \(pause.time) s, last step at \(lastStep) s")
        // Due 1.5 intervals (0.83 s) after the last step; quiet once the signal's last trough,
        // 0.28 s after it, has decayed from 2 m/s² to half the threshold (0.25 m/s²) with ⅓ s:
        // ln 8 / 3 = 0.69 s later, 0.97 s after the step (1.32 s with the earlier ½ s decay).
        let latency = pause.delivered - lastStep
        #expect(latency >= 0.83 && latency <= 1.1, "pause delivered \(latency) s after the last step")
    }

    @Test func aWeakStepInTheRhythmIsNoStop() {
        // A turn: one step of the walk too weak to be a candidate (under the 0.5 m/s² threshold),
        // but the body still bounces (above the 0.25 m/s² of a quiet one).
        var steps = Self.walk(from: 1, count: 20, length: 0.55)
        steps[10].amplitude = 0.45
        let events = Self.run(seconds: 13, steps: steps)
        #expect(events.filter { Self.isPause($0.output) }.count == 1, "one pause, at the end: \(events)")
        #expect(events.allSatisfy { !Self.isPause($0.output) || $0.time > 11 }, "\(events)")
    }

    @Test func aStartWithASlowFirstStepIsReportedAtThatStep() throws {
        // Walk at 1.8 steps/s, stand 4 s, then set off with a slow first step (a 1 s cycle: the
        // first two steps 0.89 s apart, 1.6 of the walk's interval), then at the walk's cadence.
        let before = Self.walk(from: 1, count: 12, length: 1 / 1.8)
        let restart = 1 + 12 / 1.8 + 4
        let after = [(start: restart, length: 1.0, amplitude: 2.0)] + Self.walk(from: restart + 1, count: 10, length: 1 / 1.8)
        let events = Self.run(seconds: 20, steps: before + after)
        #expect(events.map { Self.isPause($0.output) } == [false, true, false, true], "\(events)")
        guard events.count == 4 else { return }
        let resume = events[2]
        let firstStep = try #require(Self.stepTimes(after).first)
        let secondStep = Self.stepTimes(after)[1]
        #expect(abs(resume.time - firstStep) < 0.015, "resume at \(resume.time) s, first step at \(firstStep) s")
        // Delivered on the second step's candidate, one sample after its peak.
        #expect(abs(resume.delivered - secondStep) < 0.025, "resume delivered at \(resume.delivered) s, second step \(secondStep) s")
    }

    @Test func twoBumpsFarSlowerThanTheWalkAreNoStart() {
        // A walk at 2.5 steps/s, a stop, then two bumps 1.1 s apart (2.75 of the walk's
        // interval: shifting weight, not stepping) and nothing more.
        let walk = Self.walk(from: 1, count: 12, length: 0.4)
        let bumps = [(start: 10.0, length: 0.4, amplitude: 2.0), (start: 11.1, length: 0.4, amplitude: 2.0)]
        let events = Self.run(seconds: 15, steps: walk + bumps)
        #expect(events.map { Self.isPause($0.output) } == [false, true], "\(events)")
    }
}
