public import FixedPoint

/// Steps from the accelerometer (the gyroscope, where there is one, helps at walks' ends and
/// turns), wherever the device is carried, in Q32.32 fixed point (no allocation, builds as
/// Embedded Swift), after the structure of the published phone step
/// counters (Brajdic & Harle, UbiComp 2013; Salvi et al. 2018): a smoothed acceleration
/// magnitude, its peaks above an adaptive threshold, and "is this walking?" decided before
/// anything is counted.
///
/// 1. |a| of the accelerometer low-pass filtered at 3 Hz (a second-order Butterworth: walking
///    and running put their step frequency at 1.4–3 Hz), minus its own 1 s average (gravity and
///    the carry position's slow changes): the step signal, m/s².
/// 2. A step candidate is a local maximum of that signal above max(0.5 m/s², 40 % of the recent
///    peak amplitude; 30 % inside a confirmed bout, where the next step is expected: the weak
///    steps of a turn), at least 0.25 s after the previous candidate (4 steps/s is a sprint).
/// 3. Walking is confirmed when the newest `confirmationSteps` candidates come at regular
///    intervals (each within 0.25…2 s and within ±40 % of their mean) and the signal repeats
///    itself at that rhythm (`GaitPeriodicity` ≥ 0.5); then the bout is credited from its first
///    regular candidate, at the times the steps happened, and every later candidate within 2 s
///    of the last step is credited at once while the rhythm holds (≥ 0.3). Two candidates in a
///    row without it (a device handled rather than carried) or 2 s without a step end the bout.
///    Inside a bout, a gap of two or three intervals is filled with the steps too weak to be
///    candidates (a U-turn), and one not filled leaves the rhythm as it was (a step missed). A
///    bout starts at its first step, not at the weight shift before it (a first candidate over
///    20 % sooner than the rhythm). Within 10 s of a walk, three regular
///    candidates resume it (`isResuming`). With a gyroscope, candidates whose periodicity a turn
///    broke are kept for the walk's resumption, and a walk's closing step is found by the
///    trunk's yaw swing (`TrunkYawSwing`).
///    Walking also needs a carried device (`isCarried`): one turned over in the hand is not;
///    and a bouncing body (`bounceShare`): one moved to and fro by the hand is not.
///    The fail-safe (`confirmBySteadyRhythm`): a gate measured on the carries and people we have
///    can disagree for a whole walk on one we have not (WeAllWalk's cane walker with an iPhone
///    in a loose pocket: the thigh's swing puts most of the energy sideways, bounce share 0.15),
///    so 8 candidates whose strides agree within ±10 % confirm a walk on a carried device with a
///    bounce share of 0.15, without the periodicity. Its constants were chosen by
///    tools/benchmarks/loso.py, leave-one-subject-out over every dev set (the same choice in all
///    84 folds).
/// 4. Pause and resume events come from `PauseResumePredictor`, within about a second.
public struct StepDetector: Sendable {
    /// What one sample decided, each at the time it happened (ns).
    public enum Output: Sendable, Equatable {
        /// A step credited.
        case step(Int64)
        /// The user stopped; the time of their last step.
        case pause(at: Int64)
        /// The user started walking; the time of their first step.
        case resume(at: Int64)
    }

    public var confirmationSteps = 4
    /// Periodicity (‰) that confirms a bout, and the one that keeps it going.
    public var confirmCorrelation = 500
    public var keepCorrelation = 300
    /// The share (‰) of the acceleration's energy along gravity that confirms a bout, and the
    /// one that keeps it going (`bounceShare`).
    public var confirmVerticalShare = 200
    public var keepVerticalShare = 150
    /// The fail-safe (see `confirmBySteadyRhythm`): this many candidates in a row whose every
    /// stride (two intervals) lies within ±`steadyStridePercent` % of their mean confirm a bout
    /// whatever the periodicity and the bounce say. At most the 8 candidates `pending` holds.
    public var steadySteps = 8
    public var steadyStridePercent = 10
    /// The share (‰) of the acceleration's energy along gravity the fail-safe needs (see
    /// `bounceShare`): half of what the gates need.
    public var steadyVerticalShare = 150
    /// The bounce share (‰) that keeps a bout going and lets the fail-safe confirm one on a
    /// device that turns no faster than a walker's thigh swings it (rms of the rotation rate
    /// over 2 s at most `thighRotationRate` mrad/s; see `turnsLikeALimb`), in place of
    /// `keepVerticalShare` and `steadyVerticalShare` where those are higher.
    /// (Not in the firmware, which has no gyroscope's help: its RAM has no room for them.)
    #if !ACCELEROMETER_ONLY_STEPS
    public var thighVerticalShare = 100
    public var thighRotationRate = 3000
    /// The swing about horizontal axes (rms over 2 s, mrad/s) above which the device is taken to
    /// ride a limb, and the bout's rhythm follows half a stride instead of each step (see
    /// `updateRidesLimb`); 0: never. (Not in the firmware either.)
    public var limbSwingRate = 1000
    #endif
    /// The vibration band's rms over the step band's (%) above which a peak is a vehicle's, not a
    /// step (see `isVibration`); 0: no such test.
    public var vibrationRatioPercent = 250
    /// Whether a candidate at the bout's rhythm continues the bout whatever the periodicity and
    /// the bounce say, or only with them, see `continueBout`. (Bools, a byte each: the Cortex-M0
    /// image's RAM is all but full, docs/firmware.md.)
    public var rhythmKeeps = false
    /// Whether a gap of two or three of the bout's intervals that is not filled in leaves the
    /// bout's rhythm as it was, or pulls it like any interval, see `continueBout`.
    public var gapKeepsRhythm = true

