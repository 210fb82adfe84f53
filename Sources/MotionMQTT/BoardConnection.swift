import Locking

/// One board's connection to the broker: the MQTT client with the board's will and
/// announcements, its topics, and the numbering and encoding of each stream's messages.
/// `BoardPublisher` feeds it from a live board; the load generator (`FleetLoad`) from synthetic
/// samples, so both measure the same publishing path.
package final class BoardConnection: Sendable {
    package let boardID: String
    package let configuration: MQTTConfiguration
    let client: MosquittoClient
    private let topics: [String]
    private let numbering = Lock(Numbering())

    private struct Numbering {
        /// Next sequence number and messages published, by `MQTTStream.rawValue`.
        var sequences = [UInt32](repeating: 0, count: 9)
        var published = [Int](repeating: 0, count: 9)
    }

    /// `description`: the retained board description (JSON). `log` gets connection changes.
    package init(boardID: String, configuration: MQTTConfiguration, description: String,
                 log: @escaping @Sendable (String) -> Void) throws(MQTTClientError) {
        self.boardID = boardID
        self.configuration = configuration
        topics = (0...8).map { MQTTStream(rawValue: UInt8($0)).map { configuration.topic(board: boardID, $0.topicName) } ?? "" }
        let statusTopic = configuration.topic(board: boardID, BoardTopic.status)
        var events = MosquittoClient.Events()
        events.connected = { log("\(boardID): connected to \(configuration.broker.host):\(configuration.broker.resolvedPort)") }
        events.disconnected = { log("\(boardID): \($0)") }
        client = try MosquittoClient(
            clientID: configuration.broker.clientID ?? "ocm-\(boardID)", cleanSession: true, broker: configuration.broker,
            will: .init(topic: statusTopic, payload: Array("offline".utf8), qos: 1, retain: true),
            announcements: [
                .init(topic: configuration.topic(board: boardID, BoardTopic.description), payload: Array(description.utf8), qos: 1, retain: true),
                .init(topic: statusTopic, payload: Array("online".utf8), qos: 1, retain: true),
            ],
            events: events)
    }

    /// Connects in the background (the broker may come later: the client retries).
    package func start() throws(MQTTClientError) { try client.start(configuration.broker) }

    /// Publishes the retained "offline" (a clean stop sends no will), waits up to `seconds` for
    /// QoS 1 acknowledgements and disconnects; returns the QoS 1 messages still unacknowledged.
    @discardableResult
    package func stop(waitingUpTo seconds: Double) -> Int {
        client.publish(topic: configuration.topic(board: boardID, BoardTopic.status), payload: Array("offline".utf8), qos: 1, retain: true)
        return client.stop(waitingUpTo: seconds)
    }

    package var isConnected: Bool { client.connected }
    package var counts: ConnectionCounts { client.counts }

    /// Messages published on `stream` (handed to the client, whatever became of them).
    package func published(_ stream: MQTTStream) -> Int { numbering.withLock { $0.published[Int(stream.rawValue)] } }

    /// Numbers, encodes (binary or JSON, as configured) and publishes one message of `stream`
    /// stamped `unixNanoseconds`, with the stream's QoS and retain flag.
    package func emit(_ stream: MQTTStream, unixNanoseconds: Int64, _ fields: MotionMessage.Fields) {
        let index = Int(stream.rawValue)
        let sequence = numbering.withLock { numbering in
            defer {
                numbering.sequences[index] &+= 1
                numbering.published[index] += 1
            }
            return numbering.sequences[index]
        }
        let message = MotionMessage(stream: stream, sequence: sequence, timestampUnixNanoseconds: unixNanoseconds, fields: fields)
        let settings = configuration.settings(stream)
        client.publish(topic: topics[index], payload: MessageEncoding.encode(message, configuration.format), qos: settings.qos, retain: settings.retain)
    }
}

/// The payload of a message in the configured format.
package enum MessageEncoding {
    package static func encode(_ message: MotionMessage, _ format: PayloadFormat) -> [UInt8] {
        switch format {
        case .binary: BinaryPayload.encode(message)
        case .json: Array(JSONPayload.encode(message).utf8)
        }
    }
}
