#if !ACCELEROMETER_ONLY_STEPS  // (see `StepDetector`)
public import FixedPoint

/// The trunk's yaw swing, step by step, from the gyroscope: what finds a walker's closing step
/// when the accelerometer no longer does.
///
/// Walking turns the pelvis about the vertical a few degrees towards the forward leg and back,
/// once per stride (pelvic rotation, the first of the "determinants of gait" of Saunders,
/// Inman & Eberhart, J. Bone Joint Surg. 1953): the yaw rate swings to one side during one step
/// and to the other during the next, its extremes near each heel strike. The closing step of
/// a walk, which brings the feet together, barely lifts the trunk: its vertical acceleration is
/// a twentieth of a stride's (IPOL's lower-back recordings), but the pelvis still turns back
/// for it, a swing of a third or more of the walk's.
///
/// The yaw rate is the angular velocity along gravity (the 1 s average acceleration, given by
/// the step detector), low-passed at 3 Hz like the step signal, minus its own 1 s average (a
/// turn's steady yaw). Its swings are the spans between sign changes with a hysteresis of
/// `hysteresis`; each is kept as the time and rate of its extreme, the newest sixteen in a ring
/// (from a stride before a walk's last step to the 2 s after it, small swings of the trunk
/// settling included). A turn (the 1 s average over `turningRate`) is noted too: it breaks the
/// step signal's periodicity while the steps go on (see `StepDetector.continueBout`).
public struct TrunkYawSwing: Sendable {
    /// Extremes of the newest swings: time (ns) and yaw rate (rad/s, Q32.32), oldest first
    /// from `head`; time .min where none was kept yet.
    private var times = InlineArray<16, Int64>(repeating: .min)
    private var rates = InlineArray<16, Q32_32>(repeating: .zero)
    private var head = 0
    private static var capacity: Int { 16 }
    private static var mask: Int { 15 }
    private var smoothing = ButterworthLowPass<Q32_32>(piCutoff: StepDetector.smoothingPiCutoff)
    private var started = false
    private var previousTime: Int64 = 0
    /// The yaw rate's 1 s average, rad/s (a turn).
    private var turning = Q32_32.zero
    /// The swing going on: its side (+1, −1, or 0 before the first) and extreme.
    private var side = 0
    private var extremeRate = Q32_32.zero
    private var extremeTime: Int64 = .min

    /// rad/s: a swing ends when the rate crosses this far to the other side (the sensor's noise
    /// after the 3 Hz low-pass is some thousandths of a rad/s; a walk's swing 0.2–1.5 rad/s).
    private static var hysteresis: Q32_32 { Q32_32(numerator: 1, denominator: 20) }
    /// rad/s: the smallest swing that shows a step (a quarter of a slow walk's).
    private static var smallestSwing: Q32_32 { Q32_32(numerator: 3, denominator: 20) }

    /// The last time (ns) the 1 s average yaw rate was over `turningRate`.
    public private(set) var lastTurn: Int64 = .min
    /// rad/s: a walker's turn (a U-turn is π rad in 1.5–2 s; a walk's heading wanders by a few
    /// hundredths of a rad/s).
    private static var turningRate: Q32_32 { Q32_32(numerator: 1, denominator: 2) }

    public init() {}