    /// The 3 Hz low-pass of |a|: π f_c = 3π /s, round(3π × 2³²).
    static let smoothingPiCutoff = Q32_32(rawValue: 40_479_113_114)
    private var smoothing = ButterworthLowPass<Q32_32>(piCutoff: Self.smoothingPiCutoff)
    /// The 10 Hz low-pass of the acceleration (held under a quarter of the sample rate by the
    /// filter: 6 Hz at 25 Hz): |a| between 3 and 10 Hz is the vibration band (`isVibration`).
    /// π f_c = 10π /s, round(10π × 2³²).
    static let vibrationPiCutoff = Q32_32(rawValue: 134_930_377_045)
    private var vibrationBand = ButterworthLowPass<Q32_32>(piCutoff: Self.vibrationPiCutoff)
    /// The step band's and the vibration band's energy of |a|, (m/s²)², each over 2 s.
    private var stepEnergy = Q32_32.zero
    private var vibrationEnergy = Q32_32.zero
    private var mean = Q32_32.zero
    /// The acceleration vector averaged over 1 s, m/s²: gravity's direction while the device
    /// is carried.
    private var averageAcceleration = FusionVector<Q32_32>.zero
    /// The smoothed acceleration's deviation from `averageAcceleration`: its component along
    /// that average, times the average's length, squared ((m/s²)⁴), and its squared length
    /// ((m/s²)²), each averaged over 2 s (see `bounceShare`).
    private var verticalEnergy = Q32_32.zero
    private var totalEnergy = Q32_32.zero
    private var amplitude = Q32_32.one
    private var previous = (Q32_32.zero, Q32_32.zero)
    private var previousTime: Int64 = 0
    private var lastSampleTime: Int64 = 0
    private static var decayRate: Q32_32 { Q32_32(numerator: 1, denominator: 5) }
    private var started = false
    private var lastCandidate: Int64 = .min
    private var lastStep: Int64 = .min
    private var walking = false
    /// Step interval of the confirmed bout, ns (the lag its periodicity is checked at).
    private var boutInterval: Int64 = 550_000_000
    private var aperiodicCandidates = 0
    /// Credited intervals in a row within ±20 % of `boutInterval` (see `continueBout`).
    private var regularIntervals = 0
    /// The strongest sub-threshold peak after the bout's last step (ns, m/s²), see `update`.
    private var tailStep: Int64 = .min
    private var tailHeight = Q32_32.zero
    /// Candidates not yet credited, oldest first.
    private var pending = InlineArray<8, Int64>(repeating: 0)
    private var pendingCount = 0
    private var periodicity = GaitPeriodicity()
    #if !ACCELEROMETER_ONLY_STEPS
    private var yawSwing = TrunkYawSwing()
    /// The rotation rate's squared length averaged over 2 s, (rad/s)² (see `turnsLikeALimb`),
    /// and the time of its latest sample (ns; .min: no gyroscope seen).
    private var rotationEnergy = Q32_32.zero
    private var rotationTime: Int64 = .min
    /// The rotation rate's part about gravity's direction, squared and times gravity's squared
    /// length, (ω · a)², averaged over 2 s: (rad/s)² (m/s²)² (see `updateRidesLimb`).
    private var verticalRotationEnergy = Q32_32.zero
    /// The interval before the bout's last step, ns (see `followedInterval`).
    private var previousInterval: Int64 = 0
    /// Whether the device rode a limb at the last candidate (see `updateRidesLimb`).
    private var ridesLimb = false
    /// Whether the rotation repeats at the candidates' interval (see `isPedalStroke`), and the
    /// time of the latest candidate taken for a pedal stroke (ns; .min: none).
    private var rotationRhythm = RotationRhythm()
    private var lastPedalStroke: Int64 = .min
    /// Candidates in a row whose rotation repeated at their interval.
    private var pedalRun = 0
    #endif
    private var events = PauseResumePredictor()
    /// The periodicity (‰) measured at the latest candidate checked, for diagnostics.
    public private(set) var lastCorrelation = 0

