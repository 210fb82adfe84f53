// The replay the firmware image runs, compiled unchanged for the board (Embedded Swift, armv6m
// / armv7em / aarch64) and for the host (the Linux reference): the bundled walk through the pedometer's
// `StepDetector` and the motion-activity stage (`ActivityClassifier`, fed as MotionEngine's
// `ActivityStage` feeds it), the bundled rotation through `FixedPointAttitudeFilter` (9D), and
// every output as text, integers only (raw Q32.32 values), so the two can be compared byte for
// byte.
// No allocation, no Foundation: it runs from `ocm_replay()`, called by the C `main`.
// With `-D COUNT_INSTRUCTIONS` (the AArch64 image) each stage's call for one sample is bracketed
// by `ocm_count_begin` / `ocm_count_end`: its instructions, counted by the core. The sample's
// conversion to Q32.32 is outside the bracket (hence the magnetometer's `let` before it), and so
// are the semihosting writes of the lines a callback prints (start-aarch64.c leaves them out).
import FixedPoint
import MotionAlgorithms

/// A line at a time to `ocm_write`, from a buffer on the stack.
struct LineWriter {
    private var buffer = InlineArray<96, UInt8>(repeating: 0)
    private var count = 0

    mutating func byte(_ value: UInt8) {
        if count == buffer.count { flush() }
        buffer[count] = value
        count += 1
        if value == 10 { flush() }
    }

    mutating func text(_ value: StaticString) {
        let start = value.utf8Start
        for index in 0..<value.utf8CodeUnitCount { byte(start[index]) }
    }

    mutating func int(_ value: Int64) {
        var digits = InlineArray<20, UInt8>(repeating: 0)
        var magnitude = value.magnitude  // UInt64: Int64.min too
        var used = 0
        repeat {
            digits[used] = UInt8(truncatingIfNeeded: magnitude % 10) + 48
            magnitude /= 10
            used += 1
        } while magnitude != 0
        if value < 0 { byte(45) }
        while used > 0 { used -= 1; byte(digits[used]) }
    }

    /// " value" for each (no variadic: its array would be the one allocation).
    mutating func fields(_ a: Int64) { byte(32); int(a) }
    mutating func fields(_ a: Int64, _ b: Int64) { fields(a); fields(b) }
    mutating func fields(_ a: Int64, _ b: Int64, _ c: Int64) { fields(a, b); fields(c) }
    mutating func fields(_ a: Int64, _ b: Int64, _ c: Int64, _ d: Int64) { fields(a, b); fields(c, d) }
    mutating func fields(_ a: Int64, _ b: Int64, _ c: Int64, _ d: Int64, _ e: Int64) { fields(a, b, c, d); fields(e) }

    mutating func end() { byte(10) }

    mutating func flush() {
        guard count > 0 else { return }
        withUnsafeBytes(of: &buffer) { raw in
            ocm_write(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count)
        }
        count = 0
    }
}

/// The reading `scaled / scale` (`scaled` is the recording text's last decimal place's
/// integer) in Q32.32, rounded in integer arithmetic: the same number as the Linux pipeline's
/// `Q32_32(Double)` of the parsed text (make_recording.py checks every value), without
/// floating point (a Cortex-M0 has none: its soft double is 8 KB of flash).
func fixed(_ scaled: Int32, _ scale: Int64) -> Q32_32 { Q32_32(numerator: Int64(scaled), denominator: scale) }

func vector(_ samples: UnsafePointer<Int32>, _ scale: Int64) -> FusionVector<Q32_32> {
    FusionVector(x: fixed(samples[0], scale), y: fixed(samples[1], scale), z: fixed(samples[2], scale))
}

/// The motion-activity stage: MotionAlgorithms' `ActivityTracker`, as MotionEngine's
/// `ActivityStage` drives it (the latest gyroscope sample with each accelerometer sample); its
/// step detector is the pedometer's own in the walk.
struct ActivityReplay {
    private var tracker = ActivityTracker()
    /// Activity updates and steps credited so far.
    private(set) var updates: Int64 = 0
    private(set) var steps: Int64 = 0

