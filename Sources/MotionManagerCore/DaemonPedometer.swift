import MotionDaemonClient
import MotionDaemonProtocol

/// A pedometer's updates and events on motiond. Its updates are cumulative from the
/// subscription's `from` as Core Motion's are: the daemon adds what its history stored before
/// it started (its `PedometerBaseline`), which also keeps a count going up across a daemon
/// restart (the client re-subscribes with the same `from`). Only steps taken while no daemon
/// ran are missing; the break itself shows in `DaemonClient.reconnections`.
enum DaemonPedometer {
    static func subscribe(_ subscription: PedometerSubscription, to stream: WireStream, on daemon: DaemonClient) throws(MotionManagerError) {
        var from = 0.0
        if case .updates(let start) = subscription.kind { from = DaemonSamples.wallSeconds(start) }
        do {
            try daemon.subscribe(stream, from: from) { delivery in
                switch delivery {
                case .samples(.pedometer(let updates)):
                    for update in updates { subscription.deliver(.update(DaemonSamples.pedometerValues(update))) }
                case .samples(.pedometerEvents(let events)):
                    for event in events { subscription.deliver(.event(DaemonSamples.pedometerEvent(event))) }
                case .ended(let error):
                    subscription.deliver(.failed(DaemonBackend.error(error, doing: "Pedometer \(stream.name) from motiond")))
                case .samples, .dropped, .interrupted, .resumed, .batch, .droppedBatches:
                    break  // cumulative updates: the next one carries the totals
                }
            }
        } catch {
            throw DaemonBackend.error(error, doing: "Starting pedometer \(stream.name) from motiond")
        }
    }
}