    private static var minimumThreshold: Q32_32 { Q32_32(numerator: 1, denominator: 2) }
    private static var thresholdFraction: Q32_32 { Q32_32(numerator: 2, denominator: 5) }
    private static var boutThresholdFraction: Q32_32 { Q32_32(numerator: 3, denominator: 10) }
    private static var tailFraction: Q32_32 { Q32_32(numerator: 1, denominator: 5) }
    /// 0.7² (see `isCarried`).
    private static var carriedFractionSquared: Q32_32 { Q32_32(numerator: 49, denominator: 100) }
    /// The first sample's interval, s (no previous one to measure it from).
    private static var firstInterval: Q32_32 { Q32_32(numerator: 1, denominator: 100) }
    private let minimumInterval: Int64 = 250_000_000
    private let maximumInterval: Int64 = 2_000_000_000
    private let slowestGait: Int64 = 1_000_000_000
    /// ns: the shortest bout interval whose gaps are filled in (2.5 steps/s).
    private let shortestFilledInterval: Int64 = 400_000_000
    /// Candidates that confirm a resumed walk, and how soon after the last step (ns) a walk
    /// counts as resumed (see `isResuming`): the 10 s within which `isStepping` takes a
    /// carried device that was walking for one setting off again.
    private static var resumingSteps: Int { 3 }
    /// ns: a candidate at least this long after the previous one (a walking cadence, 2 steps a
    /// second or slower; runners step every 0.3–0.4 s) whose step signal swings by more than 1 g
    /// (`standardGravity`), or on a device that turns faster than a walk turns it
    /// (`turnsLikeAHand`), is the hand's handling, not a walker's step, and starts no bout.
    /// Walking keeps the body's acceleration within a few tenths of g (the ground's force stays
    /// within 0.7–1.3 body weights); a carried device adds its swing and the heel strike, which
    /// the 3 Hz low-pass mostly removes: of 48 000 candidates credited in the walks of every dev
    /// set (hands, pockets, bags, waist, lower back; about 70 people), 9 came over 1 g (a purse
    /// bumping against the body, 1.2–1.7 g; back pockets and a lower back, 1.02–1.07 g), all
    /// inside walks. A device shaken or moved to and fro by the hand jolts harder (BROAD's fast
    /// translations: 1.3–2.9 g every 0.6–1 s) and was counted as a walk. Neither ends a walk in
    /// progress (a bag's bump in mid-walk is a step like the others, a quick turn a turn): they
    /// only refuse to start one.
    /// (1 g rather than the device's own 1 s mean |a|: shaking raises that mean, and with it
    /// BROAD's handled trials kept 2.8 false steps a minute instead of 2.3.)
    private static var joltInterval: Int64 { 500_000_000 }
    /// 1 g, m/s²: 9.80665 × 2³², rounded.
    private static var standardGravity: Q32_32 { Q32_32(rawValue: 42_119_241_033) }
    private static var resumingWindow: Int64 { 10_000_000_000 }

    public init() {}

    /// Whether a confirmed bout of steps is going on.
    public var isWalking: Bool { walking }

    /// The confirmed bout's step interval, ns: the rhythm its candidates are judged at.
    public var rhythmNanoseconds: Int64 { boutInterval }

    /// Whether the user is stepping now, by the predictor (for motion activity, which must call
    /// walking within seconds): moving since the last resume, and either a confirmed bout or a
    /// carried device that was walking less than 10 s ago (a walker setting off again after a
    /// stop; a cold start still waits for the bout's confirmation); false from the predicted
    /// pause on, before the bout's 2 s run out.
    // Inlined: called on the inout self of a mutating method, a call would first copy the whole
    // struct (Swift passes a large self by value: a kilobyte of stack on a Cortex-M0).
    @inline(__always)
    public var isStepping: Bool {
        events.isMoving && (walking || (isCarried && lastStep != .min && lastSampleTime - lastStep < 10_000_000_000))
    }

    /// Whether a candidate in the last 3 s was a pedal stroke (`isPedalStroke`): the device is on a
    /// limb that pedals a bicycle. Always false without a gyroscope.
    public var isPedalling: Bool {
        #if ACCELEROMETER_ONLY_STEPS
        return false
        #else
        return lastPedalStroke != .min && lastSampleTime - lastPedalStroke < Self.pedallingMemory
        #endif
    }

    /// ns: two revolutions at the slowest cadence `RotationRhythm` measures (47 rpm: 2.6 s) and a
    /// little: a stroke missed or doubled (a bump, a gear change) does not end the ride.
    private static var pedallingMemory: Int64 { 3_000_000_000 }

    /// One gyroscope sample (rad/s, device axes) at `time` (ns), where there is a gyroscope:
    /// it finds a walk's closing step and its turns (`TrunkYawSwing`). Steps are credited by
    /// the accelerometer's samples only.
    public mutating func update(rotationRate: FusionVector<Q32_32>, timeNanoseconds time: Int64) {
        // Gravity's direction comes from the accelerometer: none yet, or a device in free fall.
        #if !ACCELEROMETER_ONLY_STEPS
        // (A gap of over 2 s replaces the average: the weight is at most 1.)
        let dt = rotationTime == .min ? Q32_32.zero : min(Q32_32(nanoseconds: time - rotationTime), Q32_32(integer: 2))
        rotationEnergy = rotationTime == .min ? rotationRate.squaredLength
            : rotationEnergy + (rotationRate.squaredLength - rotationEnergy) * dt.timesPowerOfTwo(-1)
        rotationTime = time
        rotationRhythm.update(rotationRate: rotationRate, timeNanoseconds: time)
        guard started, mean > Q32_32.one else { return }
        // The part about the vertical (a: the 1 s average acceleration, gravity's direction),
        // left scaled by |a|² so that no sample pays a division: a turn of the whole body is no
        // limb's swing (`updateRidesLimb`).
        let aboutVertical = rotationRate.dot(averageAcceleration)
        verticalRotationEnergy = verticalRotationEnergy + (aboutVertical * aboutVertical - verticalRotationEnergy) * dt.timesPowerOfTwo(-1)
        yawSwing.update(rotationRate: rotationRate, gravity: averageAcceleration, gravityLength: mean, timeNanoseconds: time)
        #endif
    }

