public import FixedPoint

/// Motion activity (`CMMotionActivity`: stationary, walking, running, automotive, cycling,
/// unknown, with a confidence) from the accelerometer, the gyroscope when there is one, and a
/// walking detector's verdict. Fixed point (Q32.32, SI units), no allocation per sample, builds
/// as Embedded Swift.
///
/// Two sources say "on foot": the pedometer's walking detector (`stepping`, `cadence`) and the
/// classifier's own `GaitRhythm` (|a| periodic at one and two step periods, r ≥ 0.6, with a
/// bounce ≥ 0.1 m/s², in each of the last 4 half-seconds; ends after 2 s without it; a rhythm
/// at a runner's cadence needs a runner's impacts: nobody walks at 150 steps/min). Either suffices: a walk or a run
/// the detector's gates reject (a phone held in the hand, texting, phoning) is still a walk.
/// A walk the body's rhythm confirmed (in the last 32 s) is then held through up to 6 s without
/// either (a turn, a doorway: `walkHeld`) while the body still bounces (≥ 0.1 m/s² over the last
/// second), more than it vibrates (5–20 Hz below half the bounce) and the device is held steady
/// (`gravitySteadiness` ≥ 0.95); it ends at once when any of these fails.
/// Decisions are taken every 0.5 s on the last 2 s of `ActivityFeatures` (and at once when
/// `stepping` changes):
///
/// - **walking / running** while on foot and the device is carried: its gravity direction
///   steady over 2 s (`gravitySteadiness` ≥ 0.7, i.e. not swinging beyond about ±45°; the
///   Oxford walks in every carry stay above 0.78). Steps from a device turned over in a hand
///   are no call, unless |a| bounces at a runner's cadence by ≥ 0.3 g (a phone in a runner's
///   swinging hand: turning a device does not change |a|). Running needs a runner's cadence
///   *and* a runner's impacts: cadence ≥ 145 steps/min ("Cadence (steps/min) as an indicator of
///   the walk-to-run transition", Hum. Mov. Sci. 90:103117, 2023: 135–140 steps/min classify
///   walk vs run with 91–93 % accuracy), measured on the body's bounce (the rhythm's step
///   period) when there is one, else from the credited steps; and an |a| deviation ≥ 0.3 g in the
///   ride band (running has a flight phase, so |a| swings from near 0 to 2–3 g at the waist; a
///   hand damps that, but not below 0.3 g; walking at 150 steps/min stays near 0.2 g). It stays
///   running down to 135 steps/min and 0.25 g (hysteresis).
/// - **stationary**: not on foot, and the device hardly moves: per-axis spread < 0.8 m/s² and
///   rotation < 0.6 rad/s over the last second to enter; it ends when the 2 s window exceeds
///   1.2 m/s² or 1.0 rad/s for 1.5 s running (a fidget does not end it) or steps start. A person
///   sitting or standing with the device on the body sways well inside that (UCI HAPT: 99 % of
///   2 s windows below 1.4 m/s²); any walking is far above (> 2.2 m/s²).
/// - **no gait** (both vehicles need it for 10 s): no rhythm walking, and, to start a vehicle, no
///   detector steps; once in one, the detector's steps without a body rhythm are the road's
///   shocks (a handlebar's fool a peak detector) and are ignored.
/// - **automotive**: road and engine vibration without a gait on a steady device, in at least 54
///   of the last 60 half-seconds (27 s of 30), mostly (in over half of them) below a bicycle's
///   roughness (0.4 m/s²: a car's suspension and mount isolate the road): 5–20 Hz vibration of
///   0.03 m/s² (twice a phone accelerometer's noise there) to 1.5 m/s², a ride-band deviation of 0.05–1.0 m/s² (the body bouncing on its
///   suspension at 1–2 Hz, not heel strikes), rotation < 0.35 rad/s (a car turns only in bends; a
///   walker's hand-held phone wobbles at every step), gravity's direction held (steadiness ≥
///   0.95: a car's horizontal accelerations stay under 0.3 g), no sustained pedalling rhythm (in
///   under 40 % of the last 20 s). Kept through bends and stops (a red light) until 60 s without
///   such evidence or a gait rhythm (the detector's steps alone do not end it: in a car they are
///   the road's); `stationary` may be set with it. Not started while a bicycle is called: one
///   vehicle at a time (changing means getting off, and the gait then ends the first call).
/// - **cycling**: no gait, road vibration (≥ 0.03 m/s²), and either a pedalling rhythm
///   (`RhythmDetector` correlation ≥ 0.6 at 50–120 rpm, ride-band deviation < 1.0 m/s²: pedalling
///   is smooth; a device on the torso or in a pocket) or a rough road (vibration ≥ 0.4 m/s²: a
///   handlebar, rigid and unsprung; with bumps, ride band ≥ 0.3 m/s², unlike a vibration motor), on a device that keeps roughly upright (|mean a| ≥ 0.7 g)
///   and is not turned fast (rotation < 0.5 rad/s), or the step detector's pedal strokes (a
///   thigh pedalling turns the device once a revolution: `StepDetector.isPedalling`, which also
///   vetoes the gait rhythm), in 32 of the last 40 half-seconds (20 s); kept,
///   as a car is, through stops until 60 s without it or a gait rhythm (a rider waits at a red
///   light astride the bicycle); not started while a car is called.
/// - **unknown** only until the first 2 s window is full; afterwards no flag at all means
///   "no call" (a device being handled).
///
/// Confidence climbs with the time the same flags have held: low for 2.5 s, then medium, high
/// after 10 s; vehicle calls, which need 20–30 s of evidence to start, start at medium.
public struct ActivityClassifier: Sendable {
    private var features = ActivityFeatures()
    private var rhythm = RhythmDetector()
    private var gait = GaitRhythm()
    private var window: ActivityWindow?

