public import FixedPoint

/// Pause and resume (CMPedometerEvent) predicted from the step candidates and the step signal,
/// so they arrive within about a second instead of after the step counter's confirmation.
///
/// - Pause: a walking user's next step is overdue — half an interval past its expected time and
///   at least 0.8 s after the last step — and the signal has gone quiet (its peaks, decaying
///   with ⅓ s, under half the step threshold: a stopped body does not bounce). A step missed
///   while the signal still moves (a turn, a weak step) waits for the bout's 2 s limit instead.
///   The pause carries the time of the last step.
/// - Resume: after a pause (or at start), two candidates at a walking interval (0.3…1.2 s) that
///   fits the last bout's cadence — from 0.6 to 2 of its intervals: the first steps from standing
///   are slower than the walk they start (gait initiation) — or three regular ones (each
///   interval within ±40 % of the one before) when there is no last bout to compare with. It
///   carries the time of the first of them.
public struct PauseResumePredictor: Sendable {
    /// What the events last said: moving (resumed) or not (paused, or never walked).
    public private(set) var isMoving = false
    private var lastCandidate: Int64 = .min
    private var candidateBefore: Int64 = .min
    /// Interval of the last bout, ns (nil before any bout).
    private var boutInterval: Int64?
    /// |signal| held at its peaks and decaying with a ⅓ s time constant: the body's recent
    /// movement, m/s², Q32.32. ⅓ s, a little over half a step at a walk's 1.5–2 steps/s: a
    /// step's own peak has died away by the time the next one is overdue, so a stop is called
    /// as soon as the rhythm breaks, while a body still stepping (0.8 s later still bouncing)
    /// is not (at 0.5 s the pause came 0.2 s later on the IPOL walks, with no fewer errors).
    private var recentActivity = Q32_32.zero
    private var lastObserved: Int64 = .min

    private let minimumTimeout: Int64 = 800_000_000
    private let quietTimeout: Int64 = 2_000_000_000
    private let shortestInterval: Int64 = 300_000_000
    private let longestInterval: Int64 = 1_200_000_000

    public init() {}

    /// One sample of the step signal (m/s²) with the candidate threshold in force.
    public mutating func observe(signal: Q32_32, threshold: Q32_32, timeNanoseconds time: Int64, output: (StepDetector.Output) -> Void) {
        let dt = lastObserved == .min ? Q32_32.zero : Q32_32(nanoseconds: min(time - lastObserved, 250_000_000))
        lastObserved = time
        // Decay by dt/τ with τ = ⅓ s: 3 dt, as dt + 2 dt (an exact sum of shifts in Q32.32).
        let decay = recentActivity * dt
        recentActivity = max(signal < .zero ? -signal : signal, recentActivity - decay - decay.timesPowerOfTwo(1))
        guard isMoving, lastCandidate != .min else { return }
        let interval = boutInterval ?? 550_000_000
        let sinceStep = time - lastCandidate
        let overdue = sinceStep > max(minimumTimeout, interval &* 3 / 2)  // (wrapping: see `candidate`)
        let quiet = recentActivity < threshold.timesPowerOfTwo(-1)
        if (overdue && quiet) || sinceStep > quietTimeout {
            isMoving = false
            output(.pause(at: lastCandidate))
        }
    }

    /// A step candidate at `time` (ns).
    public mutating func candidate(at time: Int64, output: (StepDetector.Output) -> Void) {
        let interval = lastCandidate == .min ? Int64.max : time - lastCandidate
        let intervalBefore = candidateBefore == .min ? Int64.max : lastCandidate - candidateBefore
        if isMoving {
            if interval >= shortestInterval, interval <= longestInterval {
                boutInterval = boutInterval.map { $0 + (interval - $0) / 4 } ?? interval
            }
        } else if interval >= shortestInterval, interval <= longestInterval {
            // Wrapping products: both intervals are within `longestInterval`, far below Int64's range
            // times 10, and a checked 64-bit product is a long sequence of code on a Cortex-M0.
            if let bout = boutInterval, interval &* 10 >= bout &* 6, interval <= bout &* 2 {
                // The walk's cadence stays the last bout's: the slower first interval of a
                // start would otherwise stretch the timeout of the next pause.
                resume(at: lastCandidate, interval: min(interval, bout), output: output)
            } else if intervalBefore >= shortestInterval, intervalBefore <= longestInterval,
                      interval &* 10 >= intervalBefore &* 6, interval &* 10 <= intervalBefore &* 14 {
                resume(at: candidateBefore, interval: (interval + intervalBefore) / 2, output: output)
            }
        }
        candidateBefore = lastCandidate
        lastCandidate = time
    }

    private mutating func resume(at first: Int64, interval: Int64, output: (StepDetector.Output) -> Void) {
        isMoving = true
        boutInterval = interval
        output(.resume(at: first))
    }
}
