import MotionAlgorithms
import MotionEngine
import Testing

/// The activity history's smoothing (short stops merged into walks, blips removed) and queries.
@Suite struct ActivityHistoryTests {
    static let second: Int64 = 1_000_000_000

    /// A history from (start s, flags) transitions, "now" at `end` s.
    static func history(_ transitions: [(Double, MotionActivityFlags)], end: Double) -> ActivityHistory {
        var history = ActivityHistory()
        for (start, flags) in transitions {
            let ns = Int64(start * 1e9)
            history.record(MotionActivityUpdate(activity: MotionActivityEstimate(flags: flags, confidence: .medium, startNanoseconds: ns),
                                                deliveredNanoseconds: ns + 2 * second))
        }
        history.advance(toNanoseconds: Int64(end * 1e9))
        return history
    }

    static func summary(_ records: [ActivityHistory.Record]) -> [(Double, MotionActivityFlags)] {
        records.map { (Double($0.activity.startNanoseconds) / 1e9, $0.activity.flags) }
    }

    @Test func aShortStopInsideAWalkIsMergedIntoIt() {
        let history = Self.history([(0, .unknown), (2, .stationary), (60, .walking), (120, .stationary), (126, .walking),
                                    (200, .stationary)], end: 300)
        let records = history.smoothed()
        #expect(Self.summary(records).map(\.1) == [.unknown, .stationary, .walking, .stationary], "\(Self.summary(records))")
        #expect(records[2].activity.startNanoseconds == 60 * Self.second && records[2].endNanoseconds == 200 * Self.second)
    }

    @Test func aRecordThatLastedNoTimeIsNotHistory() {
        // A still board: `unknown` at start, then stationary backdated to that same first sample.
        let history = Self.history([(0, .unknown), (0, .stationary)], end: 30)
        #expect(Self.summary(history.smoothed()).map(\.1) == [.stationary], "\(Self.summary(history.smoothed()))")
    }

    @Test func aLongStopSplitsTheWalk() {
        let history = Self.history([(0, .stationary), (60, .walking), (120, .stationary), (140, .walking), (200, .stationary)], end: 300)
        #expect(Self.summary(history.smoothed()).map(\.1) == [.stationary, .walking, .stationary, .walking, .stationary])
    }

    @Test func blipsAreAbsorbedButTheOngoingRecordIsKept() {
        // 3 s of "walking" in a long sit (four steps to a printer) and a 2 s no-call.
        let history = Self.history([(0, .stationary), (100, .walking), (103, .stationary), (150, []), (152, .stationary),
                                    (298, .walking)], end: 300)
        let records = history.smoothed()
        #expect(Self.summary(records).map(\.1) == [.stationary, .walking], "\(Self.summary(records))")
        #expect(records[0].endNanoseconds == 298 * Self.second)
    }

    @Test func aQueryReturnsTheRecordsOverlappingItsRangeTheFirstStartingEarlier() {
        let history = Self.history([(0, .stationary), (60, .walking), (200, .stationary)], end: 300)
        let records = history.query(fromNanoseconds: 100 * Self.second, toNanoseconds: 250 * Self.second)
        #expect(Self.summary(records).map(\.0) == [60, 200])
        #expect(history.query(fromNanoseconds: 10 * Self.second, toNanoseconds: 20 * Self.second).count == 1)
    }

    @Test func confidenceOnlyChangesDoNotMakeNewRecords() {
        var history = ActivityHistory()
        for (confidence, t) in [(MotionActivityConfidence.low, 0), (.medium, 5), (.high, 10)] {
            history.record(MotionActivityUpdate(activity: MotionActivityEstimate(flags: .walking, confidence: confidence, startNanoseconds: 0),
                                                deliveredNanoseconds: Int64(t) * Self.second))
        }
        #expect(history.transitions.count == 1)
        #expect(history.transitions.first?.confidence == .high)
    }
}
