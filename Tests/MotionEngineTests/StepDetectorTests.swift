import FixedPoint
import Foundation
import MotionAlgorithms
import Testing
import TestSupport

/// The step detector on synthetic accelerometer signals whose step count is known.
@Suite(.blocking) struct StepDetectorTests {
    /// `seconds` of a device whose vertical specific force is g + `amplitude` sin(2π f t)
    /// (a step per cycle) plus a little seeded noise, sampled at 100 Hz; returns credited times.
    static func run(seconds: Double, stepFrequency: Double, amplitude: Double, noise: Double = 0.05) -> [Int64] {
        run(seconds: seconds, stepFrequency: stepFrequency, amplitude: { _ in amplitude }, noise: noise)
    }

    /// As above with the amplitude (m/s²) of step n (0, 1, …).
    static func run(seconds: Double, stepFrequency: Double, amplitude: (Int) -> Double, noise: Double = 0.05) -> [Int64] {
        var detector = StepDetector()
        var steps: [Int64] = []
        var seed: UInt64 = 12345
        func random() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) * 0x1p-53 - 0.5
        }
        for index in 0..<Int(seconds * 100) {
            let t = Double(index) / 100
            let vertical = 9.81 + amplitude(Int(stepFrequency * t)) * sin(2 * .pi * stepFrequency * t) + noise * random()
            let acceleration = FusionVector(x: Q32_32(noise * random()), y: Q32_32(0.3 + noise * random()), z: Q32_32(vertical))
            detector.update(acceleration: acceleration, timeNanoseconds: Int64(index) * 10_000_000) { output in
                if case .step(let time) = output { steps.append(time) }
            }
        }
        return steps
    }

    @Test func aSteadyWalkIsCountedStepByStepFromItsFirstStep() {
        // 1.8 steps/s for 20 s: 36 steps; the first (at 0.14 s: the first peak) is credited too.
        let steps = Self.run(seconds: 20, stepFrequency: 1.8, amplitude: 2.5)
        #expect(abs(steps.count - 36) <= 1, "\(steps.count) steps")
        #expect(steps.first.map { $0 < 600_000_000 } == true, "the bout is credited from its first step: \(steps.first ?? -1)")
        let intervals = zip(steps, steps.dropFirst()).map { Double($1 - $0) / 1e9 }
        #expect(intervals.allSatisfy { abs($0 - 1 / 1.8) < 0.05 }, "\(intervals)")
    }

    @Test func weakStepsInsideAWalkAreCreditedWhereTheyFell() {
        // 1.8 steps/s for 20 s, steps 15 and 16 ten times weaker than the rest (a U-turn): not
        // candidates, but the two-interval gap they leave on a steady rhythm is filled in.
        let steps = Self.run(seconds: 20, stepFrequency: 1.8, amplitude: { $0 == 15 || $0 == 16 ? 0.25 : 2.5 })
        #expect(abs(steps.count - 36) <= 1, "\(steps.count) steps")
        let peaks = [15.25, 16.25].map { Int64($0 / 1.8 * 1e9) }  // each cycle's peak, ns
        for peak in peaks {
            #expect(steps.contains { abs($0 - peak) < 100_000_000 }, "a step near \(Double(peak) / 1e9) s: \(steps)")
        }
    }

    @Test func runningIsCountedToo() {
        let steps = Self.run(seconds: 10, stepFrequency: 2.8, amplitude: 8)
        #expect(abs(steps.count - 28) <= 1, "\(steps.count) steps")
    }

    @Test func aDeviceJoltedHarderThanAnyWalkStartsNoWalk() {
        // Jolted up and down 1.5 times a second with 12 m/s² (1.2 g) of swing: regular, periodic
        // and along gravity like a walk, but a walking body's acceleration stays within a few
        // tenths of g. (The detector without the jolt rule counted it as a walk of 30 steps.)
        let jolted = Self.run(seconds: 20, stepFrequency: 1.5, amplitude: 12)
        #expect(jolted.isEmpty, "\(jolted.count) steps")
        // At a runner's cadence the same swing is a runner's steps.
        let running = Self.run(seconds: 10, stepFrequency: 2.8, amplitude: 12)
        #expect(abs(running.count - 28) <= 1, "\(running.count) steps of 28")
        // Two steps over 1 g inside a walk (a bag bumping against the body) end nothing and are
        // counted with the others.
        let bumped = Self.run(seconds: 20, stepFrequency: 1.8, amplitude: { $0 == 20 || $0 == 21 ? 12 : 2.5 })
        #expect(abs(bumped.count - 36) <= 1, "\(bumped.count) steps of 36")
    }

    @Test func aStillDeviceCountsNothing() {
        #expect(Self.run(seconds: 30, stepFrequency: 1, amplitude: 0, noise: 0.1).isEmpty)
    }

    /// The device moved to and fro along x by the hand at 0.9 Hz (6 m/s² peak), gravity along z:
    /// |a| ≈ g + a²/2g swings at 1.8 Hz, regular and periodic like steps, but sideways.
    static func handTranslation(_ detector: inout StepDetector) -> Int {
        var steps = 0
        for index in 0..<3000 {
            let t = Double(index) / 100
            let acceleration = FusionVector(x: Q32_32(6 * sin(2 * .pi * 0.9 * t)), y: Q32_32(0.3), z: Q32_32(9.81))
            detector.update(acceleration: acceleration, timeNanoseconds: Int64(index) * 10_000_000) { output in
                if case .step = output { steps += 1 }
            }
        }
        return steps
    }

    @Test func aDeviceMovedToAndFroByTheHandIsNotAWalk() {
        var detector = StepDetector()
        #expect(Self.handTranslation(&detector) == 0)
        // The same signal without the bounce test is a walk of over 40 steps: the test is what
        // tells the hand from a gait here.
        var unguarded = StepDetector()
        unguarded.confirmVerticalShare = 0
        unguarded.keepVerticalShare = 0
        #expect(Self.handTranslation(&unguarded) > 40)
    }

    @Test func isolatedBumpsAreNotAWalk() {
        // Three taps 2.5 s apart (a phone put down, picked up): no rhythm, no steps.
        var detector = StepDetector()
        var steps = 0
        for index in 0..<1000 {
            let t = Double(index) / 100
            let bump = [1.0, 3.5, 6.0].contains { abs(t - $0) < 0.05 } ? 6.0 : 0
            detector.update(acceleration: FusionVector(x: .zero, y: .zero, z: Q32_32(9.81 + bump)), timeNanoseconds: Int64(index) * 10_000_000) { output in
                if case .step = output { steps += 1 }
            }
        }
        #expect(steps == 0)
    }

    /// Steps at `frequency` Hz for `seconds`, sampled at 100 Hz: `vertical` m/s² along gravity
    /// (z) and `sideways` m/s² along x at the step's rhythm (a phone on a swinging thigh), plus
    /// `vibration` m/s² at 8 Hz along z (a road under a bicycle); with `rotation` (rad/s rms), a
    /// gyroscope that sees the device turn about y at the stride's rhythm (half the steps'), as a
    /// thigh or a hand turns it, or, `turnsEveryPeak`, once per peak of |a| (a thigh pedalling).
    /// From `start` s on the detector's clock. Returns the steps credited.
    static func count(_ detector: inout StepDetector, seconds: Double, frequency: Double, vertical: Double,
                      sideways: Double = 0, vibration: Double = 0, rotation: Double? = nil, turnsEveryPeak: Bool = false,
                      start: Double = 0) -> Int {
        var steps = 0
        let first = Int((start * 100).rounded())
        for index in first..<first + Int(seconds * 100) {
            let t = Double(index) / 100
            let phase = sin(2 * .pi * frequency * t)
            if let rotation {
                let turn = (turnsEveryPeak ? 2 : 1) * .pi * frequency * t
                let rate = FusionVector(x: .zero, y: Q32_32(rotation * 2.squareRoot() * sin(turn)), z: .zero)
                detector.update(rotationRate: rate, timeNanoseconds: Int64(index) * 10_000_000)
            }
            let acceleration = FusionVector(x: Q32_32(sideways * phase), y: Q32_32(0.3),
                                            z: Q32_32(9.81 + vertical * phase + vibration * sin(2 * .pi * 8 * t)))
            detector.update(acceleration: acceleration, timeNanoseconds: Int64(index) * 10_000_000) { output in
                if case .step = output { steps += 1 }
            }
        }
        return steps
    }

    @Test func aSteadyWalkTheBounceGateRejectsIsCountedByTheFailSafe() {
        // 2 m/s² along gravity and 4.4 m/s² sideways: a bounce share of 2² / (2² + 4.4²) = 0.17,
        // under the gates' 0.2 and over the fail-safe's 0.15. 1.8 steps/s for 30 s: 54 steps.
        var detector = StepDetector()
        let counted = Self.count(&detector, seconds: 30, frequency: 1.8, vertical: 2, sideways: 4.4)
        #expect(abs(counted - 54) <= 2, "\(counted) steps of 54")
        // Without the fail-safe the gates count nothing of this walk: the case it exists for.
        var gatesOnly = StepDetector()
        gatesOnly.steadySteps = 0
        #expect(Self.count(&gatesOnly, seconds: 30, frequency: 1.8, vertical: 2, sideways: 4.4) == 0)
    }

    @Test func aPocketWalkWithLittleBounceIsCountedWhereTheDeviceTurnsLikeAThigh() {
        // 1.6 m/s² along gravity and 4.3 m/s² sideways: a bounce share of 1.6² / (1.6² + 4.3²)
        // = 0.12, under the fail-safe's 0.15 (WeAllWalk's loose-pocket walker: 0.10–0.16).
        // Turning at 2 rad/s rms, as a thigh turns a pocket, it is a walk: 1.8 steps/s for 30 s.
        var pocket = StepDetector()
        let counted = Self.count(&pocket, seconds: 30, frequency: 1.8, vertical: 1.6, sideways: 4.3, rotation: 2)
        #expect(abs(counted - 54) <= 3, "\(counted) steps of 54")
        // The same acceleration on a device twirled at 6 rad/s rms (a hand's, BROAD's handled
        // trials 4–9 rad/s), or where no gyroscope tells how it turns: the share decides, no walk.
        var twirled = StepDetector()
        #expect(Self.count(&twirled, seconds: 30, frequency: 1.8, vertical: 1.6, sideways: 4.3, rotation: 6) == 0)
        var noGyroscope = StepDetector()
        #expect(Self.count(&noGyroscope, seconds: 30, frequency: 1.8, vertical: 1.6, sideways: 4.3) == 0)
        // And with the thigh's lower share not allowed, the slowly turned pocket counts nothing:
        // the rule is what decides.
        var withoutRule = StepDetector()
        withoutRule.thighVerticalShare = 150
        #expect(Self.count(&withoutRule, seconds: 30, frequency: 1.8, vertical: 1.6, sideways: 4.3, rotation: 2) == 0)
    }

    @Test func aDeviceTurnedFasterThanAnyWalkTurnsItStartsNoWalk() {
        // A bouncing walk's acceleration (2.5 m/s² along gravity, 1.8 steps/s for 30 s: 54
        // steps) on a device turning at 2 rad/s rms, as an arm or thigh swings it: a walk.
        var swung = StepDetector()
        let counted = Self.count(&swung, seconds: 30, frequency: 1.8, vertical: 2.5, rotation: 2)
        #expect(abs(counted - 54) <= 2, "\(counted) steps of 54")
        // The same on a device twirled at 6 rad/s rms (BROAD's handled trials: 4–9 rad/s): the
        // hand's, no walk. (Without the rule every gate passes it: 54 steps.)
        var twirled = StepDetector()
        let spun = Self.count(&twirled, seconds: 30, frequency: 1.8, vertical: 2.5, rotation: 6)
        #expect(spun == 0, "\(spun) steps")
        // At a runner's cadence the same turning is a runner's arm: 2.8 steps/s for 10 s.
        var runner = StepDetector()
        let ran = Self.count(&runner, seconds: 10, frequency: 2.8, vertical: 8, rotation: 6)
        #expect(abs(ran - 28) <= 2, "\(ran) steps of 28")
    }

    @Test func aGyroscopeThatStopsNoLongerDecides() {
        // A device twirled at 6 rad/s rms for 10 s (a hand's: no walk), then its gyroscope stops
        // (a failing chip) while the accelerometer goes on, and its owner walks 30 s (1.8 steps/s:
        // 54 steps). The gyroscope's last averages (6 rad/s) must not refuse the walk: without a
        // recent sample the detector decides as it does without a gyroscope.
        var detector = StepDetector()
        #expect(Self.count(&detector, seconds: 10, frequency: 1.8, vertical: 2.5, rotation: 6) == 0)
        let walked = Self.count(&detector, seconds: 30, frequency: 1.8, vertical: 2.5, start: 10)
        #expect(abs(walked - 54) <= 3, "\(walked) steps of 54")
        // A pocket ride's strokes (75 rpm), then the gyroscope stops and the rider walks off at
        // a pedalling cadence's pace (1.25 steps/s for 40 s: 50 steps): the ride's last rotation
        // must not make every step a pedal stroke. The steps of the first 4 s may be lost (the
        // rotation is taken as current for 1 s, and no walk starts until 3 s after the last
        // stroke): 45 to 50, and 1 step of slack.
        var rider = StepDetector()
        _ = Self.count(&rider, seconds: 60, frequency: 1.25, vertical: 5, rotation: 2, turnsEveryPeak: true)
        let pedalling = rider.isPedalling
        #expect(pedalling)
        let afterRide = Self.count(&rider, seconds: 40, frequency: 1.25, vertical: 5, start: 60)
        #expect(afterRide >= 50 - 5 && afterRide <= 51, "\(afterRide) steps of 50")
        let stillPedalling = rider.isPedalling  // (a Bool, not the detector, in a failure's message)
        #expect(!stillPedalling)
    }

    @Test func aThighPedallingABicycleIsNoWalk() {
        // A phone in a trouser pocket on a bicycle at 75 rpm for 60 s: |a| peaks once a crank
        // revolution (the knee's up and down, ±5 m/s² along gravity) and the thigh turns once a
        // revolution (2 rad/s rms). Its first strokes confirm a bout before the rotation's 2 s
        // window and its copy a revolution earlier have been seen (2.8 s: four strokes); the
        // tenth stroke in a row then ends it (nine more credited), and no new one starts.
        var pedalling = StepDetector()
        let strokes = Self.count(&pedalling, seconds: 60, frequency: 1.25, vertical: 5, rotation: 2, turnsEveryPeak: true)
        #expect(strokes <= 4 + 9, "\(strokes) steps credited for 75 pedal strokes")
        #expect(!pedalling.isWalking && pedalling.isPedalling)
        // The same |a| on a thigh that turns once every two peaks, as a walker's does (mirrored
        // after one step): a slow walk, counted (1.25 steps/s for 60 s: 75 steps).
        var walking = StepDetector()
        let steps = Self.count(&walking, seconds: 60, frequency: 1.25, vertical: 5, rotation: 2)
        #expect(abs(steps - 75) <= 2, "\(steps) steps of 75")
        #expect(!walking.isPedalling)
        // Without a gyroscope nothing tells the ride from a walk: counted as steps (the firmware's
        // step stage, which has none, counts a pocket ride).
        var noGyroscope = StepDetector()
        let blind = Self.count(&noGyroscope, seconds: 60, frequency: 1.25, vertical: 5)
        #expect(abs(blind - 75) <= 2, "\(blind) steps of 75")
    }

    @Test func aRhythmUnderRoadVibrationIsNotAWalk() {
        // A pedalling rhythm at the handlebar (1 m/s² at 2.4 Hz) under 3 m/s² of 8 Hz vibration:
        // the vibration band carries about three times the step band's rms, so no peak is a step.
        var detector = StepDetector()
        #expect(Self.count(&detector, seconds: 60, frequency: 2.4, vertical: 1, vibration: 3) == 0)
        // Without the vibration test the same ride is counted as steps: the test decides here.
        var unguarded = StepDetector()
        unguarded.vibrationRatioPercent = 0
        #expect(Self.count(&unguarded, seconds: 60, frequency: 2.4, vertical: 1, vibration: 3) > 20)
        // And the same rhythm without the road is a walk, counted (2.4 steps/s for 60 s: 144).
        var calm = StepDetector()
        let counted = Self.count(&calm, seconds: 60, frequency: 2.4, vertical: 1)
        #expect(abs(counted - 144) <= 2, "\(counted) steps of 144")
    }

    /// Steps at the given times (s; `amplitudes` m/s², one each), sampled at 100 Hz: a brief rise
    /// of the vertical specific force at each (cos⁸ of the phase between two steps, as a heel
    /// strike's), its amplitude blended from one step's to the next. Returns the times credited
    /// (s) and the bout's rhythm (s) after each sample.
    /// With `swing` (rad/s rms, `swingAxis` in device axes: x horizontal, z along gravity), a
    /// gyroscope that sees the device swing once every `swingPeriod` s.
    static func credited(_ detector: inout StepDetector, stepTimes: [Double], amplitudes: [Double],
                         swing: Double? = nil, swingAxis: FusionVector<Q32_32> = FusionVector(x: .one, y: .zero, z: .zero),
                         swingPeriod: Double = 1) -> (steps: [Double], rhythm: [Double]) {
        var credited: [Double] = [], rhythm: [Double] = []
        var segment = 0
        for index in 0..<Int((stepTimes.last! + 3) * 100) {
            let t = Double(index) / 100
            if let swing {
                let rate = Q32_32(swing * 2.squareRoot() * sin(2 * .pi * t / swingPeriod))
                let rotation = FusionVector(x: swingAxis.x * rate, y: swingAxis.y * rate, z: swingAxis.z * rate)
                detector.update(rotationRate: rotation, timeNanoseconds: Int64(index) * 10_000_000)
            }
            while segment + 1 < stepTimes.count - 1, t >= stepTimes[segment + 1] { segment += 1 }
            let start = stepTimes[segment], end = stepTimes[segment + 1]
            let u = min(max((t - start) / (end - start), 0), 1)
            let amplitude = amplitudes[segment] * (1 - u) + amplitudes[segment + 1] * u
            let vertical = t < stepTimes[0] - 0.5 || t > stepTimes.last! + 0.5 ? 9.81 : 9.81 + amplitude * pow(cos(.pi * u), 8)
            let acceleration = FusionVector(x: .zero, y: Q32_32(0.3), z: Q32_32(vertical))
            detector.update(acceleration: acceleration, timeNanoseconds: Int64(index) * 10_000_000) { output in
                if case .step(let time) = output { credited.append(Double(time) / 1e9) }
            }
            rhythm.append(Double(detector.rhythmNanoseconds) / 1e9)
        }
        return (credited, rhythm)
    }

    @Test func aStepMissedAfterAnUnevenStrideDoesNotHalveTheRhythm() {
        // 0.65 s steps for 10 s; an uneven pair (0.5 s, 0.8 s: a stumble) that the bout keeps but
        // that leaves its rhythm unproven; then a step too weak to be a candidate, 0.75 s after
        // the last and before the next (1.5 s without one: about two intervals, not filled so
        // soon after the stumble), then 0.65 s steps for 15 s.
        var times = (0..<16).map { 1 + 0.65 * Double($0) }
        times += [times.last! + 0.5, times.last! + 1.3]
        let weak = times.last! + 0.75
        times.append(weak)
        times += (0..<23).map { weak + 0.75 + 0.65 * Double($0) }
        let amplitudes = times.map { $0 == weak ? 0.25 : 2.5 }
        var detector = StepDetector()
        let (credited, rhythm) = Self.credited(&detector, stepTimes: times, amplitudes: amplitudes)
        // The gap was a step missed, not the cadence halved: the rhythm stays the walk's, within
        // 5 % of 0.65 s from the gap on, and every strong step after it is credited where it fell
        // (but the walk's closing step, which the bout's end credits on its own terms).
        let fromGap = Int((weak + 0.75) * 100)
        let farthest = rhythm[fromGap...].map { abs($0 - 0.65) }.max()!
        #expect(farthest < 0.65 * 0.05, "the rhythm moved \(farthest) s from the walk's 0.65 s")
        let after = times.filter { $0 > weak && $0 < times.last! }
        let missing = after.filter { time in !credited.contains { abs($0 - time) < 0.1 } }
        #expect(missing.isEmpty, "steps after the gap not credited: \(missing)")
        #expect(credited.count == times.count - 2, "\(credited.count) steps of \(times.count)")
        // Followed like any interval, the gap pulls the rhythm a third of the way to 1.5 s: on a
        // cane walker's irregular gait (WeAllWalk) the periodicity at that lag then failed and
        // 6 s of steps were lost; here, on a clean rhythm, it still passes.
        var following = StepDetector()
        following.gapKeepsRhythm = false
        let followed = Self.credited(&following, stepTimes: times, amplitudes: amplitudes).rhythm
        #expect(followed[fromGap...].max()! > 0.65 * 1.25)
    }

    @Test func aPocketsAlternatingPeaksKeepTheStridesRhythmWhereTheDeviceSwingsLikeALimb() {
        // A pocket on a walker's thigh: heel strikes every 0.56 s, each a peak of |a| for 10 s;
        // then the peaks come 0.22 and 0.90 s apart by turns for 25 s (the far foot's strike
        // reaches the pocket at another phase of the thigh's swing; the 3 Hz low-pass makes
        // them 0.30 / 0.82 s, as WeAllWalk's pockets' 0.32 / 0.72 s at 0.52 s heel strikes).
        // The thigh swings once a stride (1.12 s) about a horizontal axis, 2 rad/s rms.
        var times = (0..<18).map { 1 + 0.56 * Double($0) }
        while times.last! < 35 { times.append(times.last! + (times.count % 2 == 0 ? 0.22 : 0.90)) }
        let amplitudes = times.map { _ in 2.5 }
        let alternating = 1100..<Int(times.last! * 100)
        var limb = StepDetector()
        let (steps, rhythm) = Self.credited(&limb, stepTimes: times, amplitudes: amplitudes, swing: 2, swingPeriod: 1.12)
        // The rhythm follows half strides: within 10 % of 0.56 s throughout, and every peak is
        // credited (the walk's closing step and one of the first may be missed).
        let farthest = rhythm[alternating].map { abs($0 - 0.56) }.max()!
        #expect(farthest < 0.056, "the rhythm moved \(farthest) s from the half stride's 0.56 s")
        #expect(steps.count >= times.count - 2 && steps.count <= times.count, "\(steps.count) steps credited of \(times.count)")
        // Following each interval instead, the rhythm ratchets to the short one (a long one is
        // taken for a step missed and left out, each short one pulls it: 0.44 s after 2 s), the
        // periodicity at its lag and twice it misses the stride, the walk ends, and the
        // alternating peaks are too uneven to confirm another: 20 steps of 62.
        var stepByStep = StepDetector()
        stepByStep.limbSwingRate = 0
        let (lost, followed) = Self.credited(&stepByStep, stepTimes: times, amplitudes: amplitudes, swing: 2, swingPeriod: 1.12)
        #expect(followed[alternating].contains { abs($0 - 0.56) > 0.1 }, "rhythm \(followed[alternating].min()!)…\(followed[alternating].max()!) s")
        #expect(lost.count < times.count / 2, "\(lost.count) steps credited of \(times.count)")
        // The same rotation about the vertical is a body turning, not a limb: as step by step.
        var turning = StepDetector()
        let vertical = FusionVector<Q32_32>(x: .zero, y: .zero, z: .one)
        let turned = Self.credited(&turning, stepTimes: times, amplitudes: amplitudes, swing: 2, swingAxis: vertical, swingPeriod: 1.12).steps
        #expect(turned == lost, "\(turned.count) steps turning, \(lost.count) step by step")
    }
}
