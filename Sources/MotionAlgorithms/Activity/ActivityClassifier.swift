public import FixedPoint

/// Motion activity (`CMMotionActivity`: stationary, walking, running, automotive, cycling,
/// unknown, with a confidence) from the accelerometer, the gyroscope when there is one, and a
/// walking detector's verdict. Fixed point (Q32.32, SI units), no allocation per sample, builds
/// as Embedded Swift.
///
/// The walking detector is an input (`stepping`, `cadence`), not a copy: whoever decides "is this
/// walking?" for the pedometer decides it here too. Decisions are taken every 0.5 s on the last
/// 2 s of `ActivityFeatures` (and at once when `stepping` changes):
///
/// - **walking / running** while `stepping` and the device is carried: its gravity direction
///   steady over 2 s (`gravitySteadiness` ≥ 0.7, i.e. not swinging beyond about ±45°; the
///   Oxford walks in every carry stay above 0.78). Steps from a device turned over in a hand
///   are no call. Running needs a runner's cadence *and* a runner's
///   impacts: cadence ≥ 140 steps/min, the walk-to-run transition cadence ("Cadence (steps/min)
///   as an indicator of the walk-to-run transition", Hum. Mov. Sci. 90:103117, 2023: 135–140
///   steps/min classify walk vs run with 91–93 % accuracy), and an |a| deviation ≥ 0.5 g in the
///   ride band (running has a flight phase, so |a| swings from near 0 to 2–3 g each step; fast
///   walking and stairs stay within about ±0.4 g). It stays running down to 130 steps/min and
///   0.4 g (hysteresis).
/// - **stationary**: not stepping, and the device hardly moves: per-axis spread < 0.8 m/s² and
///   rotation < 0.6 rad/s over the last second to enter; it ends when the 2 s window exceeds
///   1.2 m/s² or 1.0 rad/s for 1.5 s running (a fidget does not end it) or steps start. A person
///   sitting or standing with the device on the body sways well inside that (UCI HAPT: 99 % of
///   2 s windows below 1.4 m/s²); any walking is far above (> 2.2 m/s²).
/// - **automotive**: sustained road vibration without a gait rhythm on a steady device: in at
///   least 54 of the last 60 half-seconds (30 s), no step for 10 s, 5–20 Hz vibration of
///   0.08–1.5 m/s² rms, a ride-band deviation of 0.05–1.0 m/s² (a car body bouncing on its
///   suspension at 1–2 Hz, not heel strikes), rotation < 0.5 rad/s (turns are slow), no
///   sustained pedalling rhythm (in under 40 % of the last 20 s), on a device whose gravity direction holds (steadiness ≥ 0.95: a car's
///   horizontal accelerations stay under 0.3 g). Kept through stops (a red light) until 60 s without such evidence or a
///   walk starts; `stationary` may be set with it.
/// - **cycling**: a pedalling rhythm (`RhythmDetector` correlation ≥ 0.6 at 50–120 rpm) with
///   road vibration (≥ 0.08 m/s²) but no heel strikes (ride-band deviation < 1.0 m/s²: pedalling
///   is smooth; walking at the waist stays above 1.5), a steady device (steadiness ≥ 0.9, rotation < 1 rad/s: on the torso, in a bag
///   or on the handlebar), no step for 10 s, in 32 of the last 40 half-seconds (20 s); kept until 10 s
///   without it or a walk.
/// - **unknown** only until the first 2 s window is full; afterwards no flag at all means
///   "no call" (a device being handled).
///
/// Confidence climbs with the time the same flags have held: low for 2.5 s, then medium, high
/// after 10 s; vehicle calls, which need 20–30 s of evidence to start, start at medium.
public struct ActivityClassifier: Sendable {
    private var features = ActivityFeatures()
    private var rhythm = RhythmDetector()
    private var window: ActivityWindow?

    private var still = false
    private var running = false
    private var automotive = false
    private var cycling = false
    /// One bit per completed block, newest in bit 0: the block looked like a car / a bicycle.
    private var carBlocks: UInt64 = 0
    private var bikeBlocks: UInt64 = 0
    private var blocksSinceStepping = Int.max / 2
    private var blocksSinceCar = Int.max / 2
    private var blocksSinceBike = Int.max / 2
    private var lastStepping = false
    private var movingBlocks = 0
    private var blocksInState = 0

