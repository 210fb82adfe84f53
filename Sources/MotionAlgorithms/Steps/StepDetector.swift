public import FixedPoint

/// Steps from the accelerometer alone, wherever the device is carried, in Q32.32 fixed point
/// (no allocation, builds as Embedded Swift). First cut of issue 6, after the structure of the
/// published phone step counters (Brajdic & Harle 2013; Salvi et al. 2018): a smoothed
/// acceleration magnitude, its peaks above an adaptive threshold, and walking confirmed before
/// counting.
///
/// 1. |a| of the accelerometer low-pass filtered at 3 Hz (a second-order Butterworth: walking
///    and running put their step frequency at 1.4–3 Hz), minus its own 1 s average (gravity and
///    the carry position's slow changes): the step signal, m/s².
/// 2. A step candidate is a local maximum of that signal above max(0.5 m/s², 40 % of the recent
///    peak amplitude), at least 0.25 s after the previous candidate (4 steps/s is a sprint).
/// 3. Walking is confirmed by `confirmationSteps` candidates in a row at regular intervals
///    (each within 0.25…2 s and within ±40 % of their mean); then all of them are credited, at
///    the times they happened, and every later candidate within 2 s of the last step is credited
///    at once. More than 2 s without a step ends the bout. Fidgeting, a device put down or a
///    bus's jolts rarely make four regular peaks, so they count nothing.
public struct StepDetector: Sendable {
    public var confirmationSteps = 4

    private var smoothing = ButterworthLowPass<Q32_32>(timeConstant: 2.0.squareRoot() / (2 * .pi * 3))
    private var mean = Q32_32.zero
    private var amplitude = Q32_32(1.0)
    private var previous = (Q32_32.zero, Q32_32.zero)
    private var previousTime: Int64 = 0
    private var lastSampleTime: Int64 = 0
    private let decayRate = Q32_32(0.2)
    private var started = false
    private var lastCandidate: Int64 = .min
    private var lastStep: Int64 = .min
    private var walking = false
    /// Candidates not yet credited, oldest first (at most 8).
    private var pending = InlineArray<8, Int64>(repeating: 0)
    private var pendingCount = 0

    private let minimumThreshold = Q32_32(0.5)
    private let thresholdFraction = Q32_32(0.4)
    private let minimumInterval: Int64 = 250_000_000
    private let maximumInterval: Int64 = 2_000_000_000

    public init() {}

    /// Whether a confirmed bout of steps is going on.
    public var isWalking: Bool { walking }

    /// One accelerometer sample (m/s², device axes) at `time`; `credit` is called with the time
    /// of each step credited by it (a confirmation credits the bout's first steps at once).
    public mutating func update(acceleration: FusionVector<Q32_32>, timeNanoseconds time: Int64, credit: (Int64) -> Void) {
        let dt = started ? Q32_32(nanoseconds: time - previousTime) : Q32_32(0.01)
        previousTime = time
        if !started {
            started = true
            smoothing.reset(to: acceleration, dt: dt)
            mean = acceleration.squaredLength.squareRoot
        }
        let smooth = smoothing.update(acceleration, dt: dt)
        let magnitude = smooth.squaredLength.squareRoot
        mean = mean + (magnitude - mean) * dt  // 1 s time constant
        let signal = magnitude - mean
        // The recent step amplitude decays with a 5 s time constant when nothing renews it.
        amplitude = amplitude - amplitude * dt * decayRate
        if walking, lastStep != .min, time - lastStep > maximumInterval {
            walking = false
            pendingCount = 0
        }
        // The sample before is a peak if the signal rose into it and falls after it.
        let (older, last) = previous
        let peakTime = lastSampleTime
        previous = (last, signal)
        lastSampleTime = time
        guard last > older, last >= signal else { return }
        let threshold = max(minimumThreshold, amplitude * thresholdFraction)
        guard last > threshold else { return }
        guard lastCandidate == .min || peakTime - lastCandidate >= minimumInterval else { return }
        // A step: its height renews the amplitude (a quarter of the way per step).
        amplitude = amplitude + (last - amplitude).timesPowerOfTwo(-2)
        lastCandidate = peakTime
        if walking {
            lastStep = peakTime
            credit(peakTime)
            return
        }
        append(peakTime)
        if isRegularBout() {
            for index in 0..<pendingCount { credit(pending[index]) }
            lastStep = peakTime
            walking = true
            pendingCount = 0
        }
    }

    private mutating func append(_ time: Int64) {
        if pendingCount > 0, time - pending[pendingCount - 1] > maximumInterval { pendingCount = 0 }
        if pendingCount == pending.count {
            for index in 1..<pending.count { pending[index - 1] = pending[index] }
            pendingCount -= 1
        }
        pending[pendingCount] = time
        pendingCount += 1
        // Keep only the newest `confirmationSteps` candidates: older ones are not a bout's start.
        while pendingCount > confirmationSteps {
            for index in 1..<pendingCount { pending[index - 1] = pending[index] }
            pendingCount -= 1
        }
    }

    /// The newest `confirmationSteps` candidates are a walking rhythm: intervals within
    /// 0.25…2 s, each within ±40 % of their mean.
    private func isRegularBout() -> Bool {
        guard pendingCount >= confirmationSteps else { return false }
        let first = pendingCount - confirmationSteps
        let intervals = confirmationSteps - 1
        let span = pending[pendingCount - 1] - pending[first]
        let meanInterval = span / Int64(intervals)
        for index in (first + 1)..<pendingCount {
            let interval = pending[index] - pending[index - 1]
            guard interval >= minimumInterval, interval <= maximumInterval else { return false }
            guard interval * 10 >= meanInterval * 6, interval * 10 <= meanInterval * 14 else { return false }
        }
        return true
    }
}