    /// One accelerometer sample (m/s², device axes) at `time`; `output` gets each step credited
    /// by it (a confirmation credits the bout's first steps at once) and each pause or resume.
    public mutating func update(acceleration: FusionVector<Q32_32>, timeNanoseconds time: Int64, output: (Output) -> Void) {
        let dt = started ? Q32_32(nanoseconds: time - previousTime) : Self.firstInterval
        previousTime = time
        if !started {
            started = true
            smoothing.reset(to: acceleration, dt: dt)
            vibrationBand.reset(to: acceleration, dt: dt)
            mean = acceleration.squaredLength.squareRoot
            averageAcceleration = acceleration
        }
        let smooth = smoothing.update(acceleration, dt: dt)
        let magnitude = smooth.squaredLength.squareRoot
        mean = mean + (magnitude - mean) * dt  // 1 s time constant
        averageAcceleration = averageAcceleration + (smooth - averageAcceleration) * dt
        let deviation = smooth - averageAcceleration
        let along = deviation.dot(averageAcceleration)
        let energyWeight = dt.timesPowerOfTwo(-1)  // 2 s time constant
        verticalEnergy = verticalEnergy + (along * along - verticalEnergy) * energyWeight
        totalEnergy = totalEnergy + (deviation.squaredLength - totalEnergy) * energyWeight
        let signal = magnitude - mean
        let vibration = vibrationBand.update(acceleration, dt: dt).squaredLength.squareRoot - magnitude
        stepEnergy = stepEnergy + (signal * signal - stepEnergy) * energyWeight
        vibrationEnergy = vibrationEnergy + (vibration * vibration - vibrationEnergy) * energyWeight
        periodicity.update(signal: signal, timeNanoseconds: time)
        // The recent step amplitude decays with a 5 s time constant when nothing renews it.
        amplitude = amplitude - amplitude * dt * Self.decayRate
        let threshold = max(Self.minimumThreshold, amplitude * (walking ? Self.boutThresholdFraction : Self.thresholdFraction))
        events.observe(signal: signal, threshold: threshold, timeNanoseconds: time, output: output)
        if walking, time - lastStep > maximumInterval {
            // The bout is over; a walker's last step, as they slow to a stop, is often too
            // weak to be a candidate. With a gyroscope, the trunk's yaw swing shows it
            // (`TrunkYawSwing`); else the strongest peak at the rhythm after the last step (¾ to
            // 4⁄3 of an interval later) above a fifth of the recent amplitude is that step.
            if let closing = closingStepFromYaw() {
                output(.step(closing))
            } else if tailStep != .min {
                output(.step(tailStep))
            }
            endBout()
        }
        // The sample before is a peak if the signal rose into it and falls after it.
        let (older, last) = previous
        let peakTime = lastSampleTime
        previous = (last, signal)
        lastSampleTime = time
        guard last > older, last >= signal else { return }
        if walking, last <= threshold, last > amplitude * Self.tailFraction, last > tailHeight,
           peakTime - lastStep >= boutInterval &* 3 / 4, peakTime - lastStep <= boutInterval &* 4 / 3 {
            tailStep = peakTime
            tailHeight = last
        }
        guard last > threshold else { return }
        guard lastCandidate == .min || peakTime - lastCandidate >= minimumInterval else { return }
        guard !isVibration else { return }
        // A candidate: its height renews the amplitude (a quarter of the way per candidate).
        amplitude = amplitude + (last - amplitude).timesPowerOfTwo(-2)
        let sinceCandidate = lastCandidate == .min ? Int64.max : peakTime - lastCandidate
        lastCandidate = peakTime
        if !walking, sinceCandidate >= Self.joltInterval, last > Self.standardGravity || turnsLikeAHand {
            // The hand's handling, not a step (see `joltInterval`): it starts no walk, nor do the
            // candidates before it.
            pendingCount = 0
            return
        }
        if isPedalStroke(at: peakTime, interval: sinceCandidate) {
            // A pedal stroke, not a step (see `isPedalStroke`): it starts no walk, nor do the
            // candidates before it.
            pendingCount = 0
            return
        }
        events.candidate(at: peakTime, output: output)
        // The carry and the bounce, measured once per candidate: each is a few Q32.32 products,
        // hundreds of bytes of Thumb code wherever one is inlined on a Cortex-M0.
        let body = Body(carried: isCarried, bounce: bounceShare, limbBounce: limbBounce)
        if walking {
            continueBout(at: peakTime, body: body, output: output)
        } else {
            append(peakTime)
            // A confirmation credits the bout's first steps here, at the times they happened
            // (the functions that decide it take no `output`: each function handed the closure
            // gets a copy of the caller's code specialised into it, on a Cortex-M0 too).
            if let credited = confirmBout(body: body) {
                for index in credited { output(.step(pending[index])) }
            }
        }
    }

    /// A candidate inside a confirmed bout: credited while the rhythm holds.
    // Without a gyroscope's help (`ACCELEROMETER_ONLY_STEPS`: the Cortex-M0 firmware, whose
    // 48 KB of flash the yaw swing's 2.9 KB would overrun) there is no closing step from the
    // yaw and no turn.
    @inline(__always)
    private func closingStepFromYaw() -> Int64? {
        #if ACCELEROMETER_ONLY_STEPS
        return nil
        #else
        return yawSwing.closingStep(after: lastStep, interval: boutInterval)
        #endif
    }

    @inline(__always)
    private func hasTurned(before time: Int64) -> Bool {
        #if ACCELEROMETER_ONLY_STEPS
        return false
        #else
        return yawSwing.lastTurn != .min && time - yawSwing.lastTurn < GaitPeriodicity.span
        #endif
    }

