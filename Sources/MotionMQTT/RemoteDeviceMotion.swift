import Glibc
import Locking

/// Device motion of a board that publishes to the broker, with `CMHeadphoneMotionManager`'s
/// semantics: the board connects and disconnects (its retained status, "online" or the
/// "offline" of its will), and attitude is relative to the pose of the first sample after
/// `start` (the headphones' reference is the head's pose when updates began). The Swift API's
/// `CMHeadphoneMotionManager` and `motionctl stream --remote` are built on it.
///
/// Also measures end-to-end latency: the receive time (CLOCK_REALTIME) minus the sample's
/// timestamp (the board's sample time on the same clock), which on one host or NTP-synchronised
/// hosts is the time from the sensor reading to delivery here.
package final class RemoteDeviceMotion: Sendable {
    package enum Event: Sendable {
        /// The board is online (its status, retained or live).
        case connected
        /// The board went away after having been online: its will or clean stop said "offline".
        case disconnected(reason: String)
        case sample(RemoteDeviceMotionSample)
    }

    private let subscriber: MotionSubscriber
    private let broker: BrokerSettings
    package let boardID: String
    /// Shared with the subscriber's callback, which exists before `self` does.
    private let shared = Shared()

    private final class Shared: Sendable {
        let state = Lock(State())
    }

    private struct State {
        var online = false
        /// The attitude of the first sample: later ones are relative to it.
        var reference: (w: Float, x: Float, y: Float, z: Float)?
        var latest: RemoteDeviceMotionSample?
        /// Latencies of the samples received, ns (the most recent 100 000).
        var latencies: [Int64] = []
    }

    /// Follows `board` under the configuration's prefix; `handle` runs on libmosquitto's thread.
    package init(configuration: MQTTConfiguration, board: String, log: @escaping @Sendable (String) -> Void,
                 handle: @escaping @Sendable (Event) -> Void) throws(MQTTClientError) {
        boardID = board
        broker = configuration.broker
        let shared = self.shared
        subscriber = try MotionSubscriber(configuration: configuration, board: board, clientID: "ocm-remote-\(board)-\(getpid())",
                                          durable: false, log: log) { received in
            switch received {
            case .status(_, let text, _):
                let online = text == "online"
                let was = shared.state.withLock { state in
                    defer { state.online = online }
                    return state.online
                }
                if online && !was { handle(.connected) }
                if !online && was { handle(.disconnected(reason: "the remote board \(board) went offline (\(text))")) }
            case .motion(_, let message):
                guard case .deviceMotion(let fields) = message.fields else { return }
                let received = MQTTClock.realtimeNanoseconds()
                let sample = shared.state.withLock { state -> RemoteDeviceMotionSample in
                    let reference = state.reference ?? (fields.w, fields.x, fields.y, fields.z)
                    state.reference = reference
                    let sample = RemoteDeviceMotionSample(message: message, fields: fields, reference: reference, receivedUnixNanoseconds: received)
                    state.latest = sample
                    if state.latencies.count >= 100_000 { state.latencies.removeFirst(50_000) }
                    state.latencies.append(sample.latencyNanoseconds)
                    return sample
                }
                handle(.sample(sample))
            case .json, .description, .unreadable:
                return
            }
        }
    }

    /// Connects in the background; the next sample becomes the attitude reference.
    package func start() throws(MQTTClientError) {
        shared.state.withLock { $0.reference = nil }
        try subscriber.start(broker)
    }

    package func stop() { subscriber.stop() }

    /// The next sample becomes the attitude reference, without reconnecting (device-motion
    /// updates starting while connection-status updates keep the subscription).
    package func resetReference() { shared.state.withLock { $0.reference = nil } }

    package var isBoardOnline: Bool { shared.state.withLock { $0.online } }
    package var latest: RemoteDeviceMotionSample? { shared.state.withLock { $0.latest } }

    /// The latencies received so far, sorted, ns.
    package var latencies: [Int64] { shared.state.withLock { $0.latencies }.sorted() }
}

/// One remote device-motion sample, attitude relative to the first since `start`.
package struct RemoteDeviceMotionSample: Sendable {
    package var sequence: UInt32
    /// The sample's time at the board, ns since 1970.
    package var timestampUnixNanoseconds: Int64
    /// When it arrived here, ns since 1970.
    package var receivedUnixNanoseconds: Int64
    /// The board's fields, `w x y z` replaced by the attitude relative to the first sample:
    /// conj(q₀) ⊗ q.
    package var fields: DeviceMotionFields

    package var latencyNanoseconds: Int64 { receivedUnixNanoseconds - timestampUnixNanoseconds }

    init(message: MotionMessage, fields: DeviceMotionFields, reference r: (w: Float, x: Float, y: Float, z: Float), receivedUnixNanoseconds: Int64) {
        sequence = message.sequence
        timestampUnixNanoseconds = message.timestampUnixNanoseconds
        self.receivedUnixNanoseconds = receivedUnixNanoseconds
        var relative = fields
        let (aw, ax, ay, az) = (r.w, -r.x, -r.y, -r.z)
        let (bw, bx, by, bz) = (fields.w, fields.x, fields.y, fields.z)
        relative.w = aw * bw - ax * bx - ay * by - az * bz
        relative.x = aw * bx + ax * bw + ay * bz - az * by
        relative.y = aw * by - ax * bz + ay * bw + az * bx
        relative.z = aw * bz + ax * by - ay * bx + az * bw
        self.fields = relative
    }
}
