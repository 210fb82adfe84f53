/// The clock and the positions of a 128-tick ring that holds a signal resampled at 25 Hz, as
/// `GaitPeriodicity` (|a|) and `RotationRhythm` (the rotation rate) keep theirs: a value every
/// 40 ms by the samples' own clock, so any sensor rate (25–200 Hz, or jittery) gives the same
/// series and the same lags. The ring itself, and what a tick holds, are the owner's.
struct ResamplingClock: Sendable {
    /// ns between resampled values.
    static let tick: Int64 = 40_000_000
    /// Ticks a ring holds: 5.12 s.
    static let capacity = 128

    /// Ticks held since the series (re)started, at most `capacity`.
    private(set) var count = 0
    private var head = 0             // the ring index the next tick's value goes to
    private var nextTick: Int64 = .min

    /// How many ticks have ended by `time` (ns) since the last sample: write that sample's value
    /// that many times (`push`). Several ticks pass at a low rate or over a short gap, and the
    /// value is repeated; a gap of over a second restarts the series (`count` 0) instead.
    mutating func ticks(until time: Int64) -> Int {
        if nextTick == .min { nextTick = time }
        guard time >= nextTick else { return 0 }
        if time - nextTick > 1_000_000_000 { count = 0; nextTick = time }
        // A loop, not a 64-bit division: the Cortex-M0 has no divider, and at most 26 ticks pass.
        var passed = 0
        while nextTick <= time { passed += 1; nextTick += Self.tick }
        return passed
    }

    /// The ring index of the next tick's value, counting it held.
    mutating func push() -> Int {
        let index = head
        head = (head + 1) & (Self.capacity - 1)
        count = min(count + 1, Self.capacity)
        return index
    }

    /// The ring index of the value `back` ticks before the newest (0: the newest).
    func index(back: Int) -> Int { (head - 1 - back) & (Self.capacity - 1) }
}