    private mutating func continueBout(at time: Int64, body: Body, output: (Output) -> Void) {
        let sinceStep = time - lastStep
        lastCorrelation = periodicity.correlation(period: boutInterval)
        // A step at the bout's rhythm is a step: the periodicity and the bounce decide only
        // for candidates off the rhythm. So a carry the gates were never tuned for (a loose
        // pocket, a cane user's gait) cannot drop a walk whose steps keep their rhythm.
        let atRhythm = isRegular(sinceStep, around: boutInterval)
        guard body.carried, atRhythm && rhythmKeeps || lastCorrelation >= keepCorrelation && body.bounce >= body.needed(keepVerticalShare) else {
            aperiodicCandidates += 1
            // A walker's turn breaks the periodicity for as long as it lies in the correlated
            // window or its copy a stride earlier, while the steps go on: candidates rejected
            // then are kept, and credited if the walk resumes at their rhythm (`confirmBout`).
            let turned = hasTurned(before: time)
            if turned { append(time) }
            if aperiodicCandidates >= 2 { endBout(keepingCandidates: turned) }
            return
        }
        aperiodicCandidates = 0
        pendingCount = 0  // candidates rejected before this one were not steps of the rhythm
        tailStep = .min
        tailHeight = .zero
        let interval = time - lastStep
        // Steps too weak to be candidates (a turn, an uneven stride) leave a gap of whole
        // intervals between two steps of the same rhythm: credit them where they fell.
        // Only at a walking rhythm (up to 2.5 steps/s: running steps are strong and not missed)
        // that held for the two intervals before the gap: a bout confirmed on a wrong rhythm (a
        // hand's jitter at twice the cadence) would fill in steps never taken.
        let gap = boutInterval >= shortestFilledInterval ? missedSteps(in: interval) : 0
        let missed = regularIntervals >= 2 ? gap : 0
        if isRegular(interval, around: boutInterval, within: 2) {
            regularIntervals += 1
        } else if missed == 0 {
            regularIntervals = 0
        }
        var index: Int64 = 1
        while index <= missed {
            output(.step(lastStep + interval &* index / (missed + 1)))
            index += 1
        }
        // The rhythm follows each step's interval, but not a gap of two or three intervals left
        // unfilled (the rhythm had not held long enough to fill it): that is a step missed, not a
        // cadence halved; walkers change cadence over several steps, not from one to the next.
        // Followed, one such gap pulled a cane walker's rhythm from 0.7 s to 0.9 s, and the
        // steps at the true rhythm then failed the periodicity at the false one: 6 s lost.
        let stride = interval / (missed + 1)
        let gapLeft = gap > 0 && missed == 0 && gapKeepsRhythm
        if stride >= minimumInterval, stride <= maximumInterval, !gapLeft {
            boutInterval += (followedInterval(stride) - boutInterval) / 4
        }
        lastStep = time
        output(.step(time))
    }

    /// The interval the bout's rhythm follows for a step `interval` ns after the last one: on a
    /// device that rides a limb (`updateRidesLimb`), the mean of it and the interval before,
    /// half a stride. A thigh or an arm swings once a stride, so the pocket or the hand meets
    /// the two feet's heel strikes at different phases of its swing, and the peaks of |a|
    /// alternate short and long (WeAllWalk's pockets: 0.36 / 0.76 s where the heel strikes come
    /// every 0.57 s). Following each interval, the rhythm ratchets to the short one: a long one
    /// is taken for a step missed and left out (`gapKeepsRhythm`), each short one pulls it,
    /// and the periodicity at that lag then ends the bout. The stride is what repeats. On the
    /// trunk (a lower back, a hand held in front) the two steps look alike, and a turn's
    /// rotation about the vertical is no swing: there each interval is followed as before.
    @inline(__always)  // (see `isStepping`)
    private mutating func followedInterval(_ interval: Int64) -> Int64 {
        #if ACCELEROMETER_ONLY_STEPS
        return interval
        #else
        defer { previousInterval = interval }
        return updateRidesLimb() && previousInterval > 0 ? (interval + previousInterval) / 2 : interval
        #endif
    }

    /// How many whole step intervals of the bout's rhythm fit in a gap between two credited
    /// steps, less one: 1 or 2 when the gap is 2 or 3 intervals within ±20 % (the rhythm's
    /// spread inside a bout is a few per cent), else 0.
    @inline(__always)  // (see `isStepping`)
    private func missedSteps(in interval: Int64) -> Int64 {
        var count: Int64 = 2
        while count <= 3 {
            if interval &* 10 >= boutInterval &* count &* 8, interval &* 10 <= boutInterval &* count &* 12 { return count - 1 }
            count += 1
        }
        return 0
    }

    /// Confirms a bout, by the gates or else by the fail-safe, on a carried device: returns the
    /// pending candidates (indices into `pending`) it credits, or nil.
    private mutating func confirmBout(body: Body) -> ClosedRange<Int>? {
        guard body.carried else { return nil }
        return confirmByGates(bounce: body.bounce)
            ?? confirmBySteadyRhythm(bounce: body.bounce, needed: body.needed(steadyVerticalShare))
    }

    /// The fail-safe: `steadySteps` candidates in a row at a steady walking or running rhythm
    /// on a carried device with some bounce (`steadyVerticalShare`) are a walk, whatever the
    /// periodicity says. Why it is safe: peaks that are not steps (a device handled, road bumps
    /// under a bike or a car) come at irregular intervals, and the chance that six strides in a
    /// row all fall within ±`steadyStridePercent` % of their mean (each step within ±40 %) is
    /// small for them, while a walker's strides do so nearly always. Why it
    /// is needed: the gates are measured on the carries and people we have; on one we have not,
    /// one of them can disagree for a whole walk, and a pedometer that counts nothing for a
    /// minute of steady walking is the failure users notice first.
    private mutating func confirmBySteadyRhythm(bounce: Int, needed neededShare: Int) -> ClosedRange<Int>? {
        let needed = steadySteps
        guard needed >= 3, needed <= pending.count, pendingCount >= needed, bounce >= neededShare else { return nil }
        let newest = pendingCount - 1
        let firstOfRun = pendingCount - needed
        let meanInterval = (pending[newest] - pending[firstOfRun]) / Int64(needed - 1)
        guard meanInterval <= slowestGait else { return nil }
        // Gait repeats itself every stride: a cane, a limp or a phone in one pocket makes left
        // and right steps differ (WeAllWalk's cane users: 0.44 s and 0.72 s in turn), while
        // strides stay within a few per cent of each other.
        var index = firstOfRun + 1
        while index <= newest {
            guard isRegular(pending[index] - pending[index - 1], around: meanInterval) else { return nil }
            if index >= firstOfRun + 2 {
                // (Wrapping arithmetic: see `isRegular`.)
                let deviation = (pending[index] &- pending[index - 2]) &- 2 &* meanInterval
                guard (deviation < 0 ? 0 &- deviation : deviation) &* 100 <= 2 &* meanInterval &* Int64(steadyStridePercent) else { return nil }
            }
            index += 1
        }
        return startBout(first: firstOfRun, newest: newest, interval: meanInterval)
    }