    private var still = false
    private var running = false
    private var automotive = false
    private var cycling = false
    /// One bit per completed block, newest in bit 0: the block looked like a car / a bicycle.
    private var carBlocks: UInt64 = 0
    private var bikeBlocks: UInt64 = 0
    /// One bit per completed block, newest in bit 0: vibration at a bicycle's roughness.
    private var roughBlocks: UInt64 = 0
    /// Blocks since the last one with gait evidence (a step-rate rhythm, or steps on a device
    /// without road roughness): a vehicle needs 10 s without it.
    private var blocksSinceGait = Int.max / 2
    /// One bit per completed block, newest in bit 0: |a| bounced at a gait's rhythm.
    private var gaitBlocks: UInt64 = 0
    /// Walking or running from the gait rhythm alone (the step detector may miss the walk).
    private var rhythmWalking = false
    /// A confirmed walk carried through a short loss of both gait sources (a turn, a doorway):
    /// see `holdBlocks`.
    private var walkHeld = false
    /// Steps/s from the gait rhythm's step period (0 without a rhythm).
    private var rhythmCadence = Q32_32.zero
    /// The last block's rhythm came with running-strength impacts (≥ 0.3 g).
    private var vigorousGait = false
    private var blocksSinceCar = Int.max / 2
    private var blocksSinceBike = Int.max / 2
    private var lastStepping = false
    private var movingBlocks = 0
    private var blocksInState = 0

    public private(set) var estimate = MotionActivityEstimate(flags: .unknown, confidence: .low, startNanoseconds: 0)

    /// Whether a car or a bicycle is called (after 10 s without a gait and 20–30 s of a
    /// vehicle's vibration; see the type's documentation). Ends with a gait's rhythm (the user
    /// walks away) or without the vehicle's evidence; the detector's steps do not end it.
    public var isInVehicle: Bool { automotive || cycling }

    /// Half-second blocks since the last one that looked like a car or a bicycle (saturates at
    /// `Int.max / 2`): how fresh the vehicle's evidence is. A call is held through stops without
    /// it (60 s); a device carried by a vehicle that moves shakes like one in nearly every
    /// half-second.
    public var blocksSinceVehicleEvidence: Int { min(blocksSinceCar, blocksSinceBike) }
    private var started = false

