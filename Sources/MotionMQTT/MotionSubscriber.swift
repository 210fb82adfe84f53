/// Receives what boards publish (`BoardPublisher`) and decodes it: `motionctl subscribe`, the
/// tests and the load generator's counter use it.
///
/// It subscribes at QoS 1 to `<prefix>/<board-id>/#` (or every board with `+`) at each connect.
/// Give it a fixed client id and `durable: true` to keep its session on the broker: QoS 1
/// messages published while it is away, or while the broker restarts (with persistence), are
/// then delivered when it is back.
package final class MotionSubscriber: Sendable {
    private let client: MosquittoClient

    /// What arrives, decoded.
    package enum Received: Sendable {
        /// A stream message (a binary payload decoded, or a JSON one as its text in `json`).
        case motion(board: String, MotionMessage)
        case json(board: String, stream: MQTTStream, text: String)
        /// "online" or "offline" (`retained`: stored by the broker before this subscriber came).
        case status(board: String, text: String, retained: Bool)
        case description(board: String, json: String)
        /// A message that is not OpenCoreMotion's, or could not be decoded: why.
        case unreadable(topic: String, problem: String)
    }

    /// `board`: one board id, or nil for every board under the prefix. `receive` runs on
    /// libmosquitto's thread, in arrival order.
    package init(configuration: MQTTConfiguration, board: String?, clientID: String, durable: Bool,
                 log: @escaping @Sendable (String) -> Void, receive: @escaping @Sendable (Received) -> Void) throws(MQTTClientError) {
        let prefix = configuration.prefix
        var events = MosquittoClient.Events()
        events.connected = { log("subscribed to \(prefix)/\(board ?? "+")/# at \(configuration.broker.host):\(configuration.broker.resolvedPort)") }
        events.disconnected = { log($0) }
        events.message = { topic, payload, retained in receive(Self.decode(topic: topic, prefix: prefix, payload: payload, retained: retained)) }
        client = try MosquittoClient(clientID: clientID, cleanSession: !durable, broker: configuration.broker, will: nil,
                                     subscriptions: [(pattern: "\(prefix)/\(board ?? "+")/#", qos: 1)], events: events)
    }

    package func start(_ broker: BrokerSettings) throws(MQTTClientError) { try client.start(broker) }

    package func stop() { client.stop(waitingUpTo: 0) }

    package var isConnected: Bool { client.connected }
    package var counts: ConnectionCounts { client.counts }

    static func decode(topic: String, prefix: String, payload: [UInt8], retained: Bool) -> Received {
        guard topic.hasPrefix(prefix + "/") else { return .unreadable(topic: topic, problem: "not under the prefix \(prefix)") }
        let levels = topic.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard levels.count == 2 else { return .unreadable(topic: topic, problem: "expected \(prefix)/<board-id>/<stream>") }
        let (board, last) = (levels[0], levels[1])
        let text = String(decoding: payload, as: UTF8.self)
        if last == BoardTopic.status { return .status(board: board, text: text, retained: retained) }
        if last == BoardTopic.description { return .description(board: board, json: text) }
        guard let stream = MQTTStream(topicName: last) else { return .unreadable(topic: topic, problem: "unknown stream `\(last)`") }
        if payload.first == UInt8(ascii: "{") { return .json(board: board, stream: stream, text: text) }
        do throws(PayloadError) {
            let message = try BinaryPayload.decode(payload)
            guard message.stream == stream else {
                return .unreadable(topic: topic, problem: "a \(message.stream.topicName) payload on the \(stream.topicName) topic")
            }
            return .motion(board: board, message)
        } catch {
            return .unreadable(topic: topic, problem: error.description)
        }
    }
}
