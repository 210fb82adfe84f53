import FixedPoint
import Foundation
import MotionAlgorithms
import Testing
import TestSupport

/// The activity classifier on synthetic trajectories whose activity is known. Each is sampled at
/// `rate` Hz with seeded noise; the walking detector's verdict (`stepping`, `cadence`) is given
/// directly, as the pedometer's detector would give it, so these test the classifier alone.
@Suite(.blocking) struct ActivityClassifierTests {
    /// One sample of a trajectory: specific force (m/s², device axes) and rotation rate (rad/s).
    struct Sample {
        var acceleration: (Double, Double, Double)
        var rotation: (Double, Double, Double)?
        var stepping = false
        var cadence = 0.0
        /// The step detector's verdict that its candidates are pedal strokes (`isPedalling`).
        var pedalling = false
    }

    /// The estimate after each update, with its delivery time (s).
    struct Run {
        var updates: [(time: Double, estimate: MotionActivityEstimate)] = []
        /// The estimate holding at `time` (s).
        func flags(at time: Double) -> MotionActivityFlags? { updates.last { $0.time <= time }?.estimate.flags }
        func everFlags(_ flags: MotionActivityFlags, after start: Double = 0) -> Bool {
            updates.contains { $0.time >= start && !$0.estimate.flags.isDisjoint(with: flags) }
        }
        /// First delivery time at or after `start` whose flags contain `flags`.
        func firstTime(of flags: MotionActivityFlags, after start: Double = 0) -> Double? {
            updates.first { $0.time >= start && $0.estimate.flags.contains(flags) }?.time
        }
    }

    static func run(seconds: Double, rate: Double = 100, _ trajectory: (Double) -> Sample) -> Run {
        var classifier = ActivityClassifier()
        var result = Run()
        for index in 0..<Int(seconds * rate) {
            let t = Double(index) / rate
            let s = trajectory(t)
            let a = FusionVector(x: Q32_32(s.acceleration.0), y: Q32_32(s.acceleration.1), z: Q32_32(s.acceleration.2))
            let w = s.rotation.map { FusionVector(x: Q32_32($0.0), y: Q32_32($0.1), z: Q32_32($0.2)) }
            if classifier.update(acceleration: a, rotationRate: w, timeNanoseconds: Int64(index) * Int64(1e9 / rate),
                                 stepping: s.stepping, cadence: Q32_32(s.cadence), pedalling: s.pedalling) {
                result.updates.append((t, classifier.estimate))
            }
        }
        return result
    }