    // Thresholds (m/s², rad/s, steps/s); see the type's documentation for where they come from.
    // (Exact ratios: no floating point on a board without an FPU.)
    private static var stillSpreadEnter: Q32_32 { Q32_32(numerator: 8, denominator: 10) }
    private static var stillSpreadStay: Q32_32 { Q32_32(numerator: 12, denominator: 10) }
    private static var stillRotationEnter: Q32_32 { Q32_32(numerator: 6, denominator: 10) }
    private static var stillRotationStay: Q32_32 { Q32_32.one }
    private static var runCadenceEnter: Q32_32 { Q32_32(numerator: 145, denominator: 60) }
    private static var runCadenceStay: Q32_32 { Q32_32(numerator: 135, denominator: 60) }
    /// 0.3 g and 0.25 g, g = 9.80665 m/s².
    private static var runImpactEnter: Q32_32 { Q32_32(numerator: 3 * 980_665, denominator: 1_000_000) }
    private static var runImpactStay: Q32_32 { Q32_32(numerator: 25 * 980_665, denominator: 10_000_000) }
    /// 0.03 m/s²: twice a phone accelerometer's noise in the 5–20 Hz band (≈ 300 µg/√Hz over
    /// 15 Hz: 0.011 m/s²; 0.03 for BROAD's noisier IMU at 286 Hz), so road vibration through a
    /// car's suspension and mount (0.03–0.3 m/s²) counts.
    private static var vibrationMinimum: Q32_32 { Q32_32(numerator: 3, denominator: 100) }
    /// 1.5 m/s²: above it, not a road's vibration on a steady device.
    private static var vibrationMaximum: Q32_32 { Q32_32(numerator: 15, denominator: 10) }
    /// 0.4 m/s²: above it the road reaches the device undamped — no suspension, a rigid frame,
    /// high-pressure tyres: a bicycle's handlebar (0.5–3 m/s² in 5–20 Hz); a car's suspension and
    /// seat or mount keep its vibration below (ISO 2631-1 ride comfort: 0.3–0.6 m/s² weighted at
    /// the seat, whose 5–20 Hz part is a fraction).
    private static var roughRoad: Q32_32 { Q32_32(numerator: 4, denominator: 10) }
    /// 0.3 m/s² in the ride band: the bumps that come with a rough road.
    private static var roadBumps: Q32_32 { Q32_32(numerator: 3, denominator: 10) }
    /// A gait rhythm: |a|'s autocorrelation at one step ≥ 0.6 (a hand moving a device back and
    /// forth repeats less exactly than legs do; BROAD's handled trials reach 0.5 in up to a
    /// third of their windows) ...
    private static var gaitCorrelation: Q32_32 { Q32_32(numerator: 6, denominator: 10) }
    /// ... with a bounce above a still person's sway (ride band ≥ 0.1 m/s²: holding a phone up
    /// to the face while walking gives 0.1–0.3 m/s², sitting or standing a few hundredths).
    private static var gaitBounce: Q32_32 { Q32_32(numerator: 1, denominator: 10) }
    private static var carRideMinimum: Q32_32 { Q32_32(numerator: 5, denominator: 100) }
    private static var carRideMaximum: Q32_32 { Q32_32.one }
    /// 0.35 rad/s: a car's body turns only in bends (and briefly: the majority rule below lets
    /// them pass); a phone held by a walker wobbles with every step and every turn of the body.
    private static var carRotationMaximum: Q32_32 { Q32_32(numerator: 35, denominator: 100) }
    private static var bikeRideMaximum: Q32_32 { Q32_32.one }
    private static var bikeSpreadMinimum: Q32_32 { Q32_32(numerator: 3, denominator: 10) }
    /// 0.5 rad/s: a handlebar turns only with steering and lean (0.1–0.3 rad/s) and its road
    /// vibration's small angles (a few tenths of a degree at 5–20 Hz: ~0.2 rad/s); a rider's
    /// torso sways less. A device moved about in a hand turns faster (BROAD: 0.5–1 rad/s).
    private static var bikeRotationMaximum: Q32_32 { Q32_32(numerator: 5, denominator: 10) }
    private static var rhythmPresent: Q32_32 { Q32_32(numerator: 6, denominator: 10) }
    private static var carriedSteadiness: Q32_32 { Q32_32(numerator: 7, denominator: 10) }
    /// A handlebar or a rider's torso keeps gravity's direction roughly (turns lean the bike by
    /// up to ~20°): |mean a| ≥ 0.7 g over 2 s, the carried bound (cos 45°). Measured on the mean
    /// vector, not as `gravitySteadiness`: a rough road's shocks (spread up to 15 m/s² on a
    /// handlebar) inflate the mean of |a| and would read as a device turned over.
    private static var bikeGravity: Q32_32 { Q32_32(numerator: 7 * 980_665, denominator: 1_000_000) }
    /// Gravity's direction held within about ±18° over 2 s (cos 18° ≈ 0.95): a car's body; a
    /// phone held where its user watches it (texting, AR, a call) or carried while walking.
    private static var carSteadiness: Q32_32 { Q32_32(numerator: 95, denominator: 100) }
    /// 12 blocks (6 s): the longest a walk is held without gait evidence (see `walkHeld`).
    private static var holdBlocks: Int { 12 }

    public init() {}