    /// One accelerometer sample with the latest gyroscope sample (nil: none yet, or no
    /// gyroscope); writes the step detector's outputs if `printSteps` (the pedometer's lines)
    /// and the activity update the sample causes, if any (flags or confidence changed). One
    /// call site of the step detector for the walk and the rotation alike: one copy of its code.
    @inline(never)
    mutating func update(_ out: inout LineWriter, printSteps: Bool, acceleration: FusionVector<Q32_32>,
                         rotationRate: FusionVector<Q32_32>?, time: Int64) {
        var credited: Int64 = 0
        #if COUNT_INSTRUCTIONS
        ocm_count_begin()
        #endif
        let changed = tracker.update(acceleration: acceleration, rotationRate: rotationRate, timeNanoseconds: time) { output in
            switch output {
            case .step(let stepTime):
                credited += 1
                #if ACTIVITY_ONLY
                _ = stepTime
                #else
                if printSteps { out.text("step"); out.fields(stepTime); out.end() }
                #endif
            case .resume(let at):
                #if ACTIVITY_ONLY
                _ = at
                #else
                if printSteps { out.text("resume"); out.fields(at); out.end() }
                #endif
            case .pause(let at):
                #if ACTIVITY_ONLY
                _ = at
                #else
                if printSteps { out.text("pause"); out.fields(at); out.end() }
                #endif
            }
        }
        #if COUNT_INSTRUCTIONS
        ocm_count_end(OCM_STAGE_ACTIVITY)
        #endif
        steps += credited
        guard let estimate = changed else { return }
        updates += 1
        out.text("activity")
        out.fields(Int64(estimate.flags.rawValue), Int64(estimate.confidence.rawValue), estimate.startNanoseconds, time)
        out.end()
    }
}

/// No motion-activity stage (one stage alone): no state for it on the stack.
struct NoActivity {}
#if STEPS_ONLY
typealias WalkActivity = NoActivity
#else
typealias WalkActivity = ActivityReplay
#endif
#if FUSION_ONLY
typealias RotationActivity = NoActivity
#else
typealias RotationActivity = ActivityReplay
#endif

/// Every `StepDetector` output: "step T", "pause T", "resume T" (ns); then the count. With the
/// activity stage (not `STEPS_ONLY`; its step detector is the pedometer's) every activity
/// update too ("activity FLAGS CONFIDENCE START AT", raw values, ns), and their count;
/// `ACTIVITY_ONLY` prints only those. The walk has no gyroscope.
func replayWalk(_ out: inout LineWriter, _ activity: inout WalkActivity) {
    #if STEPS_ONLY
    var detector = StepDetector()
    var steps: Int64 = 0
    #endif
    let count = Int(ocm_walk_count)
    let samples = ocm_walk_samples()!
    for index in 0..<count {
        let sample = samples + 4 * index
        let time = Int64(sample[0]) * 1000
        let acceleration = vector(sample + 1, 10_000)
        #if STEPS_ONLY
        #if COUNT_INSTRUCTIONS
        ocm_count_begin()
        #endif
        detector.update(acceleration: acceleration, timeNanoseconds: time) { output in
            switch output {
            case .step(let at): steps += 1; out.text("step"); out.fields(at)
            case .pause(let at): out.text("pause"); out.fields(at)
            case .resume(let at): out.text("resume"); out.fields(at)
            }
            out.end()
        }
        #if COUNT_INSTRUCTIONS
        ocm_count_end(OCM_STAGE_STEPS)
        #endif
        #elseif ACTIVITY_ONLY
        activity.update(&out, printSteps: false, acceleration: acceleration, rotationRate: nil, time: time)
        #else
        activity.update(&out, printSteps: true, acceleration: acceleration, rotationRate: nil, time: time)
        #endif
    }
    #if !ACTIVITY_ONLY
    #if !STEPS_ONLY
    let steps = activity.steps
    #endif
    out.text("walk samples"); out.fields(Int64(count)); out.text(" steps"); out.fields(steps); out.end()
    #endif
    #if !STEPS_ONLY
    out.text("activity updates walk"); out.fields(activity.updates); out.end()
    #endif
}