    /// Seeded uniform noise in [−0.5, 0.5).
    struct Noise {
        var seed: UInt64
        mutating func next() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) * 0x1p-53 - 0.5
        }
    }

    /// A person walking with the device on the waist: vertical g + A sin(2π f t) (a step per
    /// cycle), a lateral sway at the stride frequency f/2, a little rotation.
    static func gait(_ t: Double, frequency: Double, amplitude: Double, noise: inout Noise) -> Sample {
        let vertical = 9.81 + amplitude * sin(2 * .pi * frequency * t) + 0.1 * noise.next()
        let lateral = 0.3 * amplitude * sin(.pi * frequency * t) + 0.1 * noise.next()
        let forward = 0.2 * amplitude * cos(2 * .pi * frequency * t)
        return Sample(acceleration: (lateral, forward, vertical),
                      rotation: (0.3 * sin(.pi * frequency * t), 0.2 * cos(.pi * frequency * t), 0.1))
    }

    @Test func aStillDeviceIsUnknownAtStartThenStationaryWithClimbingConfidence() {
        var noise = Noise(seed: 1)
        let run = Self.run(seconds: 30) { _ in
            Sample(acceleration: (0.02 * noise.next(), 0.02 * noise.next(), 9.81 + 0.02 * noise.next()),
                   rotation: (0.005 * noise.next(), 0.005 * noise.next(), 0.005 * noise.next()))
        }
        #expect(run.updates.first?.time == 0 && run.updates.first?.estimate.flags == .unknown, "unknown right after start")
        #expect(!run.everFlags(.unknown, after: 0.01), "unknown only at start")
        let stationary = run.firstTime(of: .stationary) ?? .infinity
        #expect(stationary <= 2.5, "stationary at \(stationary) s")
        let confidences = run.updates.filter { $0.estimate.flags == .stationary }.map(\.estimate.confidence)
        #expect(confidences == [.low, .medium, .high], "\(confidences)")
        #expect(!run.everFlags([.walking, .running, .automotive, .cycling]))
    }

    @Test func aWalkAt1_8HzIsWalkingAsSoonAsTheDetectorSaysSo() {
        var noise = Noise(seed: 2)
        let run = Self.run(seconds: 25) { t in
            var s = Self.gait(t, frequency: 1.8, amplitude: 2.5, noise: &noise)
            s.stepping = t >= 3
            s.cadence = t >= 3 ? 1.8 : 0
            return s
        }
        let walking = run.firstTime(of: .walking) ?? .infinity
        #expect(walking >= 3 && walking <= 3.05, "walking at \(walking) s")
        #expect(run.flags(at: 24.9) == .walking)
        #expect(!run.everFlags([.running, .automotive, .cycling]))
        let confidences = run.updates.filter { $0.estimate.flags == .walking }.map(\.estimate.confidence)
        #expect(confidences == [.low, .medium, .high], "\(confidences)")
    }

    @Test func aRunAt2_8HzIsRunning() {
        var noise = Noise(seed: 3)
        let run = Self.run(seconds: 15) { t in
            var s = Self.gait(t, frequency: 2.8, amplitude: 8, noise: &noise)
            s.stepping = t >= 2.5
            s.cadence = 2.8
            return s
        }
        let running = run.firstTime(of: .running) ?? .infinity
        #expect(running <= 3, "running at \(running) s (goal: within 3 s of its start)")
        #expect(run.flags(at: 14.9) == .running)
    }

    @Test func aFastWalkWithoutAFlightPhaseIsNotRunning() {
        // 2.5 steps/s (above the 140 steps/min transition cadence) but walking's impacts.
        var noise = Noise(seed: 4)
        let run = Self.run(seconds: 15) { t in
            var s = Self.gait(t, frequency: 2.5, amplitude: 3, noise: &noise)
            s.stepping = t >= 2.5
            s.cadence = 2.5
            return s
        }
        #expect(run.flags(at: 14.9) == .walking)
        #expect(!run.everFlags(.running))
    }

    @Test func stepsFromADeviceTurnedOverInTheHandAreNoCall() {
        // Turning about x at 1.5 rad/s: gravity sweeps through y and z; the detector (wrongly)
        // says stepping. Not carried, so neither walking nor stationary.
        var noise = Noise(seed: 5)
        let run = Self.run(seconds: 20) { t in
            let angle = 1.5 * t
            return Sample(acceleration: (0.1 * noise.next(), 9.81 * sin(angle) + 1.5 * sin(11 * t), 9.81 * cos(angle)),
                          rotation: (1.5, 0, 0), stepping: t >= 3, cadence: 1.75)
        }
        #expect(!run.everFlags([.walking, .running, .automotive, .cycling], after: 3.5))
        #expect(run.flags(at: 19.9) == [])
    }

    /// Road and engine vibration: white noise through a 20 Hz low-pass minus a 5 Hz low-pass
    /// (first order, as the 5–20 Hz band of ISO 2631's car-seat spectra), `rms` m/s² on each axis
    /// (about; z twice x and y), at 100 Hz.
    struct RoadVibration {
        var noise: Noise
        var fast = (0.0, 0.0, 0.0), slow = (0.0, 0.0, 0.0)
        let rms: Double

        mutating func next() -> (Double, Double, Double) {
            let dt = 0.01
            func band(_ fast: inout Double, _ slow: inout Double, _ input: Double) -> Double {
                fast += (input - fast) * min(1, 2 * .pi * 20 * dt)
                slow += (fast - slow) * min(1, 2 * .pi * 5 * dt)
                return fast - slow
            }
            let scale = 8 * rms  // uniform noise (σ = 0.29) through the band keeps about 1/2.3 of it
            return (band(&fast.0, &slow.0, scale * noise.next()), band(&fast.1, &slow.1, scale * noise.next()),
                    band(&fast.2, &slow.2, 2 * scale * noise.next()))
        }
    }

    /// Rough 5–20 Hz shaking of 1 m/s² rms (`RoadVibration`, seeded `seed`) with random bumps
    /// of a few m/s² on z in the ride band (noise seeded `seed + 1`, smoothed over 0.2 s): a
    /// rough road under a handlebar, a jolted pocket, a vibration motor in a moving hand.
    struct Jolts {
        var road: RoadVibration
        var noise: Noise
        var bump = 0.0

        init(seed: UInt64) {
            road = RoadVibration(noise: Noise(seed: seed), rms: 1.0)
            noise = Noise(seed: seed + 1)
        }

        mutating func next() -> (Double, Double, Double) {
            let v = road.next()
            bump += (noise.next() * 40 - bump) * 0.05
            return (v.0, v.1, v.2 + bump)
        }
    }

    /// A car, documented trajectory: the device lies in a cupholder (gravity on z) at 100 Hz.
    /// - road and engine vibration (`RoadVibration`), about 0.15 m/s² rms on x, y, 0.3 on z;
    /// - the body bouncing on its suspension: noise through a 1.3 Hz resonance (damping 0.3),
    ///   a few tenths of m/s² on z: random, not a rhythm;
    /// - speed changes: ±1 m/s² along x with a 20 s period; turns: yaw rate ±0.15 rad/s.
    /// After `driveSeconds` the car waits at a light: idle engine only (a 25 Hz tone, 0.04 m/s²).
    struct Car {
        var noise = Noise(seed: 6)
        var road = RoadVibration(noise: Noise(seed: 60), rms: 0.15)
        var bounce = 0.0, bounceRate = 0.0
        let driveSeconds: Double

        mutating func sample(_ t: Double) -> Sample {
            let dt = 0.01
            guard t < driveSeconds else {
                let idle = 0.04 * sin(2 * .pi * 25 * t)
                return Sample(acceleration: (0.01 * noise.next(), 0.01 * noise.next(), 9.81 + idle), rotation: (0, 0, 0.002))
            }
            let v = road.next()
            // Suspension: x'' = −ω² x − 2ζω x' + noise, ω = 2π · 1.3 Hz.
            let omega = 2 * .pi * 1.3
            bounceRate += (-omega * omega * bounce - 2 * 0.3 * omega * bounceRate + 7 * noise.next()) * dt
            bounce += bounceRate * dt
            let heave = -omega * omega * bounce  // the bounce's acceleration, m/s²
            return Sample(acceleration: (sin(2 * .pi * t / 20) + v.0, 0.3 * sin(2 * .pi * t / 7) + v.1, 9.81 + heave + v.2),
                          rotation: (0.01 * noise.next(), 0.01 * noise.next(), 0.15 * sin(2 * .pi * t / 15)))
        }
    }

    @Test func aCarRideIsAutomotiveAndStaysSoAtARedLight() {
        var car = Car(driveSeconds: 90)
        let run = Self.run(seconds: 130) { car.sample($0) }
        let automotive = run.firstTime(of: .automotive) ?? .infinity
        #expect(automotive >= 25 && automotive <= 45, "automotive at \(automotive) s (needs 30 s of evidence)")
        // Driving, the device may also read as stationary (it lies still in the holder; only
        // the vibration moves it), as Core Motion allows; automotive is what matters.
        #expect(run.flags(at: 89)?.contains(.automotive) == true)
        #expect(run.flags(at: 125) == [.automotive, .stationary], "at the light: \(String(describing: run.flags(at: 125)))")
        #expect(!run.everFlags([.walking, .running, .cycling]))
    }

    /// A bicycle, documented trajectory: the device in a jersey's back pocket (upright, leaning
    /// forward 30°: gravity on y and z), pedalling at 80 rpm (1.33 Hz), at 100 Hz:
    /// - the torso sways sideways once per revolution (±0.8 m/s² on x) and bobs twice per
    ///   revolution (±0.4 m/s² along y), rolling ±0.15 rad/s;
    /// - road vibration through frame and saddle (`RoadVibration`, about 0.15 / 0.3 m/s² rms).
    @Test func pedallingWithASteadyDeviceIsCycling() {
        var road = RoadVibration(noise: Noise(seed: 9), rms: 0.15)
        let cadence = 80.0 / 60
        let run = Self.run(seconds: 60) { t in
            let v = road.next()
            let sway = 0.8 * sin(2 * .pi * cadence * t), bob = 0.4 * sin(4 * .pi * cadence * t)
            return Sample(acceleration: (sway + v.0, 9.81 * cos(.pi / 6) + bob + v.1, 9.81 * sin(.pi / 6) + v.2),
                          rotation: (0.05 * sin(4 * .pi * cadence * t), 0.02, 0.15 * cos(2 * .pi * cadence * t)))
        }
        let cycling = run.firstTime(of: .cycling) ?? .infinity
        #expect(cycling >= 15 && cycling <= 35, "cycling at \(cycling) s (needs 20 s of evidence)")
        #expect(run.flags(at: 59) == .cycling)
        #expect(!run.everFlags([.walking, .running, .automotive]))
    }

    @Test func aWalkTheDetectorMissesIsNeverAVehicle() {
        // The same gait with `stepping` false throughout (a detector miss): heel strikes rule
        // out a bicycle and the rhythm rules out a car.
        var noise = Noise(seed: 7)
        let run = Self.run(seconds: 120) { Self.gait($0, frequency: 1.8, amplitude: 2.5, noise: &noise) }
        #expect(!run.everFlags(.vehicle))
    }

    @Test func aNoisySensorOnATableIsStationaryNotACar() {
        // 0.07 m/s² white noise at 286 Hz (BROAD's IMU at rest): sensor noise is not road vibration.
        var noise = Noise(seed: 8)
        let run = Self.run(seconds: 90, rate: 2000.0 / 7) { _ in
            Sample(acceleration: (0.25 * noise.next(), 0.25 * noise.next(), 9.81 + 0.25 * noise.next()),
                   rotation: (0.01 * noise.next(), 0.01 * noise.next(), 0.01 * noise.next()))
        }
        #expect(run.flags(at: 89) == .stationary)
        #expect(!run.everFlags(.vehicle))
    }

    // MARK: The gait rhythm, on-foot calls the step detector misses, vehicles (issue 19)

    @Test func aHandHeldRunWithWeakImpactsAndNoDetectorStepsIsRunning() {
        // 2.7 steps/s (162 steps/min), |a| bouncing by ±5 m/s² (0.36 g rms: a hand damps the
        // impacts below the 0.5 g a pocket sees), and the detector credits nothing: the body's
        // rhythm alone must call it running, within 6 s of its start.
        var noise = Noise(seed: 11)
        let run = Self.run(seconds: 20) { Self.gait($0, frequency: 2.7, amplitude: 5, noise: &noise) }
        let running = run.firstTime(of: .running) ?? .infinity
        #expect(running <= 6, "running at \(running) s")
        #expect(run.flags(at: 19.9) == .running)
        #expect(!run.everFlags(.vehicle))
    }

    @Test func aSwingingArmRunIsRunningThoughTheDeviceTurns() {
        // A phone in a runner's swinging hand: gravity sweeps ±60° at the stride rate (below the
        // carried bound), the body's impacts bounce |a| at 2.8 steps/s by 0.6 g.
        var noise = Noise(seed: 12)
        let run = Self.run(seconds: 20) { t in
            let swing = (.pi / 3) * sin(.pi * 2.8 * t)
            let bounce = 9.81 + 8 * sin(2 * .pi * 2.8 * t) + 0.1 * noise.next()
            return Sample(acceleration: (0.1 * noise.next(), bounce * sin(swing), bounce * cos(swing)),
                          rotation: ((.pi / 3) * .pi * 2.8 * cos(.pi * 2.8 * t), 0, 0))
        }
        #expect(run.flags(at: 19.9) == .running)
    }

    @Test func aWalkTheDetectorMissesIsWalkingFromItsRhythm() {
        // 1.8 steps/s, a hand-held phone's small bounce (±1 m/s²), no detector steps.
        var noise = Noise(seed: 13)
        let run = Self.run(seconds: 60) { Self.gait($0, frequency: 1.8, amplitude: 1, noise: &noise) }
        let walking = run.firstTime(of: .walking) ?? .infinity
        // The rhythm alone needs its 4 s ring and 2 s of confirmation (the detector, when it
        // sees the steps, is faster).
        #expect(walking <= 6, "walking at \(walking) s")
        #expect(run.flags(at: 59.9) == .walking)
        #expect(!run.everFlags([.running, .automotive, .cycling]))
    }

    @Test func smoothRoadVibrationWithoutRhythmIsAutomotive() {
        // A car on a smooth road, phone in a mount: vibration only 0.05 m/s² rms in 5–20 Hz
        // (below the old 0.08 m/s² floor), the body's random bounce, no gait.
        var car = Car(road: RoadVibration(noise: Noise(seed: 61), rms: 0.04), driveSeconds: 120)
        let run = Self.run(seconds: 100) { car.sample($0) }
        let automotive = run.firstTime(of: .automotive) ?? .infinity
        #expect(automotive >= 25 && automotive <= 50, "automotive at \(automotive) s (needs 27 s of 30 of evidence)")
        #expect(run.flags(at: 99)?.contains(.automotive) == true)
        #expect(!run.everFlags([.walking, .running, .cycling]))
    }

    @Test func aHandlebarOnARoughRoadIsCyclingAndItsShocksAreNoSteps() {
        // A phone on a handlebar, accelerometer only: rough-road vibration 1 m/s² rms (no
        // suspension), random bumps, no pedalling rhythm. After 30 s the detector is fooled by
        // the shocks and says stepping half of the time: the ride goes on.
        var jolts = Jolts(seed: 14)
        let run = Self.run(seconds: 90) { t in
            let v = jolts.next()
            return Sample(acceleration: (-0.2 + v.0, v.1, 9.9 + v.2), rotation: nil,
                          stepping: t > 30 && Int(t / 5) % 2 == 1, cadence: 1.8)
        }
        let cycling = run.firstTime(of: .cycling) ?? .infinity
        #expect(cycling <= 40, "cycling at \(cycling) s")
        #expect(run.flags(at: 89.9) == .cycling)
        #expect(!run.everFlags([.walking, .running, .automotive], after: cycling))
    }

    /// A handlebar, accelerometer only: 40 s of rough road (`Jolts`), 30 s stopped at a red light
    /// (the rider astride: the bike all but still), then 90 s of smooth asphalt that shakes the
    /// phone as a car's road shakes its mount (`Car`), with a second of rough road (a kerb, a
    /// drain cover) every 20 s. No gait anywhere, so the rider never got off: it is one ride.
    /// (Before: the call ended 10 s into the stop, and the smooth road was called automotive.)
    @Test func aBicycleRideStaysCyclingThroughARedLightAndOverSmoothAsphalt() {
        var jolts = Jolts(seed: 15)
        var car = Car(noise: Noise(seed: 16), road: RoadVibration(noise: Noise(seed: 17), rms: 0.15), driveSeconds: .infinity)
        var still = Noise(seed: 18)
        let run = Self.run(seconds: 160) { t in
            if t >= 40, t < 70 {
                return Sample(acceleration: (-0.2 + 0.01 * still.next(), 0.01 * still.next(), 9.9 + 0.01 * still.next()), rotation: nil)
            }
            let smooth = car.sample(t).acceleration
            let rough = jolts.next()
            let onRoughRoad = t < 40 || t.truncatingRemainder(dividingBy: 20) < 1
            return Sample(acceleration: onRoughRoad ? (-0.2 + rough.0, rough.1, 9.9 + rough.2) : smooth, rotation: nil)
        }
        let cycling = run.firstTime(of: .cycling) ?? .infinity
        #expect(cycling <= 40, "cycling at \(cycling) s")
        #expect(run.flags(at: 69.9)?.contains(.cycling) == true, "at the light: \(String(describing: run.flags(at: 69.9)))")
        #expect(run.flags(at: 159.9)?.contains(.cycling) == true, "on smooth asphalt: \(String(describing: run.flags(at: 159.9)))")
        #expect(!run.everFlags([.walking, .running, .automotive]))
    }

    /// A phone in a trouser pocket on a bicycle at 75 rpm: the knee's up and down bounces |a|
    /// by ±5 m/s² once a revolution, as a slow walk's steps would, the thigh turns once a
    /// revolution (2 rad/s rms about x), the road shakes the saddle (0.15 m/s² rms), and the step
    /// detector finds its candidates to be pedal strokes (`pedalling`).
    @Test func aThighPedallingIsCyclingNotWalking() {
        func ride(detectorSaysPedalling: Bool) -> Run {
            var road = RoadVibration(noise: Noise(seed: 19), rms: 0.15)
            return Self.run(seconds: 60) { t in
                let v = road.next()
                let knee = 5 * sin(2 * .pi * 1.25 * t)
                return Sample(acceleration: (0.3 + v.0, v.1, 9.81 + knee + v.2),
                              rotation: (2 * 2.squareRoot() * sin(2 * .pi * 1.25 * t), 0.1, 0.05),
                              pedalling: detectorSaysPedalling && t >= 3)
            }
        }
        let pedalling = ride(detectorSaysPedalling: true)
        let cycling = pedalling.firstTime(of: .cycling) ?? .infinity
        #expect(cycling <= 35, "cycling at \(cycling) s (10 s without a gait, then 20 s of evidence)")
        #expect(pedalling.flags(at: 59.9) == .cycling)
        #expect(!pedalling.everFlags([.walking, .running, .automotive]))
        // Without the detector's verdict the body-bounce rhythm reads the knee as a slow walk:
        // the verdict is what decides.
        let unknown = ride(detectorSaysPedalling: false)
        #expect(unknown.flags(at: 59.9) == .walking)
        #expect(!unknown.everFlags(.cycling))
    }

    @Test func aWalkIsNeverAVehicleAtAnyCarry() {
        // Hand-held (small bounce) and pocket (heel strikes) walks, the detector silent: the
        // rhythm is a gait, which rules out both vehicles.
        for amplitude in [0.8, 1.5, 4.0] {
            var noise = Noise(seed: 16)
            let run = Self.run(seconds: 90) { Self.gait($0, frequency: 1.7, amplitude: amplitude, noise: &noise) }
            #expect(!run.everFlags(.vehicle), "amplitude \(amplitude)")
        }
    }

    @Test func gaitRhythmFindsTheStepPeriodNotTheStride() {
        // A pocket-like gait: a step every 0.5 s, every other step stronger (stride 1 s).
        var rhythm = GaitRhythm()
        for index in 0..<500 {
            let t = Double(index) / 100
            let step = 2 * sin(2 * .pi * 2 * t) + 0.6 * sin(2 * .pi * 1 * t)
            rhythm.update(acceleration: FusionVector(x: .zero, y: .zero, z: Q32_32(9.81 + step)), timeNanoseconds: Int64(index) * 10_000_000)
        }
        let (correlation, period) = rhythm.evaluate()
        #expect(Double(correlation.rawValue) / 4_294_967_296 >= 0.6)
        let seconds = Double(period.rawValue) / 4_294_967_296
        #expect(abs(seconds - 0.5) <= 0.04, "step period \(seconds) s")
    }

    @Test func gaitRhythmSeesAWalkBeforeItsRingIsFull() {
        // A walk from the first sample (a device started on a walker), 2 steps/s: at 1.5 s the
        // ring holds too little for two step periods beside the shortest overlap (no rhythm);
        // at 2.7 s, 1.3 s short of a full ring, the rhythm and its step period are there.
        var rhythm = GaitRhythm()
        func walk(from start: Int, to end: Int) {
            for index in start..<end {
                let t = Double(index) / 100
                rhythm.update(acceleration: FusionVector(x: .zero, y: .zero, z: Q32_32(9.81 + 2 * sin(2 * .pi * 2 * t))),
                              timeNanoseconds: Int64(index) * 10_000_000)
            }
        }
        walk(from: 0, to: 150)
        #expect(rhythm.evaluate().correlation == .zero)
        walk(from: 150, to: 270)
        let (correlation, period) = rhythm.evaluate()
        #expect(Double(correlation.rawValue) / 4_294_967_296 >= 0.6)
        let seconds = Double(period.rawValue) / 4_294_967_296
        #expect(abs(seconds - 0.5) <= 0.04, "step period \(seconds) s")
    }

    @Test func aPocketRunWhoseStrideRepeatsBestHasTheStepCadence() {
        // A run at 2.8 steps/s in a pocket: each step's impact, plus the thigh's swing once per
        // stride (1.4 Hz), which makes the stride repeat better (r 1.0) than the step (0.6):
        // the stride is the steps' double, not a slower gait.
        var rhythm = GaitRhythm()
        for index in 0..<500 {
            let t = Double(index) / 100
            let signal = 1 * sin(2 * .pi * 1.4 * t) + 2 * sin(2 * .pi * 2.8 * t + 0.5)
            rhythm.update(acceleration: FusionVector(x: .zero, y: .zero, z: Q32_32(9.81 + signal)), timeNanoseconds: Int64(index) * 10_000_000)
        }
        let seconds = Double(rhythm.evaluate().stepPeriodSeconds.rawValue) / 4_294_967_296
        #expect(abs(seconds - 1 / 2.8) <= 0.04, "step period \(seconds) s")
    }

    @Test func aWalkTheDetectorCountsOnARoughlyJoltedDeviceIsNeverAVehicle() {
        // A pocket walk whose |a| carries no clean rhythm (irregular jolts 1 m/s² rms in
        // 5–20 Hz, bumps in the ride band), which only the detector recognises: its steps
        // keep any vehicle from starting.
        var jolts = Jolts(seed: 17)
        let run = Self.run(seconds: 90) { t in
            let v = jolts.next()
            return Sample(acceleration: (v.0, v.1, 9.81 + v.2), rotation: nil, stepping: t > 3, cadence: 1.8)
        }
        #expect(!run.everFlags(.vehicle))
        #expect(run.flags(at: 89.9) == .walking)
    }

    @Test func aBuzzingPhoneMovedAboutInTheHandIsNoBicycle() {
        // A vibration motor (rough 5–20 Hz shaking) in a hand that moves the phone about: bumps
        // in the ride band, turning at 0.7 rad/s. No steps, no rhythm, but no handlebar either.
        var jolts = Jolts(seed: 19)
        let run = Self.run(seconds: 90) { t in
            let v = jolts.next()
            return Sample(acceleration: (v.0, v.1, 9.81 + v.2), rotation: (0.7 * sin(t), 0.7 * cos(t), 0.1))
        }
        #expect(!run.everFlags(.vehicle))
    }

    // MARK: A walk held through a moment without gait evidence (issue 19, phones in the hand)

    /// A hand-held phone in a turn: gravity fixed in the device, a slow turn about the vertical
    /// (0.5 rad/s), and a bounce without a rhythm (low-passed noise, about 0.5 m/s² rms below
    /// 1 Hz: the body's steps out of step) — the step detector and the gait rhythm both lose it.
    struct Turn {
        var noise: Noise
        var bounce = 0.0
        mutating func next() -> Sample {
            bounce = 0.95 * bounce + 0.6 * noise.next()
            return Sample(acceleration: (0.05 * noise.next(), 0.05 * noise.next(), 9.81 + bounce), rotation: (0.02, 0.02, 0.5))
        }
    }

    @Test func aHandHeldWalkStaysWalkingThroughATurnWhereBothGaitSourcesLoseIt() {
        // 20 s of walking (the detector and the body's rhythm agree), a 5 s turn that neither
        // sees, then walking again: one walk, never stationary or no call in the turn.
        var noise = Noise(seed: 21)
        var turn = Turn(noise: Noise(seed: 22))
        let run = Self.run(seconds: 40) { t in
            if t >= 20 && t < 25 { return turn.next() }
            var s = Self.gait(t, frequency: 1.8, amplitude: 2.5, noise: &noise)
            s.stepping = t >= 2
            s.cadence = 1.8
            return s
        }
        for time in stride(from: 20.0, through: 25.0, by: 0.25) {
            #expect(run.flags(at: time) == .walking, "\(run.flags(at: time).map { String($0.rawValue) } ?? "nil") at \(time) s")
        }
        #expect(run.flags(at: 39.9) == .walking)
    }

    @Test func aHeldWalkEndsWhenTheDeviceIsPutDown() {
        // The walk stops and the phone lies still: the body's bounce is gone within a second,
        // so the hold ends and the still device is stationary as soon as after any other call.
        var noise = Noise(seed: 23)
        let run = Self.run(seconds: 40) { t in
            guard t < 20 else {
                return Sample(acceleration: (0.02 * noise.next(), 0.02 * noise.next(), 9.81 + 0.02 * noise.next()),
                              rotation: (0.005 * noise.next(), 0.005 * noise.next(), 0.005 * noise.next()))
            }
            var s = Self.gait(t, frequency: 1.8, amplitude: 2.5, noise: &noise)
            s.stepping = t >= 2
            s.cadence = 1.8
            return s
        }
        let stationary = run.firstTime(of: .stationary, after: 20) ?? .infinity
        #expect(stationary <= 23, "stationary at \(stationary) s")
        #expect(!run.everFlags(.walking, after: 23))
    }

    @Test func aWalkIsHeldAtMost6sWithoutGaitEvidence() {
        // After the walk, a steady device keeps bouncing without a rhythm for 20 s (someone
        // fidgeting with the phone held up): walking ends 6 s after the last gait evidence.
        var noise = Noise(seed: 24)
        var turn = Turn(noise: Noise(seed: 25))
        let run = Self.run(seconds: 45) { t in
            if t >= 20 { return turn.next() }
            var s = Self.gait(t, frequency: 1.8, amplitude: 2.5, noise: &noise)
            s.stepping = t >= 2
            s.cadence = 1.8
            return s
        }
        #expect(run.flags(at: 22) == .walking, "held through the first seconds")
        #expect(!run.everFlags(.walking, after: 29), "held beyond 6 s (+ the rhythm's 2 s end and a block)")
    }

    @Test func detectorStepsWithoutABodyRhythmAreNotHeld() {
        // The detector says stepping on a steady device whose |a| has no rhythm (a phone moved
        // about at a desk): walking while it says so (its call), but not one block longer —
        // only a walk the body's rhythm confirmed is held.
        var turn = Turn(noise: Noise(seed: 26))
        let run = Self.run(seconds: 30) { t in
            var s = turn.next()
            s.stepping = t >= 2 && t < 15
            s.cadence = 1.8
            return s
        }
        #expect(run.flags(at: 14.9) == .walking)
        #expect(!run.everFlags(.walking, after: 15.01))
    }
}
