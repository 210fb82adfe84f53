/// The device's sequence numbers, one per channel (SHTP 1000-3535, "SHTP header": each side numbers the
/// transfers it sends on a channel, modulo 256). A number that skips ahead means packets were
/// lost (the hub's buffer overflowed while the host did not read, or a transfer was corrupted):
/// the skipped count is added to `lost`. A number that repeats is counted in `repeated`.
///
/// Continuations: whether a continued packet's later transfers take new numbers is not relied
/// on: `resynchronize` takes a continuation's number as the channel's latest without judging it,
/// so the next packet is judged against whichever the device used.
public struct SHTPSequenceTracker: Sendable {
    private var latest = [Int](repeating: -1, count: SHTPChannel.count)
    /// Packets missing from the sequence, over all channels.
    public private(set) var lost = 0
    /// Packets whose number repeated the previous one.
    public private(set) var repeated = 0

    public init() {}

    /// Judges the first transfer of a packet; returns how many packets were lost just before it.
    @discardableResult
    public mutating func observe(channel: UInt8, sequence: UInt8) -> Int {
        guard Int(channel) < SHTPChannel.count else { return 0 }
        defer { latest[Int(channel)] = Int(sequence) }
        let previous = latest[Int(channel)]
        guard previous >= 0 else { return 0 }
        let step = (Int(sequence) - previous + 256) % 256
        if step == 0 {
            repeated += 1
            return 0
        }
        lost += step - 1
        return step - 1
    }

    /// Takes `sequence` as the channel's latest without judging it (a continuation transfer).
    public mutating func resynchronize(channel: UInt8, sequence: UInt8) {
        guard Int(channel) < SHTPChannel.count else { return }
        latest[Int(channel)] = Int(sequence)
    }

    /// After the device reset: its numbers start again, so nothing before is compared.
    public mutating func deviceReset() {
        for index in latest.indices { latest[index] = -1 }
    }
}
