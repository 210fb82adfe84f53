/// What the pedometer counted since the engine started, in memory, for
/// `CMPedometer.queryPedometerData(from:to:)` and for live updates that start in the past: one
/// record per step and per floor, each with the running sums up to it, so that any range is
/// answered by two binary searches (O(log n)), and ranges that tile a day add up to the day
/// (a record belongs to exactly one of `[a, b)`, `[b, c)`).
///
/// Built from the stage's `PedometerOutput`s by `append`, one call per step or floor (not per
/// sample). Times are the engine's clock, ns (CLOCK_MONOTONIC live, the recording's in replay).
///
/// Bounded: at most `capacity` steps (default 500,000: a week of 70,000 steps a day; 32 bytes
/// each, 16 MB at most) and as many floors. When full, the oldest tenth is dropped at once (one
/// shift per 50,000 steps, not per step); ranges before the oldest record kept then count
/// nothing. A later issue keeps seven days on disk in the daemon.
public struct PedometerHistory: Sendable {
    /// The default `capacity`, steps.
    public static let defaultCapacity = 500_000

    /// A step, and the sums over every step up to and including it.
    private struct StepRecord: Sendable, TimedRecord {
        var time: Int64
        /// m.
        var distance: Double
        /// Time between steps less than 2 s apart (PedometerTotals' active time), ns.
        var activeNanoseconds: Int64
        /// Distance of the steps that ended those intervals, m.
        var activeDistance: Double
    }

    /// A floor, and the counts of every floor up to and including it.
    private struct FloorRecord: Sendable, TimedRecord {
        var time: Int64
        var ascended: Int
        var descended: Int
    }

    public let capacity: Int
    private var steps: [StepRecord] = []
    private var floors: [FloorRecord] = []
    /// The sums of the records dropped for the cap (the "record before the first").
    private var droppedSteps = StepRecord(time: .min, distance: 0, activeNanoseconds: 0, activeDistance: 0)
    private var droppedFloors = FloorRecord(time: .min, ascended: 0, descended: 0)
    /// The latest step's time, ns (kept when it is dropped, for the next step's active time).
    private var lastStep: Int64?
    /// Steps since the engine started, dropped ones included.
    public private(set) var totalSteps = 0

    /// A step is active time when it comes less than this after the previous one, ns (as
    /// `PedometerTotals` books it: longer gaps are pauses).
    private static let activeGapNanoseconds: Int64 = 2_000_000_000

    public init(capacity: Int = PedometerHistory.defaultCapacity) {
        self.capacity = max(10, capacity)
    }

    /// Books one output of the stage (events are not part of the history). The stage reports
    /// steps and floors in time order; one that came earlier than the latest of its kind is
    /// booked at the latest's time, so sums never go back.
    public mutating func append(_ output: PedometerOutput) {
        switch output {
        case .step(let time, let length): appendStep(at: time, lengthMeters: length)
        case .floor(let time, let ascended): appendFloor(at: time, ascended: ascended)
        case .event: break
        }
    }

    private mutating func appendStep(at requested: Int64, lengthMeters: Double) {
        var record = steps.last ?? droppedSteps
        let time = max(requested, record.time)
        if let previous = lastStep, time > previous, time - previous < Self.activeGapNanoseconds {
            record.activeNanoseconds += time - previous
            record.activeDistance += lengthMeters
        }
        record.time = time
        record.distance += lengthMeters
        lastStep = time
        totalSteps += 1
        if steps.count >= capacity {
            let dropped = capacity / 10
            droppedSteps = steps[dropped - 1]
            steps.removeFirst(dropped)
        }
        steps.append(record)
    }

    private mutating func appendFloor(at requested: Int64, ascended: Bool) {
        var record = floors.last ?? droppedFloors
        record.time = max(requested, record.time)
        if ascended { record.ascended += 1 } else { record.descended += 1 }
        if floors.count >= capacity {
            let dropped = capacity / 10
            droppedFloors = floors[dropped - 1]
            floors.removeFirst(dropped)
        }
        floors.append(record)
    }

    /// What was counted from `start` (included) to `end` (excluded), ns; empty when `end` is not
    /// after `start`.
    public func data(from start: Int64, to end: Int64) -> PedometerRangeTotals {
        guard end > start else { return PedometerRangeTotals() }
        let (stepsBefore, stepsThrough) = (firstIndex(of: steps, atOrAfter: start), firstIndex(of: steps, atOrAfter: end))
        let (floorsBefore, floorsThrough) = (firstIndex(of: floors, atOrAfter: start), firstIndex(of: floors, atOrAfter: end))
        let (a, b) = (stepSums(before: stepsBefore), stepSums(before: stepsThrough))
        let (c, d) = (floorSums(before: floorsBefore), floorSums(before: floorsThrough))
        return PedometerRangeTotals(numberOfSteps: stepsThrough - stepsBefore, distanceMeters: b.distance - a.distance,
                                    floorsAscended: d.ascended - c.ascended, floorsDescended: d.descended - c.descended,
                                    activeNanoseconds: b.activeNanoseconds - a.activeNanoseconds,
                                    activeDistanceMeters: b.activeDistance - a.activeDistance)
    }

    private func stepSums(before index: Int) -> StepRecord { index == 0 ? droppedSteps : steps[index - 1] }
    private func floorSums(before index: Int) -> FloorRecord { index == 0 ? droppedFloors : floors[index - 1] }

    /// The index of the first record at or after `time` (the count if none): binary search.
    private func firstIndex<Record>(of records: [Record], atOrAfter time: Int64) -> Int where Record: TimedRecord {
        var (low, high) = (0, records.count)
        while low < high {
            let middle = (low + high) / 2
            if records[middle].time < time { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// A history record: something that happened at `time` (ns).
private protocol TimedRecord { var time: Int64 { get } }

/// What the pedometer counted over a range of time (CMPedometerData without the live figures).
public struct PedometerRangeTotals: Sendable, Equatable {
    public var numberOfSteps = 0
    /// m.
    public var distanceMeters = 0.0
    public var floorsAscended = 0
    public var floorsDescended = 0
    /// Time spent stepping (intervals between steps less than 2 s apart), ns.
    public var activeNanoseconds: Int64 = 0
    /// Distance covered during that time, m.
    public var activeDistanceMeters = 0.0

    public init(numberOfSteps: Int = 0, distanceMeters: Double = 0, floorsAscended: Int = 0, floorsDescended: Int = 0,
                activeNanoseconds: Int64 = 0, activeDistanceMeters: Double = 0) {
        self.numberOfSteps = numberOfSteps
        self.distanceMeters = distanceMeters
        self.floorsAscended = floorsAscended
        self.floorsDescended = floorsDescended
        self.activeNanoseconds = activeNanoseconds
        self.activeDistanceMeters = activeDistanceMeters
    }

    /// Seconds per metre while stepping (CMPedometerData.averageActivePace), nil without any.
    public var averageActivePace: Double? {
        activeDistanceMeters > 0 ? Double(activeNanoseconds) / 1e9 / activeDistanceMeters : nil
    }
}
