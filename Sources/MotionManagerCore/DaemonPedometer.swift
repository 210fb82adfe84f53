import Glibc
import MotionDaemonClient
import MotionDaemonProtocol
import Synchronization

/// A pedometer's updates and events on motiond.
///
/// motiond's live counter starts at the later of the subscription's `from` and the daemon's
/// own start (PROTOCOL.md, "What version 1 does not do"), while Core Motion's updates are
/// cumulative from `from`. So on each connection the daemon's history of [from, its start) is
/// asked once and added to every update (`HistoryBase`). This is also what keeps a count going
/// up across a daemon restart: the re-subscribed stream counts from the new daemon's start,
/// and the history adds what the old one stored. Only steps taken while no daemon ran are
/// missing; the break itself shows in `DaemonClient.reconnections`.
enum DaemonPedometer {
    static func subscribe(_ subscription: PedometerSubscription, to stream: WireStream, on daemon: DaemonClient) throws(MotionManagerError) {
        var from = 0.0
        if case .updates(let start) = subscription.kind { from = DaemonSamples.wallSeconds(start) }
        let totals = HistoryBase(daemon: daemon, from: from)
        do {
            try daemon.subscribe(stream, from: from) { delivery in
                switch delivery {
                case .samples(.pedometer(let updates)):
                    for update in updates {
                        totals.complete(update) { subscription.deliver(.update(DaemonSamples.pedometerValues($0))) }
                    }
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

/// The history between a pedometer stream's `from` and the daemon's start, added to each live
/// update: asked once per connection (the daemon's start is now − its status' uptime). The
/// queries cannot run on the client's reader thread (their answers arrive there), so they run
/// on a short-lived thread; an update that needs the base waits in `waiting` (only the latest:
/// updates are cumulative).
final class HistoryBase: Sendable {
    private let daemon: DaemonClient
    /// Wall-clock seconds where Core Motion's count starts.
    private let from: Double

    private struct State {
        /// The connection (`reconnections.count`) the base was asked for, and the answer (nil while asked).
        var connection: Int?
        var base: PedometerSample?
        var waiting: (update: PedometerSample, deliver: @Sendable (PedometerSample) -> Void)?
    }

    private let state = Mutex(State())

    init(daemon: DaemonClient, from: Double) {
        self.daemon = daemon
        self.from = from
    }

    /// Delivers `update` counted from `from`: with the base added once it is known for the
    /// current connection.
    func complete(_ update: PedometerSample, deliver: @escaping @Sendable (PedometerSample) -> Void) {
        let connection = daemon.reconnections.count
        let (base, ask) = state.withLock { state -> (PedometerSample?, Bool) in
            if state.connection == connection {
                if let base = state.base { return (base, false) }
                state.waiting = (update, deliver)
                return (nil, false)
            }
            (state.connection, state.base, state.waiting) = (connection, nil, (update, deliver))
            return (nil, true)
        }
        if let base { return deliver(Self.add(base, to: update)) }
        if ask { askInBackground(connection: connection) }
    }

    private func askInBackground(connection: Int) {
        let context = Unmanaged.passRetained(Request(base: self, connection: connection)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { context in
            let request = Unmanaged<Request>.fromOpaque(context!).takeRetainedValue()
            request.base.answer(connection: request.connection, base: request.base.historyBeforeDaemonStart())
            return nil
        }, context)
        guard created == 0 else {  // out of threads: deliver without the base rather than never
            Unmanaged<Request>.fromOpaque(context).release()
            answer(connection: connection, base: nil)
            return
        }
        pthread_detach(thread)
    }

    /// The stored counts of [from, the daemon's start), nil when there is nothing before it
    /// or the daemon cannot say (restarting again, history restricted): the updates are then
    /// delivered as the daemon counts them.
    private func historyBeforeDaemonStart() -> PedometerSample? {
        guard let uptime = try? daemon.status().uptime else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let daemonStart = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 - uptime
        guard daemonStart > from else { return nil }
        return try? daemon.pedometer(from: from, to: daemonStart)
    }

    private func answer(connection: Int, base: PedometerSample?) {
        let base = base ?? PedometerSample(start: from, end: from, steps: 0, distance: 0)
        let waiting = state.withLock { state -> (update: PedometerSample, deliver: @Sendable (PedometerSample) -> Void)? in
            guard state.connection == connection else { return nil }  // a newer connection took over
            state.base = base
            defer { state.waiting = nil }
            return state.waiting
        }
        if let waiting { waiting.deliver(Self.add(base, to: waiting.update)) }
    }

    /// `update` with `base`'s counts added.
    static func add(_ base: PedometerSample, to update: PedometerSample) -> PedometerSample {
        var total = update
        total.steps += base.steps
        total.distance += base.distance
        if let ascended = base.floorsAscended { total.floorsAscended = (total.floorsAscended ?? 0) + ascended }
        if let descended = base.floorsDescended { total.floorsDescended = (total.floorsDescended ?? 0) + descended }
        return total
    }

    private final class Request: Sendable {
        let base: HistoryBase
        let connection: Int
        init(base: HistoryBase, connection: Int) { (self.base, self.connection) = (base, connection) }
    }
}
