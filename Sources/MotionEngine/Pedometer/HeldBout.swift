/// The steps of a bout that started while a vehicle was called (see `PedometerStage`): held,
/// then credited whole if the bout turns out to be a walk, or dropped with the road's shocks.
/// No allocation: the newest 32 step times (ns) are kept exactly (a walk ends the call within
/// about 10 s, 32 steps at a run's 3 steps/s); a longer bout keeps its first step's time and
/// its count, and the steps between its first and its 32 newest are credited evenly spaced
/// between them on release (the bout's rhythm), so that no step is lost, only its time
/// approximated.
struct HeldBout: Sendable {
    private static let capacity = 32
    private var steps = InlineArray<32, Int64>(repeating: 0)
    /// Steps held since `start`.
    private(set) var count = 0
    /// The time of the bout's first step, ns.
    private var firstStep: Int64 = 0
    /// Whether a bout is being held.
    private(set) var isHolding = false

    /// Starts holding a new bout (any held before is dropped).
    mutating func start() {
        isHolding = true
        count = 0
    }

    /// Holds one step at `time` (ns).
    mutating func append(_ time: Int64) {
        if count == 0 { firstStep = time }
        steps[count % Self.capacity] = time
        count += 1
    }

    /// Drops the bout (the road's shocks).
    mutating func drop() {
        isHolding = false
        count = 0
    }

    /// Ends holding: `credit` gets every held step's time (ns), oldest first. Returns the first
    /// step's time, nil if none was held.
    mutating func release(_ credit: (Int64) -> Void) -> Int64? {
        defer { drop() }
        guard count > 0 else { return nil }
        let newest = count - Self.capacity  // index of the oldest step kept exactly, if > 0
        if newest > 0 {
            // Steps 0..<newest: the first exactly, the others evenly spaced up to the oldest
            // kept one (the count is exact, the times are the bout's average rhythm).
            let oldestKept = steps[newest % Self.capacity]
            let span = oldestKept - firstStep
            for index in 0..<newest {
                credit(firstStep + span / Int64(newest) * Int64(index) + span % Int64(newest) * Int64(index) / Int64(newest))
            }
        }
        for index in max(newest, 0)..<count { credit(steps[index % Self.capacity]) }
        return firstStep
    }
}