    /// Confirms a bout by the gates when the newest few candidates are regular, periodic and
    /// bouncing, from its first regular candidate (older pending ones that keep the rhythm count
    /// too).
    private mutating func confirmByGates(bounce: Int) -> ClosedRange<Int>? {
        let resuming = isResuming
        let needed = resuming ? Self.resumingSteps : confirmationSteps
        guard pendingCount >= needed else { return nil }
        let newest = pendingCount - 1
        let firstOfRun = pendingCount - needed
        let meanInterval = (pending[newest] - pending[firstOfRun]) / Int64(needed - 1)
        // People walk at 1 to 3.5 steps a second: a slower rhythm is a hand's, not a gait.
        guard meanInterval <= slowestGait else { return nil }
        var index = firstOfRun + 1
        while index <= newest {
            guard isRegular(pending[index] - pending[index - 1], around: meanInterval, within: resuming ? 3 : 4) else { return nil }
            index += 1
        }
        lastCorrelation = periodicity.correlation(period: meanInterval)
        // A walk resumed is too short for its periodicity to show in the window (it holds the
        // standing before): its regularity and the bounce decide.
        guard resuming || lastCorrelation >= confirmCorrelation, bounce >= confirmVerticalShare else { return nil }
        var first = firstOfRun
        while first > 0, isRegular(pending[first] - pending[first - 1], around: meanInterval) { first -= 1 }
        // Gait initiation: the weight shift onto the stance leg before the first step (the
        // anticipatory postural adjustment, 0.3–0.5 s before the first heel strike) bounces
        // the trunk too, less than a step before the first step. A first step from standing
        // comes no sooner than the rhythm (it starts from rest): a first candidate that comes
        // over 20 % sooner than the later steps' interval is the weight shift.
        let rhythm = needed > 2 ? (pending[newest] - pending[firstOfRun + 1]) / Int64(needed - 2) : meanInterval
        let firstInterval = first < newest ? pending[first + 1] - pending[first] : rhythm
        if !isRegular(firstInterval, around: rhythm) || firstInterval &* 10 < rhythm &* 8 { first += 1 }
        return startBout(first: first, newest: newest, interval: meanInterval)
    }

    /// Starts a bout whose first steps are the pending candidates `first...newest` (returned:
    /// `update` credits them; `pending` keeps their times until the next candidate).
    private mutating func startBout(first: Int, newest: Int, interval: Int64) -> ClosedRange<Int> {
        lastStep = pending[newest]
        boutInterval = interval
        #if !ACCELEROMETER_ONLY_STEPS
        previousInterval = interval
        #endif
        walking = true
        aperiodicCandidates = 0
        regularIntervals = newest - first
        pendingCount = 0
        return first...newest
    }

    /// A walker who stopped less than `resumingWindow` ago and steps again at their rhythm or
    /// slower (a few more steps, a shuffle to face a door): `resumingSteps` candidates within
    /// ±30 % of their mean confirm it, without the periodicity. Not faster than 0.8 of the last
    /// bout's interval: a faster run of peaks after a stop is the hand's (a phone vibrating
    /// against a held device: BROAD), not the walker's.
    @inline(__always)  // (see `isStepping`)
    private var isResuming: Bool {
        guard lastStep != .min, pendingCount >= Self.resumingSteps else { return false }
        let newest = pending[pendingCount - 1], firstOfRun = pending[pendingCount - Self.resumingSteps]
        return newest - lastStep < Self.resumingWindow
            && (newest - firstOfRun) &* 10 >= boutInterval &* Int64(Self.resumingSteps - 1) &* 8
    }

    private mutating func endBout(keepingCandidates: Bool = false) {
        walking = false
        tailStep = .min
        tailHeight = .zero
        if !keepingCandidates { pendingCount = 0 }
        aperiodicCandidates = 0
    }

    /// The device keeps its attitude on average, as on a walking body (pocket, bag, hand held
    /// or swinging): the 1 s average of the acceleration vector is at least 0.7 of the average
    /// magnitude. A device turned over and over in the hand averages its gravity away.
    @inline(__always)  // (see `isStepping`)
    private var isCarried: Bool {
        averageAcceleration.squaredLength >= mean * mean * Self.carriedFractionSquared
    }

