public import MotionAlgorithms

/// Fans one board's readings out to subscribers, each with the sensors it wants and its own
/// update interval (Core Motion's `accelerometerUpdateInterval` and friends). Storage is built
/// when subscribing; publishing walks it and allocates nothing.
///
/// An interval thins a stream by time, not by count: a reading is delivered when the interval
/// has passed since the subscriber's previous one of that sensor was due (less an eighth of it,
/// at most 5 ms, so a source with timing jitter is not thinned to every other interval), so a
/// 100 Hz stream at 0.05 s gives 20 readings per second whatever the source's jitter.
public final class SensorSubscribers {
    /// What `subscribe` returns; `unsubscribe` takes it back.
    public struct Token: Hashable, Sendable {
        let id: Int
    }

    private struct Subscriber {
        let id: Int
        /// Bit `channel.rawValue` set for each wanted sensor.
        let channels: UInt8
        let intervalNanoseconds: Int64
        /// Per sensor channel (by raw value): the time the next reading is due.
        var nextDueNanoseconds: InlineArray<5, Int64>
        let handler: (SensorReading) -> Void
    }

    private var subscribers: [Subscriber] = []
    private var nextID = 0

    public init() {}

    /// Delivers every reading of `channels` to `handler`, at most one per sensor per
    /// `intervalNanoseconds` (0: every reading).
    public func subscribe(_ channels: Set<SensorChannel>, intervalNanoseconds: Int64 = 0,
                          handler: @escaping (SensorReading) -> Void) -> Token {
        nextID += 1
        let mask = channels.reduce(UInt8(0)) { $0 | 1 << $1.rawValue }
        subscribers.append(Subscriber(id: nextID, channels: mask, intervalNanoseconds: max(0, intervalNanoseconds),
                                      nextDueNanoseconds: InlineArray(repeating: .min), handler: handler))
        return Token(id: nextID)
    }

    public func unsubscribe(_ token: Token) {
        subscribers.removeAll { $0.id == token.id }
    }

    public var count: Int { subscribers.count }

    /// Gives `reading` to every subscriber that wants it now.
    public func publish(_ reading: SensorReading) {
        let channel = reading.value.channel.rawValue
        let time = reading.timestampNanoseconds
        for index in subscribers.indices where subscribers[index].channels & (1 << channel) != 0 {
            let interval = subscribers[index].intervalNanoseconds
            if interval > 0 {
                let due = subscribers[index].nextDueNanoseconds[Int(channel)]
                guard due == .min || time >= due - min(interval / 8, 5_000_000) else { continue }
                // The next one an interval after this one's due time (keeps the average rate),
                // or after this one if it came more than an interval late.
                let next = due == .min || time - due >= interval ? time + interval : due + interval
                subscribers[index].nextDueNanoseconds[Int(channel)] = next
            }
            subscribers[index].handler(reading)
        }
    }
}