    /// The last 2 s window's statistics (nil before the first is full), for diagnostics.
    public var lastWindow: ActivityWindow? { window }
    /// The last pedalling-rhythm correlation (`RhythmDetector`), for diagnostics.
    public private(set) var lastRhythm = Q32_32.zero
    /// The last gait-rhythm correlation (`GaitRhythm`), for diagnostics.
    public private(set) var lastGaitRhythm = Q32_32.zero

    /// The evidence of the last completed block, for diagnostics (`motionctl bench-activity --trace`).
    /// Not updated in an Embedded Swift build (a sensor hub's firmware has no trace to print).
    public struct Diagnostics: Sendable {
        public var gaitBlock = false, rhythmWalking = false, walkHeld = false, carBlock = false, bikeBlock = false
        public var noGait = false, rough = false, automotive = false, cycling = false, still = false
        public var rhythmCadence = Q32_32.zero  // steps/s
    }
    public private(set) var diagnostics = Diagnostics()

    /// One accelerometer sample (m/s², device axes) at `time` (ns), with the latest gyroscope
    /// sample (rad/s; nil on a board without one), whether the walking detector says the user is
    /// stepping, the current cadence (steps/s, 0 if unknown) and whether its candidates are
    /// pedal strokes (`StepDetector.isPedalling`). Returns true when `estimate` changed (flags or
    /// confidence): a live update is due.
    public mutating func update(acceleration: FusionVector<Q32_32>, rotationRate: FusionVector<Q32_32>?,
                                timeNanoseconds time: Int64, stepping: Bool, cadence: Q32_32, pedalling: Bool = false) -> Bool {
        let first = !started
        if first {
            started = true
            estimate.startNanoseconds = time
        }
        rhythm.update(acceleration: acceleration, timeNanoseconds: time)
        gait.update(acceleration: acceleration, timeNanoseconds: time)
        let blockDone = features.update(acceleration: acceleration, rotationRate: rotationRate, timeNanoseconds: time)
        if blockDone, features.isWindowFull {
            let current = features.window()
            window = current
            accumulateEvidence(current, lastSecond: features.window(blocks: 2), stepping: stepping, pedalling: pedalling)
        }
        // The first sample delivers `unknown` at once: the app learns the manager is running.
        guard blockDone || stepping != lastStepping else { return first }
        lastStepping = stepping
        // The rhythm's cadence is measured on the body's bounce itself; the detector's, from
        // credited steps, is lower when it misses steps (a hand-held run).
        let onFootCadence = rhythmCadence > .zero ? rhythmCadence : cadence
        // In a vehicle, the detector's steps without a gait rhythm are the road's shocks.
        let onFoot = rhythmWalking || (stepping && !automotive && !cycling) || walkHeld
        return decide(time: time, stepping: onFoot, cadence: onFootCadence, newBlock: blockDone)
    }