    /// The road's vibration, not a gait: over the last 2 s, |a| between 3 and 10 Hz carries more
    /// than `vibrationRatioPercent` % of the rms of |a| below 3 Hz. A gait's acceleration is its
    /// steps: the body's bounce below 3 Hz, with brief heel strikes (walking in every carry of
    /// the dev sets, running in the hand too: the ratio stays under 2.2 at the 99.9th
    /// percentile); a vehicle's is its vibration, engine and road exciting the body, the mount
    /// and the handlebar above 3 Hz (a bicycle's handlebar: median 3.1). A peak then is a bump
    /// in the road, neither a step nor a candidate; the pause predictor does not see it either.
    @inline(__always)  // (see `isStepping`)
    private var isVibration: Bool {
        vibrationRatioPercent > 0
            && vibrationEnergy * Q32_32(integer: 10_000) > stepEnergy * Q32_32(integer: Int32(clamping: vibrationRatioPercent * vibrationRatioPercent))
    }

    /// What a candidate's gates look at: whether the device is carried (`isCarried`), the
    /// share (‰) of its acceleration's energy along gravity (`bounceShare`) and the lowest
    /// share the keeping and fail-safe gates may ask for (`limbBounce`).
    private struct Body {
        var carried: Bool
        var bounce: Int
        var limbBounce: Int

        /// The bounce share (‰) a keeping or fail-safe gate needs: `share`, or less on a device
        /// turned like a limb.
        func needed(_ share: Int) -> Int { min(share, limbBounce) }
    }

    /// The lowest bounce share (‰) the keeping and fail-safe gates may ask for:
    /// `thighVerticalShare` on a device that turns like a limb (`turnsLikeALimb`), else no
    /// lower than they ask for (1000).
    @inline(__always)  // (see `isStepping`)
    private var limbBounce: Int {
        #if ACCELEROMETER_ONLY_STEPS
        return 1000
        #else
        return turnsLikeALimb ? thighVerticalShare : 1000
        #endif
    }

    /// Whether the device turns faster than any walk turns it: the rotation rate's rms over 2 s
    /// above 5 rad/s. A walker's arm or thigh swings a device through ±25–30° at the stride rate
    /// (about 2 rad/s rms), a quick turn of the whole body adds π rad/s for a second: the dev
    /// walks with a gyroscope reach 3.9 rad/s (IPOL's lower back in a turn; 3.7 running with a
    /// phone in the hand, at a runner's cadence). A device waved, twirled or shaken by the hand
    /// turns at 4–9 rad/s (BROAD's handled trials). Without a gyroscope (the firmware's step
    /// stage), never.
    @inline(__always)  // (see `isStepping`)
    private var turnsLikeAHand: Bool {
        #if ACCELEROMETER_ONLY_STEPS
        return false
        #else
        return seesRotation && rotationEnergy > Self.handRotationRateSquared
        #endif
    }

    /// Whether the candidate at `time` (ns), `interval` ns after the previous one, is a pedal
    /// stroke: the third or later in a row whose rotation repeats at their interval while the
    /// device swings like a limb (over 1 rad/s rms over 2 s, `RotationRhythm`). A thigh
    /// pedalling a bicycle turns once a crank revolution and |a| (the knee's up and down) peaks
    /// once a revolution too, candidate after candidate; a walker's limb is mirrored after one
    /// step and repeats only after two. With the phone in a trouser pocket a ride counted one
    /// step a revolution. One or two such candidates are not enough: a swinging hand's walk
    /// whose detector skipped a step (a 1.1 s stride) repeats too, now and then (in the dev
    /// walks with a gyroscope, two in a row six times; more only once, six in a row: a lower
    /// back in a turn). A stroke starts no walk, and `pedalStrokesEndingAWalk` in a row end one
    /// (a rider who walked to the bicycle and rode off, or whose first strokes confirmed a bout).
    /// Once strokes come, a stroke within 3 s of the last one counts whatever the run, and no
    /// candidate starts a walk until they stop for 3 s (`pedallingMemory`). Without a gyroscope
    /// (the firmware's step stage), never.
    @inline(__always)  // (see `isStepping`)
    private mutating func isPedalStroke(at time: Int64, interval: Int64) -> Bool {
        #if ACCELEROMETER_ONLY_STEPS
        return false
        #else
        let repeats = seesRotation && rotationRhythm.repeats(every: interval)
        pedalRun = repeats ? min(pedalRun + 1, Self.pedalStrokesEndingAWalk) : 0
        if repeats, pedalRun >= 3 || isPedalling {
            lastPedalStroke = time
            if walking, pedalRun >= Self.pedalStrokesEndingAWalk { endBout() }
        }
        // Until the strokes stop for 3 s no candidate starts a walk: a double peak or a stroke
        // the rotation does not repeat (a bump, a gear change) would otherwise start a bout
        // of the strokes after it.
        return !walking && isPedalling
        #endif
    }

    /// Pedal strokes in a row that end a walk in progress: more than a walk's limb ever repeats
    /// at its step interval in a row in the dev walks (six), fewer than a minute's pedalling.
    private static var pedalStrokesEndingAWalk: Int { 10 }

    /// (5 rad/s)², see `turnsLikeAHand`.
    private static var handRotationRateSquared: Q32_32 { Q32_32(integer: 25) }

    #if !ACCELEROMETER_ONLY_STEPS
    /// Whether the device turns no faster than a walker's thigh swings a trouser pocket: the
    /// rotation rate's rms over 2 s at most `thighRotationRate` (3 rad/s). In a pocket the
    /// device turns with the thigh through the hip's 40–50° of flexion and extension every
    /// stride (about 2 rad/s rms at a brisk 1 Hz stride), so its 1 s average acceleration, the
    /// bounce's reference, lags gravity's direction and the bounce share falls to 0.10–0.16
    /// (WeAllWalk's loose-pocket walker: whole walks lost at 0.15). A device waved, twirled or
    /// shaken by the hand, whose to-and-fro the bounce share is there to refuse, turns at
    /// 4–9 rad/s rms (BROAD's handled trials). Without a gyroscope (or in the firmware, which
    /// has none of this) the device's turning is unknown and the higher shares apply.
    @inline(__always)  // (see `isStepping`)
    private var turnsLikeALimb: Bool {
        seesRotation && rotationEnergy <= Self.squared(milliradiansPerSecond: thighRotationRate)
    }

