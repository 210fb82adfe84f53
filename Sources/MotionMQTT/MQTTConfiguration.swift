/// Everything a publisher or subscriber needs to reach the broker and what to publish, read
/// from a configuration file (`MQTTConfigurationFile`; the format is documented there and in
/// PAYLOADS.md). Secrets come only from the file, never from the command line, and are never
/// printed (`Secret`).
package struct MQTTConfiguration: Sendable {
    /// The file it was read from (absolute or as given), for messages.
    package var path: String
    package var broker = BrokerSettings()
    /// The first topic level: `<prefix>/<board-id>/<stream>`.
    package var prefix = "opencoremotion"
    /// The board's name in topics; nil: the board file's name without `.board`.
    package var boardID: String?
    package var format = PayloadFormat.binary
    package var streams: [MQTTStream: StreamSettings] = Dictionary(uniqueKeysWithValues: MQTTStream.allCases.map { ($0, StreamSettings($0)) })

    package init(path: String) { self.path = path }

    package func settings(_ stream: MQTTStream) -> StreamSettings { streams[stream] ?? StreamSettings(stream) }

    /// `<prefix>/<board-id>/<level>`.
    package func topic(board: String, _ level: String) -> String { "\(prefix)/\(board)/\(level)" }
}

package enum PayloadFormat: String, Sendable {
    /// PAYLOADS.md's compact little-endian layout (84 bytes for device motion).
    case binary
    /// One JSON object per message (JSONPayload), for people.
    case json
}

package struct BrokerSettings: Sendable {
    package var host = "localhost"
    /// 1883, or 8883 when a CA file is given (MQTT over TLS) and the file names no port.
    package var port: Int32?
    /// nil: "ocm-<board-id>" for a publisher, "ocm-sub-<pid>" for a subscriber.
    package var clientID: String?
    /// The broker drops (and publishes the will of) a client silent for 1.5 × this, s.
    package var keepAliveSeconds: Int32 = 10
    package var username: String?
    package var password: Secret?
    /// TLS: the CA certificate file that signs the broker's certificate (enables TLS).
    package var caFile: String?
    /// TLS client authentication: this client's certificate and key (PEM).
    package var certificateFile: String?
    package var keyFile: String?
    /// QoS 1 messages held (sent and not yet acknowledged, or waiting to be sent) while the
    /// broker is away; beyond this, new QoS 1 messages are dropped and counted.
    package var maxQueuedMessages = 10_000
    /// QoS 1 messages on the wire awaiting the broker's acknowledgement at once.
    package var maxInflightMessages: Int32 = 100
    /// Reconnect backoff: the first retry after this many seconds, doubling up to the maximum.
    package var reconnectMinimumSeconds: UInt32 = 1
    package var reconnectMaximumSeconds: UInt32 = 30

    package var resolvedPort: Int32 { port ?? (caFile == nil ? 1883 : 8883) }
}

/// One stream's settings: `[stream device-motion]` and so on.
package struct StreamSettings: Sendable {
    package var enabled: Bool
    /// Samples per second for sampled streams (device motion, altitude, raw), at most 100.
    package var rateHertz: Double
    package var qos: Int32
    package var retain: Bool

    package init(_ stream: MQTTStream) {
        enabled = stream.enabledByDefault
        rateHertz = stream == .altitude ? 1 : 50
        qos = stream.defaultQoS
        retain = false
    }
}

/// A password or key passphrase: readable by the code that hands it to libmosquitto, never
/// shown by `print`, string interpolation, `dump` or a debugger's description.
package struct Secret: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    package let value: String
    package init(_ value: String) { self.value = value }
    package var description: String { "(secret)" }
    package var debugDescription: String { "(secret)" }
    package var customMirror: Mirror { Mirror(self, children: [:]) }
}
