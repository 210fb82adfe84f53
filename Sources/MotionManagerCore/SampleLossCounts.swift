package import MotionAlgorithms
package import MotionEngine
import Locking

/// Sensor samples a live board lost (a FIFO overflow, a missed data-ready edge, a stalled
/// reader) or read twice (withheld from the streams), per sensor channel, since the process
/// first started the board: what the runtime counts, kept across engine sessions (each brings
/// up a new runtime whose counts start at zero). Written by the engine thread, read by any.
package final class SampleLossCounts: Sendable {
    private let totals = Lock([SampleLoss](repeating: SampleLoss(), count: SensorChannel.allCases.count))

    package init() {}

    package func loss(_ channel: SensorChannel) -> SampleLoss { totals.withLock { $0[Int(channel.rawValue)] } }

    /// Adds what a runtime counted since `forwarded` (its counts already added), updating it.
    /// Takes the lock only when a count moved: nothing is allocated on the engine's path.
    func forward(_ runtime: BoardRuntime, _ forwarded: inout InlineArray<5, SampleLoss>) {
        for raw in 0..<UInt8(forwarded.count) {  // not `allCases`: that builds an array each call
            let channel = SensorChannel(rawValue: raw)!  // 0…4 are the five channels
            let now = runtime.sampleLoss(channel)
            let before = forwarded[Int(channel.rawValue)]
            guard now != before else { continue }
            totals.withLock { totals in
                totals[Int(channel.rawValue)].dropped += now.dropped - before.dropped
                totals[Int(channel.rawValue)].duplicated += now.duplicated - before.duplicated
            }
            forwarded[Int(channel.rawValue)] = now
        }
    }
}

extension ManagerCore {
    /// Samples of `stream`'s sensors the board lost and read twice (device motion: its
    /// accelerometer's and gyroscope's together); none for a board that could not be loaded.
    package func sampleLoss(_ stream: MotionStream) -> SampleLoss {
        guard let board else { return SampleLoss() }
        let channels: [SensorChannel] = stream.channel.map { [$0] } ?? [.accelerometer, .gyroscope]
        return channels.reduce(into: SampleLoss()) { total, channel in
            let loss = board.sampleLoss.loss(channel)
            total.dropped += loss.dropped
            total.duplicated += loss.duplicated
        }
    }
}