    /// One gyroscope sample: `rotationRate` (rad/s, device axes) at `time` (ns), with gravity's
    /// direction as the 1 s average acceleration `gravity` (m/s²) of length about
    /// `gravityLength` (m/s², at least 1).
    public mutating func update(rotationRate: FusionVector<Q32_32>, gravity: FusionVector<Q32_32>, gravityLength: Q32_32, timeNanoseconds time: Int64) {
        if !started {
            started = true
            previousTime = time
            smoothing.reset(to: rotationRate, dt: Q32_32(numerator: 1, denominator: 100))
            return
        }
        guard time > previousTime else { return }  // a repeated or out-of-order sample
        // A gap of over a second counts as one (the filters settle within a second anyway).
        let dt = min(Q32_32(nanoseconds: time - previousTime), Q32_32.one)
        previousTime = time
        let smooth = smoothing.update(rotationRate, dt: dt)
        let yaw = smooth.dot(gravity) * gravityLength.reciprocal
        turning = turning + (yaw - turning) * dt  // 1 s time constant
        let rate = yaw - turning
        if magnitude(turning) > Self.turningRate { lastTurn = time }
        let newSide = rate > Self.hysteresis ? 1 : (-rate > Self.hysteresis ? -1 : 0)
        if newSide != 0, newSide != side {
            if side != 0 { keep(extremeTime, extremeRate) }
            side = newSide
            extremeRate = rate
            extremeTime = time
        } else if side != 0, (side > 0 ? rate > extremeRate : rate < extremeRate) {
            extremeRate = rate
            extremeTime = time
        }
    }

    /// The closing step after a walk's last step at `lastStep` (ns), the walk's steps
    /// `interval` (ns) apart, or nil:
    /// 1. the last step's swing: the largest within ¾ of an interval before the step to ¼ after
    ///    (the extreme comes before the heel strike, the credited acceleration peak after it);
    /// 2. the yaw swung with the steps: a swing to the other side ½ to 2 intervals before it;
    /// 3. the closing step's swing: the largest to the other side ½ to 2 intervals after the
    ///    last step's, at least a third of its size (the trunk turns back less as it stops).
    /// The windows are wide: a stopping walker's swings wander by up to an interval from the
    /// rhythm (IPOL: the last swings come 0.25 to 1.2 s apart at 0.55 s steps), and the rhythm
    /// around them (1) and the side and size (3) are what tell a step.
    /// Small swings in between (the trunk settling) are passed over. The closing step is timed
    /// ¾ of an interval after the last step: it brings the trailing foot beside the other, not
    /// past it, and the swing's extreme is too broad to time it (±0.3 s on IPOL).
    public func closingStep(after lastStep: Int64, interval: Int64) -> Int64? {
        let last = largestSwing(from: lastStep - interval * 3 / 4, to: lastStep + interval / 4, side: 0)
        guard last.time != .min, magnitude(last.rate) >= Self.smallestSwing else { return nil }
        let otherSide = last.rate < .zero ? 1 : -1
        let before = largestSwing(from: last.time - interval * 2, to: last.time - interval / 2, side: otherSide)
        let next = largestSwing(from: last.time + interval / 2, to: last.time + interval * 2, side: otherSide)
        guard before.time != .min, next.time != .min,
              magnitude(before.rate) >= Self.smallestSwing, magnitude(next.rate) >= Self.smallestSwing,
              magnitude(next.rate) * Q32_32(integer: 3) >= magnitude(last.rate) else { return nil }
        return lastStep + interval * 3 / 4
    }

    /// The largest swing (the kept ones and the one going on) whose extreme lies in
    /// `from`…`to` (ns), to `side` (+1, −1; 0: either); time .min if none.
    private func largestSwing(from: Int64, to: Int64, side: Int) -> (time: Int64, rate: Q32_32) {
        var best: (time: Int64, rate: Q32_32) = (.min, .zero)
        var index = 0
        while index <= Self.capacity {
            let (time, rate) = index < Self.capacity ? (times[(head + index) & Self.mask], rates[(head + index) & Self.mask]) : (extremeTime, extremeRate)
            index += 1
            guard time != .min, time >= from, time <= to, side == 0 || (side > 0) == (rate > .zero) else { continue }
            if best.time == .min || magnitude(rate) > magnitude(best.rate) { best = (time, rate) }
        }
        return best
    }

    private mutating func keep(_ time: Int64, _ rate: Q32_32) {
        times[head] = time
        rates[head] = rate
        head = (head + 1) & Self.mask
    }

    @inline(__always)
    private func magnitude(_ rate: Q32_32) -> Q32_32 { rate < .zero ? .zero - rate : rate }

}
#endif
