package import MotionAlgorithms
import Synchronization

/// A stage that needs every raw reading of some sensors at their full rate (the pedometer: the
/// accelerometer and the barometer), as the engine thread reads them: what a stream
/// subscription is for an app, without an interval and without samples for a handler.
///
/// `sink` runs on the engine thread for each reading, so it must be quick and allocate
/// nothing; `cancel()`, from any thread, stops deliveries at once (as `EngineSubscription`).
package final class ReadingTap: Sendable {
    package let id: Int
    package let channels: Set<SensorChannel>
    private let sink: @Sendable (TapEvent) -> Void
    private let live = Atomic<Bool>(true)

    private static let nextID = Atomic<Int>(0)

    package init(channels: Set<SensorChannel>, sink: @escaping @Sendable (TapEvent) -> Void) {
        id = Self.nextID.wrappingAdd(1, ordering: .relaxed).newValue
        self.channels = channels
        self.sink = sink
    }

    package var isLive: Bool { live.load(ordering: .acquiring) }

    func cancel() { live.store(false, ordering: .releasing) }

    /// Gives `event` to the sink unless the tap was cancelled.
    func deliver(_ event: TapEvent) {
        guard isLive else { return }
        sink(event)
    }
}

/// What the engine gives a tap: a reading (timestamp on CLOCK_MONOTONIC, ns), or the failure
/// that stopped the board (after which the tap gets nothing more).
package enum TapEvent: Sendable {
    case reading(SensorReading)
    case failed(MotionManagerError)
}
