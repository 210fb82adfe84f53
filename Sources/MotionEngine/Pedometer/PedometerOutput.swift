/// What the pedometer stage reports as readings go by, each at the time it happened (recording
/// clock, ns): the history and every delivery (live updates, replay files, the APIs) are built
/// from this one stream.
public enum PedometerOutput: Sendable, Equatable {
    /// One step credited; `lengthMeters` is its length from the stride model (m).
    case step(timeNanoseconds: Int64, lengthMeters: Double)
    /// One floor (about 3 m of height) climbed (`ascended`) or descended while stepping.
    case floor(timeNanoseconds: Int64, ascended: Bool)
    /// The user stopped or started walking (CMPedometerEvent).
    case event(PedometerEvent)
}

/// CMPedometerEvent: a pause or a resume of walking.
public struct PedometerEvent: Sendable, Equatable {
    public enum Kind: String, Sendable { case pause, resume }
    public var kind: Kind
    /// When the user actually stopped (the last step) or started (the first step), ns.
    public var timeNanoseconds: Int64
    /// When the detector delivered it (the reading that decided it), ns.
    public var deliveredNanoseconds: Int64

    public init(kind: Kind, timeNanoseconds: Int64, deliveredNanoseconds: Int64) {
        self.kind = kind
        self.timeNanoseconds = timeNanoseconds
        self.deliveredNanoseconds = deliveredNanoseconds
    }
}
