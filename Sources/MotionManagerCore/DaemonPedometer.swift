import MotionDaemonClient
import MotionDaemonProtocol

/// A pedometer's updates and events on motiond. Updates are cumulative from the
/// subscription's start on the daemon's side too (its history answers the part before now),
/// so after a daemon restart the re-subscribed stream continues the same count: only the steps
/// taken while no daemon ran are missing, and the break shows in `DaemonClient.reconnections`.
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
                case .samples, .dropped, .interrupted, .resumed:
                    break  // cumulative updates: the next one carries the totals
                }
            }
        } catch {
            throw DaemonBackend.error(error, doing: "Starting pedometer \(stream.name) from motiond")
        }
    }
}