    /// Per completed block: the stationary test and the vehicle evidence.
    private mutating func accumulateEvidence(_ w: ActivityWindow, lastSecond: ActivityWindow, stepping: Bool, pedalling limbPedals: Bool) {
        let rotation = w.rotation ?? .zero
        if still {
            // A fidget does not end it: movement for 1.5 s does (or steps).
            let moving = w.axisSpread >= Self.stillSpreadStay || rotation >= Self.stillRotationStay
            movingBlocks = moving ? movingBlocks &+ 1 : 0  // ≤ 3: still ends at 3
            still = !stepping && movingBlocks < 3
        } else {
            // Quiet for the last second is enough to say so.
            still = !stepping && lastSecond.axisSpread < Self.stillSpreadEnter && (lastSecond.rotation ?? .zero) < Self.stillRotationEnter
            movingBlocks = 0
        }

        let (correlation, _) = rhythm.evaluate()
        lastRhythm = correlation

        // Gait from the body's bounce: periodic at a step's lag, above a still person's sway
        // over the last second (the 4 s autocorrelation still sees a walk that has just ended:
        // the bounce says when it did), on a carried device. Walking from it starts once it has
        // held 2 s running (a car's random bounce can look periodic for a moment, not that
        // long: the windows overlap, so 2 s of blocks is 6 s of signal) and ends after 2 s
        // without it (a turn or a stumble breaks the rhythm for a moment).
        let (gaitCorrelation, stepPeriod) = gait.evaluate()
        lastGaitRhythm = gaitCorrelation
        // A runner's arm swings a hand-held phone beyond the carried bound, but the body's
        // impacts still make |a| bounce by ≥ 0.3 g at a runner's cadence (|a| does not change
        // when a device is only turned over): such a rhythm is a run however the device is held.
        // Steps/s at the rhythm's step period (0 without one).
        let stepRate = stepPeriod > .zero ? stepPeriod.reciprocal : Q32_32.zero
        let fast = stepRate >= Self.runCadenceEnter
        vigorousGait = gaitCorrelation >= Self.gaitCorrelation && w.rideDeviation >= Self.runImpactEnter && fast
        let carried = w.gravitySteadiness >= Self.carriedSteadiness || vigorousGait
        // Nobody walks at a runner's cadence: a rhythm that fast with less than a runner's
        // impacts is no gait (a torso bobbing twice per pedal revolution at 70–100 rpm).
        let gaitLike = !fast || w.rideDeviation >= Self.runImpactEnter
        let gaitNow = carried && gaitLike && !limbPedals && gaitCorrelation >= Self.gaitCorrelation
            && w.rideDeviation >= Self.gaitBounce && lastSecond.rideDeviation >= Self.gaitBounce
        gaitBlocks = gaitBlocks << 1 | (gaitNow ? 1 : 0)
        if gaitNow, stepRate > .zero {
            rhythmCadence = stepRate
        } else if gaitBlocks & 0b11 == 0 {
            rhythmCadence = .zero
        }
        if !rhythmWalking, gaitBlocks & 0b1111 == 0b1111 { rhythmWalking = true }
        if rhythmWalking, gaitBlocks & 0b1111 == 0 { rhythmWalking = false }
        if rhythmWalking { still = false }

        // A vehicle needs 10 s without a gait: without rhythm walking, and, to start, without
        // the detector's steps (a walk whose |a| rhythm is weak — some pockets — jolts the
        // device like a rough road: the detector is the safer judge there). Once in a vehicle,
        // the detector's steps without a body rhythm are the road's shocks and are ignored.
        // (A single rhythmic block is not enough: a car's random bounce may look periodic for
        // a moment, and would hold off the car for 10 s each time.)
        let rough = w.vibration >= Self.roughRoad
        let inVehicle = automotive || cycling
        let gaitEvidence = rhythmWalking || (stepping && !inVehicle)
        let walkGoingOn = walkHeld || blocksSinceGait == 0  // the previous block was on foot
        blocksSinceGait = gaitEvidence ? 0 : min(blocksSinceGait &+ 1, Int.max / 2)
        // A walk does not end because both witnesses lose it for a moment: in a turn (a 180°
        // turn takes 2–4 steps), a doorway or a change of grip the body's rhythm breaks and a
        // hand-held phone's steps fall under the detector's gates, and until now the classifier
        // said `stationary` there (phone_attitude: 320 s of 1 500 s of walking). It ends when the
        // body does: the last second's bounce below a still person's sway (`gaitBounce`); the
        // device no longer held steady as a carried or watched phone is (a device handled at a
        // desk is turned: BROAD's handled trials have a median steadiness of 0.8); 5–20 Hz
        // vibration above half the bounce (a walking body's 0.3–5 Hz bounce dominates |a|, a hand
        // damps the heel strikes: 0.1–0.3 of it in a hand; knocks, taps and motors on a handled
        // device are broadband); or 6 s without gait evidence. Once ended it does not resume
        // (a walk is carried on, never restarted, by the hold), and only a walk the body's own
        // rhythm confirmed in the last 32 s (`gaitBlocks`) is held: the detector's steps alone
        // may be a device moved by hand.
        walkHeld = walkGoingOn && !inVehicle && blocksSinceGait <= Self.holdBlocks && gaitBlocks != 0
            && lastSecond.rideDeviation >= Self.gaitBounce && w.gravitySteadiness >= Self.carSteadiness
            && w.vibration + w.vibration <= w.rideDeviation  // wrapping +: both ≤ 2⁹ m/s²
        let noGait = blocksSinceGait >= 20
        let roadVibration = w.vibration >= Self.vibrationMinimum && w.vibration <= Self.vibrationMaximum
        // A car: road vibration, a bounce on the suspension, slow turns, gravity's direction
        // held; mostly below a bicycle's roughness (counted below: a pothole or cobbles may
        // reach it for a while).
        let carLike = noGait && roadVibration && w.rideDeviation >= Self.carRideMinimum
            && w.rideDeviation <= Self.carRideMaximum && rotation < Self.carRotationMaximum && w.gravitySteadiness >= Self.carSteadiness
        // A bicycle: pedalling's rhythm (a pocket, the torso) or the rough road an undamped
        // handlebar feels, on a device that keeps roughly upright and is not being turned over.
        let pedalling = correlation >= Self.rhythmPresent && w.rideDeviation < Self.bikeRideMaximum && w.axisSpread >= Self.bikeSpreadMinimum
        // A rough road shakes the wheels at every wavelength: the ride band too (≥ 0.3 m/s²);
        // a vibration motor buzzes only far above it.
        let roughRoad = rough && w.rideDeviation >= Self.roadBumps
        let bikeLike = noGait && w.vibration >= Self.vibrationMinimum && w.meanAcceleration >= Self.bikeGravity
            && ((pedalling || roughRoad) && rotation < Self.bikeRotationMaximum || limbPedals)
        carBlocks = carBlocks << 1 | (carLike ? 1 : 0)
        roughBlocks = roughBlocks << 1 | (rough ? 1 : 0)
        bikeBlocks = bikeBlocks << 1 | (bikeLike ? 1 : 0)
        blocksSinceCar = carLike ? 0 : min(blocksSinceCar &+ 1, Int.max / 2)
        blocksSinceBike = bikeLike ? 0 : min(blocksSinceBike &+ 1, Int.max / 2)

        let last60: UInt64 = (1 << 60) - 1, last40: UInt64 = (1 << 40) - 1
        // A vehicle ends with a gait's rhythm (the user walks away) or after 60 s without its
        // evidence: red lights, jams, a rider waiting astride the bicycle as a driver waits in
        // the car (ridden by one rider, byke's ride 1 stops for 12 s; ended after 10 s, the call
        // came back 10 s after the ride went on). The detector's steps alone do not end it: in a
        // vehicle they are the road's shocks.
        if rhythmWalking || blocksSinceCar > 120 { automotive = false }
        if rhythmWalking || blocksSinceBike > 120 { cycling = false }
        // A car body's bounce is random (a damped resonance driven by the road): it may look
        // rhythmic for a moment, but not in 40 % of 20 s as pedalling does.
        let sustainedRhythm = (bikeBlocks & last40).nonzeroBitCount >= 16
        // 27 s of 30 to start (a walker's phone may look like a car for a while, not for that
        // long); once started it holds through bends, potholes and stops until 60 s pass
        // without one car-like block.
        // A car's suspension, seat or mount isolate the road: in most of 30 s its vibration
        // stays below a bicycle's roughness; a handlebar's rarely does.
        let mostlySmooth = (roughBlocks & last60).nonzeroBitCount < 30
        // One vehicle at a time: neither starts while the other is called. Changing from one to
        // the other means getting off and walking, whose gait ends the first call; without it
        // the user is still on the first. A bicycle on smooth asphalt shakes its handlebar as a
        // road shakes a car's mount (byke's ride 1 after a stop: 30 s of car-like blocks among
        // the bicycle's, called automotive), while a car's suspension hardly ever gives a
        // bicycle's evidence (the car trip: none in 792 blocks), so a bicycle is not taken for a
        // car and a car is not held back by this.
        if !automotive, !cycling, !sustainedRhythm, mostlySmooth, (carBlocks & last60).nonzeroBitCount >= 54 { automotive = true }
        // Diagnostics for `motionctl bench-activity --trace` on Linux; a sensor hub's image has
        // no use for them (they cost its Cortex-M0 image 100-odd bytes of its 48 KB).
        #if !hasFeature(Embedded)
        defer {
            diagnostics = Diagnostics(gaitBlock: gaitNow, rhythmWalking: rhythmWalking, walkHeld: walkHeld, carBlock: carLike, bikeBlock: bikeLike,
                                      noGait: noGait, rough: rough, automotive: automotive, cycling: cycling, still: still,
                                      rhythmCadence: rhythmCadence)
        }
        #endif
        if !cycling, !automotive, (bikeBlocks & last40).nonzeroBitCount >= 32 { cycling = true }
    }

    private mutating func decide(time: Int64, stepping: Bool, cadence: Q32_32, newBlock: Bool) -> Bool {
        var flags: MotionActivityFlags = []
        var evidenceNanoseconds = 2 * ActivityFeatures.blockNanoseconds * 2  // the 2 s window
        if stepping, let window, window.gravitySteadiness < Self.carriedSteadiness, !vigorousGait {
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
            // Only compared with 5, 20 and 60: saturates there (no overflow check, no wrap).
            blocksInState = min(blocksInState &+ 1, 60)
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
