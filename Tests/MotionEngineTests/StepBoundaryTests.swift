import FixedPoint
import Foundation
import MotionAlgorithms
import Testing

/// Where walks start and end: the weight shift before the first step, a walk resumed after a
/// stop, and the closing step the gyroscope shows (StepDetector, TrunkYawSwing).
@Suite struct StepBoundaryTests {
    /// A synthetic walker at 100 Hz, device flat and face up (z along gravity): still until
    /// `start` (s), then one vertical bounce of `amplitude` m/s² per step at `frequency` steps/s
    /// (step k peaks at start + (k + ¼)/f), `steps` of them; `extra` (s → m/s²) adds anything
    /// else to the vertical. With `yawAmplitude` (rad/s) the gyroscope reads the pelvis's yaw
    /// swing, cos(π f (t − start)): its extremes 0.14 s before each step's peak, one more (the
    /// closing step) ¾ of an interval after the last, ending at zero half an interval later.
    struct Walk {
        var start = 3.0
        var frequency = 1.8
        var steps = 20
        var amplitude = 2.5
        var seconds = 20.0
        var yawAmplitude: Double?
        var extra: (Double) -> Double = { _ in 0 }

        /// The times (ns) the detector credited.
        func run(_ detector: inout StepDetector) -> [Int64] {
            var credited: [Int64] = []
            let end = start + Double(steps) / frequency
            for index in 0..<Int(seconds * 100) {
                let t = Double(index) / 100
                let time = Int64(index) * 10_000_000
                let walking = t >= start && t < end
                let vertical = 9.81 + (walking ? amplitude * sin(2 * .pi * frequency * (t - start)) : 0) + extra(t)
                if let yawAmplitude {
                    let swinging = t >= start && t < end + 0.5 / frequency
                    let yaw = swinging ? yawAmplitude * cos(.pi * frequency * (t - start)) : 0
                    detector.update(rotationRate: FusionVector(x: .zero, y: .zero, z: Q32_32(yaw)), timeNanoseconds: time)
                }
                detector.update(acceleration: FusionVector(x: .zero, y: Q32_32(0.3), z: Q32_32(vertical)), timeNanoseconds: time) { output in
                    if case .step(let at) = output { credited.append(at) }
                }
            }
            return credited
        }

        func run() -> [Int64] {
            var detector = StepDetector()
            return run(&detector)
        }

        /// Step k's peak, ns.
        func peak(_ k: Int) -> Int64 { Int64((start + (Double(k) + 0.25) / frequency) * 1e9) }
    }

    @Test func theWeightShiftBeforeTheFirstStepIsNotAStep() {
        // A bounce of 2 m/s² 0.35 s before the first step's peak (the weight shift onto the
        // stance leg): at 1.8 steps/s, 0.35 s is within ±40 % of the walk's mean interval, so
        // only the shorter-than-the-rhythm test leaves it out.
        var walk = Walk()
        let shift = Double(walk.peak(0)) / 1e9 - 0.35
        walk.extra = { t in 2 * exp(-pow((t - shift) / 0.05, 2)) }
        let steps = walk.run()
        #expect(steps.count == walk.steps, "\(steps.count) steps")
        #expect(steps.first.map { abs($0 - walk.peak(0)) < 100_000_000 } == true,
                "the walk is credited from its first step at \(Double(walk.peak(0)) / 1e9) s: \(steps.prefix(3))")
    }

    @Test func aWalkResumedAfterAStopIsCountedFromThreeSteps() {
        // 20 steps, 3 s still, then 3 steps at 1.5 steps/s (slower: a shuffle to a door).
        var walk = Walk()
        let resumed = walk.start + Double(walk.steps) / walk.frequency + 3
        walk.extra = { t in t >= resumed && t < resumed + 2 ? 2.5 * sin(2 * .pi * 1.5 * (t - resumed)) : 0 }
        let steps = walk.run()
        let after = steps.filter { Double($0) / 1e9 > resumed }
        #expect(after.count == 3, "steps after the stop: \(after)")
        // The same three steps without the walk before them are not a walk.
        let alone = Walk(steps: 0, extra: walk.extra).run()
        #expect(alone.isEmpty, "\(alone)")
    }

    @Test func fasterPeaksAfterAWalkDoNotResumeIt() {
        // A phone buzzing in the hand after the walk: 3 bounces 0.3 s apart.
        var walk = Walk()
        let buzz = walk.start + Double(walk.steps) / walk.frequency + 3
        walk.extra = { t in [0.0, 0.3, 0.6].contains { abs(t - buzz - $0) < 0.04 } ? 5 : 0 }
        let steps = walk.run()
        #expect(steps.filter { Double($0) / 1e9 > buzz - 0.1 }.isEmpty, "\(steps.suffix(4))")
    }

    @Test func theGyroscopeFindsTheClosingStep() {
        // Without a gyroscope (or with one that reads no yaw: the simulated walker's) the walk
        // is its 20 bounces; with the pelvis's swing, one more swing after the last bounce is
        // the closing step, credited ¾ of an interval after the last step.
        let plain = Walk().run()
        #expect(plain.count == 20, "\(plain.count) steps")
        let still = Walk(yawAmplitude: 0).run()
        #expect(still == plain)
        let swinging = Walk(yawAmplitude: 0.6).run()
        #expect(swinging.count == 21, "\(swinging.count) steps")
        if let last = plain.last, let closing = swinging.last {
            let expected = last + Int64(0.75 / 1.8 * 1e9)
            #expect(abs(closing - expected) < 50_000_000, "closing step at \(Double(closing) / 1e9) s, expected \(Double(expected) / 1e9)")
        }
    }

    @Test func aYawSwingWithoutTheWalksRhythmIsNoClosingStep() {
        var swing = TrunkYawSwing()
        // One slow turn of the trunk (0.3 Hz), no stepping rhythm before the "last step".
        for index in 0..<1000 {
            let t = Double(index) / 100
            swing.update(rotationRate: FusionVector(x: .zero, y: .zero, z: Q32_32(0.6 * sin(2 * .pi * 0.3 * t))),
                         gravity: FusionVector(x: .zero, y: .zero, z: Q32_32(9.81)), gravityLength: Q32_32(9.81),
                         timeNanoseconds: Int64(index) * 10_000_000)
        }
        #expect(swing.closingStep(after: 8_000_000_000, interval: 550_000_000) == nil)
    }
}
