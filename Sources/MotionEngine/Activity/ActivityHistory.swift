public import MotionAlgorithms

/// The activity history since the engine started (in memory; a later issue persists it in the
/// daemon), answering `queryActivityStarting(from:to:)`: every transition in a time range,
/// smoothed the way a history should read. Not on the per-sample path: it takes the stage's
/// updates, a few per minute.
///
/// Smoothing (`query`), in this order:
/// 1. **Stops inside a walk merged**: a stretch that is not walking or running, shorter than
///    `stopMergeNanoseconds` (10 s: a street crossing, a door), between two on-foot stretches
///    becomes part of the walk.
/// 2. **Blips removed**: any other stretch shorter than `blipNanoseconds` (5 s) that is followed
///    by another one is absorbed into the one before it (a few steps to the printer are not a
///    walk). The first record (`unknown` at start) and the ongoing last one are kept.
/// 3. Neighbours with the same flags are joined; a joined record keeps the highest confidence.
public struct ActivityHistory: Sendable {
    /// A stretch of one activity, [start, end) in ns.
    public struct Record: Sendable, Equatable {
        public var activity: MotionActivityEstimate
        public var endNanoseconds: Int64
        public var durationNanoseconds: Int64 { endNanoseconds - activity.startNanoseconds }

        /// A record from its parts (motiond's clients rebuild the daemon's history records).
        public init(activity: MotionActivityEstimate, endNanoseconds: Int64) {
            self.activity = activity
            self.endNanoseconds = endNanoseconds
        }
    }

    public var stopMergeNanoseconds: Int64 = 10_000_000_000
    public var blipNanoseconds: Int64 = 5_000_000_000
    /// Transitions in delivery order (a confidence change updates the last one).
    public private(set) var transitions: [MotionActivityEstimate] = []
    /// The latest time the history knows about (the last update or `advance`).
    public private(set) var nowNanoseconds: Int64 = 0

    public init() {}

    /// Records one live update.
    public mutating func record(_ update: MotionActivityUpdate) {
        nowNanoseconds = max(nowNanoseconds, update.deliveredNanoseconds)
        if var last = transitions.last, last.flags == update.activity.flags {
            last.confidence = last.confidence.stronger(update.activity.confidence)
            transitions[transitions.count - 1] = last
            return
        }
        var activity = update.activity
        // Start dates may point back into the previous record (a walk starts at its first step,
        // confirmed later): never before the previous record's start, so records stay ordered.
        if let last = transitions.last { activity.startNanoseconds = max(activity.startNanoseconds, last.startNanoseconds) }
        transitions.append(activity)
    }

    /// Moves "now" forward without a transition (the ongoing record lasts until then).
    public mutating func advance(toNanoseconds time: Int64) { nowNanoseconds = max(nowNanoseconds, time) }

    /// The smoothed records overlapping [from, to) (ns), oldest first; the first may start
    /// before `from`.
    public func query(fromNanoseconds from: Int64, toNanoseconds to: Int64) -> [Record] {
        smoothed().filter { $0.endNanoseconds > from && $0.activity.startNanoseconds < to }
    }

    /// The whole history, smoothed.
    public func smoothed() -> [Record] {
        var records: [Record] = []
        for (index, activity) in transitions.enumerated() {
            let end = index + 1 < transitions.count ? transitions[index + 1].startNanoseconds : max(nowNanoseconds, activity.startNanoseconds)
            // A record the next one starts at (stationary backdated to the very first sample
            // replaces the start's `unknown`) lasted no time: not history.
            guard end > activity.startNanoseconds || index + 1 == transitions.count else { continue }
            records.append(Record(activity: activity, endNanoseconds: end))
        }
        // 1. Short stops inside a walk.
        if records.count >= 3 {
            for index in 1..<(records.count - 1) {
                let before = records[index - 1].activity.flags, after = records[index + 1].activity.flags
                guard records[index].activity.flags.isDisjoint(with: .onFoot),
                      !before.isDisjoint(with: .onFoot), !after.isDisjoint(with: .onFoot),
                      records[index].durationNanoseconds < stopMergeNanoseconds else { continue }
                records[index].activity.flags = before
            }
        }
        records = joined(records)
        // 2. Blips: absorbed into the record before (not the first, not the ongoing last).
        var kept: [Record] = []
        for (index, record) in records.enumerated() {
            let isBlip = index > 0 && index < records.count - 1 && record.durationNanoseconds < blipNanoseconds
            if isBlip, !kept.isEmpty {
                kept[kept.count - 1].endNanoseconds = record.endNanoseconds
            } else {
                kept.append(record)
            }
        }
        return joined(kept)
    }

    private func joined(_ records: [Record]) -> [Record] {
        var out: [Record] = []
        for record in records {
            if let last = out.last, last.activity.flags == record.activity.flags {
                out[out.count - 1].endNanoseconds = record.endNanoseconds
                out[out.count - 1].activity.confidence = last.activity.confidence.stronger(record.activity.confidence)
            } else {
                out.append(record)
            }
        }
        return out
    }
}
