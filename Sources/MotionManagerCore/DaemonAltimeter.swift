import MotionAlgorithms
import MotionDaemonClient
import MotionDaemonProtocol
import MotionEngine
import Locking

/// An altimeter's relative or absolute altitude updates on motiond: the daemon runs the same
/// `AltitudeStage` and pace as an in-process start (its own stage per subscription), and the
/// updates come back in the engine's types.
///
/// A daemon restart restarts the daemon's stage at relative altitude 0. Core Motion's relative
/// altitude counts from the start of updates, so `RelativeAltitudeContinuity` carries it on:
/// the first update after the break continues from the last one before it plus the change of
/// absolute altitude across the break (same reference, so the height walked meanwhile counts).
enum DaemonAltimeter {
    static func subscribe(_ subscription: AltimeterSubscription, kind: AltimeterCore.Kind, reference: AltitudeReference,
                          on daemon: DaemonClient) throws(MotionManagerError) {
        let stream: WireStream = kind == .relative ? .relativeAltitude : .absoluteAltitude
        let continuity = Lock(RelativeAltitudeContinuity())
        do {
            try daemon.subscribeAltitude(stream, seaLevelPressure: reference.seaLevelKilopascals, uncertainty: reference.uncertaintyKilopascals) { delivery in
                switch delivery {
                case .samples(.altitude(_, let updates)):
                    for update in updates {
                        let values = continuity.withLock { $0.continued(DaemonSamples.altitudeValues(update)) }
                        subscription.deliver(.update(values))
                    }
                case .resumed:
                    continuity.withLock { $0.resume() }
                case .ended(let error):
                    subscription.deliver(.failed(DaemonBackend.error(error, doing: "\(stream.name) updates from motiond")))
                case .samples, .dropped, .interrupted, .batch, .droppedBatches:
                    break  // each update carries the whole altitude: a missed one loses nothing
                }
            }
        } catch {
            throw DaemonBackend.error(error, doing: "Starting \(stream.name) updates from motiond")
        }
    }
}

/// Relative altitude continued across restarts of its source (see `DaemonAltimeter`).
struct RelativeAltitudeContinuity {
    /// The last update delivered (relative altitude already continued).
    private var last: AltitudeValues?
    /// m added to the source's relative altitude.
    private var offset = 0.0
    private var resumed = false

    /// The source restarted: its next update starts from 0 again.
    mutating func resume() { resumed = true }

    mutating func continued(_ update: AltitudeValues) -> AltitudeValues {
        var update = update
        if resumed, let last {
            offset = last.relativeAltitude + (update.absoluteAltitude - last.absoluteAltitude) - update.relativeAltitude
        }
        resumed = false
        update.relativeAltitude += offset
        last = update
        return update
    }
}