    public private(set) var estimate = MotionActivityEstimate(flags: .unknown, confidence: .low, startNanoseconds: 0)
    private var started = false

    // Thresholds (m/s², rad/s, steps/s); see the type's documentation for where they come from.
    // (Exact ratios: no floating point on a board without an FPU.)
    private static var stillSpreadEnter: Q32_32 { Q32_32(numerator: 8, denominator: 10) }
    private static var stillSpreadStay: Q32_32 { Q32_32(numerator: 12, denominator: 10) }
    private static var stillRotationEnter: Q32_32 { Q32_32(numerator: 6, denominator: 10) }
    private static var stillRotationStay: Q32_32 { Q32_32.one }
    private static var runCadenceEnter: Q32_32 { Q32_32(numerator: 140, denominator: 60) }
    private static var runCadenceStay: Q32_32 { Q32_32(numerator: 130, denominator: 60) }
    /// 0.5 g and 0.4 g, g = 9.80665 m/s².
    private static var runImpactEnter: Q32_32 { Q32_32(numerator: 980_665, denominator: 200_000) }
    private static var runImpactStay: Q32_32 { Q32_32(numerator: 4 * 980_665, denominator: 1_000_000) }
    private static var vibrationMinimum: Q32_32 { Q32_32(numerator: 8, denominator: 100) }
    private static var vibrationMaximum: Q32_32 { Q32_32(numerator: 15, denominator: 10) }
    private static var carRideMinimum: Q32_32 { Q32_32(numerator: 5, denominator: 100) }
    private static var carRideMaximum: Q32_32 { Q32_32.one }
    private static var carRotationMaximum: Q32_32 { Q32_32(numerator: 5, denominator: 10) }
    private static var bikeRideMaximum: Q32_32 { Q32_32.one }
    private static var bikeSpreadMinimum: Q32_32 { Q32_32(numerator: 3, denominator: 10) }
    private static var bikeRotationMaximum: Q32_32 { Q32_32.one }
    private static var rhythmPresent: Q32_32 { Q32_32(numerator: 6, denominator: 10) }
    private static var carriedSteadiness: Q32_32 { Q32_32(numerator: 7, denominator: 10) }
    private static var bikeSteadiness: Q32_32 { Q32_32(numerator: 9, denominator: 10) }
    private static var carSteadiness: Q32_32 { Q32_32(numerator: 95, denominator: 100) }

    public init() {}

    /// The last 2 s window's statistics (nil before the first is full), for diagnostics.
    public var lastWindow: ActivityWindow? { window }
    /// The last pedalling-rhythm correlation (`RhythmDetector`), for diagnostics.
    public private(set) var lastRhythm = Q32_32.zero

    /// One accelerometer sample (m/s², device axes) at `time` (ns), with the latest gyroscope
    /// sample (rad/s; nil on a board without one), whether the walking detector says the user is
    /// stepping and the current cadence (steps/s, 0 if unknown). Returns true when `estimate`
    /// changed (flags or confidence): a live update is due.
    public mutating func update(acceleration: FusionVector<Q32_32>, rotationRate: FusionVector<Q32_32>?,
                                timeNanoseconds time: Int64, stepping: Bool, cadence: Q32_32) -> Bool {
        let first = !started
        if first {
            started = true
            estimate.startNanoseconds = time
        }
        rhythm.update(acceleration: acceleration, timeNanoseconds: time)
        let blockDone = features.update(acceleration: acceleration, rotationRate: rotationRate, timeNanoseconds: time)
        if blockDone, features.isWindowFull {
            let current = features.window()
            window = current
            accumulateEvidence(current, lastSecond: features.window(blocks: 2), stepping: stepping)
        }
        // The first sample delivers `unknown` at once: the app learns the manager is running.
        guard blockDone || stepping != lastStepping else { return first }
        lastStepping = stepping
        return decide(time: time, stepping: stepping, cadence: cadence, newBlock: blockDone)
    }