/// The 9D filter as `DeviceMotionEstimator` feeds it (acc, then gyr with it, then mag, each
/// time; dt from the previous sample of the sensor, 0 at the first): "q N W X Y Z", the raw
/// Q32.32 of the 9D attitude after every `interval`th gyroscope sample; then the final state.
/// With the activity stage (not `FUSION_ONLY`) the same readings through it too, as
/// `ActivityStage` takes them in that order (each accelerometer sample with the gyroscope
/// sample before it): the device lying still, then turned in the
/// hand. `ACTIVITY_ONLY` runs only that.
func replayRotation(_ out: inout LineWriter, _ activity: inout RotationActivity, interval: Int) {
    #if !ACTIVITY_ONLY
    var filter = FixedPointAttitudeFilter()
    #endif
    #if !FUSION_ONLY
    var rotationRate: FusionVector<Q32_32>?
    #endif
    let count = Int(ocm_rotation_count)
    let samples = ocm_rotation_samples()!
    var previous: Int64 = 0
    for index in 0..<count {
        let sample = samples + 10 * index
        let time = Int64(sample[0]) * 1000
        let dt = index == 0 ? Q32_32.zero : Q32_32(nanoseconds: time - previous)
        previous = time
        let acceleration = vector(sample + 1, 10_000), gyroscope = vector(sample + 4, 100_000)
        #if !FUSION_ONLY
        activity.update(&out, printSteps: false, acceleration: acceleration, rotationRate: rotationRate, time: time)
        rotationRate = gyroscope
        #endif
        #if !ACTIVITY_ONLY
        let magnetometer = vector(sample + 7, 100)
        #if COUNT_INSTRUCTIONS
        ocm_count_begin()
        #endif
        filter.update(gyroscope: gyroscope, accelerometer: acceleration, dt: dt)
        filter.update(magnetometer: magnetometer, dt: dt)
        #if COUNT_INSTRUCTIONS
        ocm_count_end(OCM_STAGE_FUSION)
        #endif
        if (index + 1) % interval == 0 || index + 1 == count {
            let q = filter.attitude9D
            out.text("q"); out.fields(Int64(index + 1), q.w.rawValue, q.x.rawValue, q.y.rawValue, q.z.rawValue); out.end()
        }
        #endif
    }
    #if !ACTIVITY_ONLY
    let q = filter.attitude6D, bias = filter.bias, offset = filter.magnetometerOffset
    out.text("q6d"); out.fields(q.w.rawValue, q.x.rawValue, q.y.rawValue, q.z.rawValue); out.end()
    out.text("bias"); out.fields(bias.x.rawValue, bias.y.rawValue, bias.z.rawValue); out.end()
    out.text("heading"); out.fields(filter.headingOffset.rawValue, filter.hasHeading ? 1 : 0); out.end()
    out.text("magnetometer"); out.fields(offset.x.rawValue, offset.y.rawValue, offset.z.rawValue, Int64(filter.magnetometerAccuracy)); out.end()
    out.text("rotation samples"); out.fields(Int64(count)); out.end()
    #endif
    #if !FUSION_ONLY
    out.text("activity updates rotation"); out.fields(activity.updates); out.end()
    #endif
}

/// The whole replay; the C `main` calls it.
@_cdecl("ocm_replay")
public func replay() {
    var out = LineWriter()
    out.text("ocm-firmware-replay 1"); out.end()
    // One stage alone (`-D STEPS_ONLY`, `-D FUSION_ONLY`, `-D ACTIVITY_ONLY`: with the step
    // detector as its walking detector, but no step output) for its own flash and stack figures.
    // The motion-activity state (3 KB) is made here, a fresh one for each recording, before
    // the stage runs: its construction's temporaries are then off the stack by the time the
    // attitude filter's state and the per-sample calls are on it (the peak stack is the
    // pipeline's state plus one sample's calls, not plus its set-up).
    #if !FUSION_ONLY
    do {
        var activity = WalkActivity()
        replayWalk(&out, &activity)
    }
    #endif
    #if !STEPS_ONLY
    do {
        var activity = RotationActivity()
        replayRotation(&out, &activity, interval: 50)
    }
    #endif
    out.text("end"); out.end()
    out.flush()
}
