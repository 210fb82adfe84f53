public import MotionEngine

/// Core Motion's history queries, answered from what was committed. Times are ns; ranges are
/// [from, to): a record at `to` belongs to the next range, so ranges that tile a day add up to it.
extension HistoryStore {
    /// What the pedometer counted in [from, to) (`queryPedometerData(from:to:)`), as
    /// `PedometerHistory.data(from:to:)` answers it; sums are exact (µm, ns), so 24 hourly
    /// queries add up to the daily one.
    public func pedometerData(from: Int64, to: Int64) throws(HistoryError) -> PedometerRangeTotals {
        guard to > from else { return PedometerRangeTotals() }
        var sums = PedometerSums()
        var damaged = false
        try pedometerLog.forEachBlock(from: from, to: to) { block in
            guard let records = PedometerCodec.decode(block) else { damaged = true; return }
            for record in records where record.time >= from && record.time < to { sums.add(record) }
        }
        if damaged { reportUndecodable("pedometer") }
        return sums.totals
    }

    /// The smoothed activity records overlapping [from, to) (`queryActivityStarting(from:to:)`),
    /// exactly as `ActivityHistory.query` gives them: the stored updates (7 days at most, a few a
    /// minute) are replayed through it. The ongoing record ends at `now` (default: the newest
    /// committed time of any kind).
    public func activity(from: Int64, to: Int64, now: Int64? = nil) throws(HistoryError) -> [ActivityHistory.Record] {
        var history = ActivityHistory()
        var damaged = false
        try activityLog.forEachBlock(from: .min, to: .max) { block in
            guard let updates = ActivityCodec.decode(block) else { damaged = true; return }
            for update in updates { history.record(update) }
        }
        if damaged { reportUndecodable("activity") }
        if let now = now ?? newestCommittedNanoseconds { history.advance(toNanoseconds: now) }
        return history.query(fromNanoseconds: from, toNanoseconds: to)
    }

    /// The recorded accelerometer samples in [from, to), oldest first, each with its continuity
    /// run, one at a time (3 days are 13 million samples: stream them rather than hold them).
    public func forEachAccelerometerSample(from: Int64, to: Int64, _ body: (RecordedAccelerometerSample) -> Void) throws(HistoryError) {
        let period = configuration.accelerometerPeriodNanoseconds
        var damaged = false
        try accelerometerLog.forEachBlock(from: from, to: to) { block in
            guard let samples = AccelerometerCodec.decode(block, periodNanoseconds: period) else { damaged = true; return }
            for sample in samples where sample.sample.timeNanoseconds >= from && sample.sample.timeNanoseconds < to { body(sample) }
        }
        if damaged { reportUndecodable("accelerometer") }
    }

    /// `forEachAccelerometerSample` collected (`accelerometerData(from:to:)`).
    public func accelerometerSamples(from: Int64, to: Int64) throws(HistoryError) -> [RecordedAccelerometerSample] {
        var samples: [RecordedAccelerometerSample] = []
        try forEachAccelerometerSample(from: from, to: to) { samples.append($0) }
        return samples
    }

    /// A block whose CRC matched but whose records do not decode: only a bug could write one.
    private func reportUndecodable(_ kind: String) {
        configuration.report("\(directory)/\(kind): a block passed its CRC but its records do not decode; it was skipped. This is a bug: please report it with that folder.")
    }
}