    /// Per completed block: the stationary test and the vehicle evidence.
    private mutating func accumulateEvidence(_ w: ActivityWindow, lastSecond: ActivityWindow, stepping: Bool) {
        blocksSinceStepping = stepping ? 0 : min(blocksSinceStepping + 1, Int.max / 2)
        let rotation = w.rotation ?? .zero
        if still {
            // A fidget does not end it: movement for 1.5 s does (or steps).
            let moving = w.axisSpread >= Self.stillSpreadStay || rotation >= Self.stillRotationStay
            movingBlocks = moving ? movingBlocks + 1 : 0
            still = !stepping && movingBlocks < 3
        } else {
            // Quiet for the last second is enough to say so.
            still = !stepping && lastSecond.axisSpread < Self.stillSpreadEnter && (lastSecond.rotation ?? .zero) < Self.stillRotationEnter
            movingBlocks = 0
        }

        let (correlation, _) = rhythm.evaluate()
        lastRhythm = correlation
        let noGait = blocksSinceStepping >= 20
        let roadVibration = w.vibration >= Self.vibrationMinimum && w.vibration <= Self.vibrationMaximum
        let carLike = noGait && roadVibration && w.rideDeviation >= Self.carRideMinimum && w.rideDeviation <= Self.carRideMaximum
            && rotation < Self.carRotationMaximum && w.gravitySteadiness >= Self.carSteadiness
        let bikeLike = noGait && roadVibration && correlation >= Self.rhythmPresent && w.rideDeviation < Self.bikeRideMaximum
            && w.axisSpread >= Self.bikeSpreadMinimum && rotation < Self.bikeRotationMaximum && w.gravitySteadiness >= Self.bikeSteadiness
        carBlocks = carBlocks << 1 | (carLike ? 1 : 0)
        bikeBlocks = bikeBlocks << 1 | (bikeLike ? 1 : 0)
        blocksSinceCar = carLike ? 0 : min(blocksSinceCar + 1, Int.max / 2)
        blocksSinceBike = bikeLike ? 0 : min(blocksSinceBike + 1, Int.max / 2)

        let last60: UInt64 = (1 << 60) - 1, last40: UInt64 = (1 << 40) - 1
        if stepping || blocksSinceCar > 120 { automotive = false }
        // A car body's bounce is random (a damped resonance driven by the road): it may look
        // rhythmic for a moment, but not in 40 % of 20 s as pedalling does.
        let sustainedRhythm = (bikeBlocks & last40).nonzeroBitCount >= 16
        if !automotive, !sustainedRhythm, (carBlocks & last60).nonzeroBitCount >= 54 { automotive = true }
        if stepping || blocksSinceBike > 20 || automotive { cycling = false }
        if !cycling, !automotive, (bikeBlocks & last40).nonzeroBitCount >= 32 { cycling = true }
    }

    private mutating func decide(time: Int64, stepping: Bool, cadence: Q32_32, newBlock: Bool) -> Bool {
        var flags: MotionActivityFlags = []
        var evidenceNanoseconds = 2 * ActivityFeatures.blockNanoseconds * 2  // the 2 s window
        if stepping, let window, window.gravitySteadiness < Self.carriedSteadiness {
            // Steps, but the device is being turned over in a hand, not carried: no call.
            running = false
        } else if stepping {
            let impact = window?.rideDeviation ?? .zero
            running = running
                ? cadence >= Self.runCadenceStay && impact >= Self.runImpactStay
                : cadence >= Self.runCadenceEnter && impact >= Self.runImpactEnter
            flags = running ? .running : .walking
        } else if window == nil {
            flags = .unknown
        } else {
            running = false
            if automotive {
                flags.insert(.automotive)
                evidenceNanoseconds = 30_000_000_000
            } else if cycling {
                flags.insert(.cycling)
                evidenceNanoseconds = 20_000_000_000
            }
            if still { flags.insert(.stationary) }
        }
        let previous = estimate
        if flags != previous.flags {
            blocksInState = 0
            estimate.flags = flags
            estimate.startNanoseconds = max(time - evidenceNanoseconds, 0)
        } else if newBlock {
            blocksInState += 1
        }
        estimate.confidence = confidence(for: flags)
        return estimate != previous
    }

    // Inlined: called on the inout self of a mutating method, a call would first copy the whole
    // struct (Swift passes a large self by value: a kilobyte of stack on a Cortex-M0).
    @inline(__always)
    private func confidence(for flags: MotionActivityFlags) -> MotionActivityConfidence {
        if flags.isEmpty || flags.contains(.unknown) { return .low }
        if !flags.isDisjoint(with: .vehicle) { return blocksInState >= 60 ? .high : .medium }
        return blocksInState >= 20 ? .high : blocksInState >= 5 ? .medium : .low
    }
}
