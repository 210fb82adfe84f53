/// When Core Motion delivers live pedometer updates: one at once when updates start, then about
/// every 2.5 s while steps are being taken, and none while the user is still (an update is due
/// only if a step was credited since the previous one).
public struct PedometerUpdateSchedule: Sendable {
    /// ns between updates while walking.
    public var intervalNanoseconds: Int64 = 2_500_000_000
    private var lastUpdate: Int64?
    private var stepsAtLastUpdate = 0

    public init() {}

    /// Whether an update is due at `time` (ns) with `steps` credited so far; marks it sent.
    public mutating func isDue(at time: Int64, steps: Int) -> Bool {
        guard let last = lastUpdate else {
            lastUpdate = time
            stepsAtLastUpdate = steps
            return true
        }
        guard time - last >= intervalNanoseconds, steps != stepsAtLastUpdate else { return false }
        lastUpdate = time
        stepsAtLastUpdate = steps
        return true
    }
}