    /// (`rate` mrad/s)² in (rad/s)², as the rotation's energies are kept.
    @inline(__always)  // (see `isStepping`)
    private static func squared(milliradiansPerSecond rate: Int) -> Q32_32 {
        let limit = Q32_32(numerator: Int64(rate), denominator: 1000)
        return limit * limit
    }

    /// Whether the device rides a limb, judged at each step: it swings about horizontal axes (a
    /// thigh's flexion and extension, an arm's swing) faster than `limbSwingRate` rms over 2 s,
    /// as `RotationRhythm` takes a limb's swing (1 rad/s: WeAllWalk's pockets swing at 1.4–1.6
    /// rad/s rms; a lower back or a phone held in front turns a few tenths, their turns about
    /// the vertical; at 0.7 rad/s IPOL's lower backs and BROAD's handled devices pass now and
    /// then).
    /// The swing's 2 s average ripples with the stride (±7 % on a pocket), so a device near
    /// the bound would be judged afresh at each step, on at the long intervals and off at the
    /// short: the rhythm, following half strides and single short steps by turns, then ratchets
    /// down as before (a cane walker's pocket at 1.5 rad/s lost 25 steps so). Hence a hysteresis:
    /// a device rides a limb above the bound and goes on doing so until its swing falls under
    /// 0.7 of it (half the energy).
    @inline(__always)  // (see `isStepping`)
    private mutating func updateRidesLimb() -> Bool {
        let squaredLimit = Self.squared(milliradiansPerSecond: limbSwingRate)
        let bound = ridesLimb ? squaredLimit.timesPowerOfTwo(-1) : squaredLimit
        // The swing's energy is the rotation's less its part about the vertical; all of it times
        // |a|², (rad/s)² (m/s²)², as `verticalRotationEnergy` keeps it.
        let gravitySquared = averageAcceleration.squaredLength
        ridesLimb = limbSwingRate > 0 && seesRotation
            && rotationEnergy * gravitySquared - verticalRotationEnergy > bound * gravitySquared
        return ridesLimb
    }

    /// Whether the gyroscope's averages describe the device now: it has sent a sample within
    /// `HeldSample.secondsFreshness` (1 s) of the latest accelerometer sample. A gyroscope that stops
    /// while the accelerometer goes on (a failing chip, a bus that lost it) leaves its averages
    /// where they were, and the rules that read them would go on deciding from that moment: a
    /// device being twirled when it stopped would start no walk again, a ride's last 5 s of
    /// rotation would make every later candidate at its cadence a pedal stroke. Without a recent
    /// sample the detector decides as it does where there is no gyroscope.
    @inline(__always)  // (see `isStepping`)
    private var seesRotation: Bool {
        rotationTime != .min && lastSampleTime - rotationTime <= HeldSample<FusionVector<Q32_32>>.secondsFreshness
    }
    #endif

    /// The share (‰) of the acceleration's energy (over 2 s) that lies along gravity (the 1 s
    /// average acceleration, whose length is about `mean`). A walking body bounces: its centre of
    /// mass rises and falls a few centimetres every step, so its acceleration lies largely along
    /// gravity wherever the device is carried (Oxford's seven carry positions and UCI's waist:
    /// over 0.3 in 95 % of 2.5 s windows; IPOL's lower back 0.2). A device moved to and fro by
    /// the hand moves sideways, and |a| then swings at twice the hand's rate (through the
    /// a²/2g term): steps that are not there (BROAD's handled trials: median 0.2).
    private var bounceShare: Int {
        // verticalEnergy / (mean² × totalEnergy), both (m/s²)⁴, on their raw Q32.32 values: the
        // quotient of two numbers of one format needs no shift.
        let scale = (mean * mean * totalEnergy).rawValue / 1000
        guard scale > 0 else { return 0 }
        return Int(min(verticalEnergy.rawValue / scale, 1000))
    }

    /// An interval at a walking rhythm: 0.25…2 s and within ±40 % (`tenths` tenths) of
    /// `meanInterval`. (Here and wherever intervals are multiplied by small factors, wrapping
    /// products: intervals and bout intervals are differences of ns times within a recording or
    /// a run, far below Int64's range even times 100, and a checked 64-bit product is a long
    /// sequence of code on a Cortex-M0.)
    @inline(__always)  // (see `isStepping`)
    private func isRegular(_ interval: Int64, around meanInterval: Int64, within tenths: Int64 = 4) -> Bool {
        interval >= minimumInterval && interval <= maximumInterval
            && interval &* 10 >= meanInterval &* (10 - tenths) && interval &* 10 <= meanInterval &* (10 + tenths)
    }

    /// Keeps the newest candidates of a possible bout (a gap over 2 s starts afresh).
    private mutating func append(_ time: Int64) {
        if pendingCount > 0, time - pending[pendingCount - 1] > maximumInterval { pendingCount = 0 }
        if pendingCount == pending.count {
            for index in 1..<pending.count { pending[index - 1] = pending[index] }
            pendingCount -= 1
        }
        pending[pendingCount] = time
        pendingCount += 1
    }
}
