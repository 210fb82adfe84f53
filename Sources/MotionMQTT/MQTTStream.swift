/// The streams a board publishes, each at `<prefix>/<board-id>/<topic>`: what it carries, its
/// code in the binary payload's header (PAYLOADS.md) and its default QoS and retain flag.
///
/// Defaults follow what losing one message costs. Device motion and raw samples come 10–100 times a
/// second and the next one supersedes the last: QoS 0, not retained (a lost sample is counted,
/// not resent). Pedometer updates and events and activity transitions are rare and each one
/// matters to whoever keeps a history: QoS 1 (at least once; the broker acknowledges, libmosquitto
/// resends after a reconnect). Altitude is slow and superseded: QoS 0. The board description and
/// the online/offline status are retained at QoS 1, so a subscriber arriving later learns what
/// the board is and whether it is there.
package enum MQTTStream: UInt8, Sendable, CaseIterable {
    case deviceMotion = 1
    case pedometer = 2
    case pedometerEvent = 3
    case activity = 4
    case altitude = 5
    case accelerometer = 6
    case gyroscope = 7
    case magnetometer = 8

    /// The last level of the topic: "device-motion", "pedometer", ….
    package var topicName: String {
        switch self {
        case .deviceMotion: "device-motion"
        case .pedometer: "pedometer"
        case .pedometerEvent: "pedometer-event"
        case .activity: "activity"
        case .altitude: "altitude"
        case .accelerometer: "accelerometer"
        case .gyroscope: "gyroscope"
        case .magnetometer: "magnetometer"
        }
    }

    package init?(topicName: String) {
        guard let stream = Self.allCases.first(where: { $0.topicName == topicName }) else { return nil }
        self = stream
    }

    package var defaultQoS: Int32 {
        switch self {
        case .pedometer, .pedometerEvent, .activity: 1
        case .deviceMotion, .altitude, .accelerometer, .gyroscope, .magnetometer: 0
        }
    }

    /// Published unless the configuration says otherwise: what the board computes. Raw samples
    /// are published only on request (`enabled = yes` in their section).
    package var enabledByDefault: Bool {
        switch self {
        case .deviceMotion, .pedometer, .pedometerEvent, .activity, .altitude: true
        case .accelerometer, .gyroscope, .magnetometer: false
        }
    }

    /// Whether the stream has a rate of its own (Hz); the others publish as things happen.
    package var isSampled: Bool {
        switch self {
        case .deviceMotion, .altitude, .accelerometer, .gyroscope, .magnetometer: true
        case .pedometer, .pedometerEvent, .activity: false
        }
    }
}

/// The two retained topics beside the streams.
package enum BoardTopic {
    /// `<prefix>/<board-id>/board`: the board description (JSON), retained, QoS 1.
    package static let description = "board"
    /// `<prefix>/<board-id>/status`: "online" (retained on connect) or "offline" (the last will,
    /// retained: the broker publishes it when the connection dies without a goodbye; the
    /// publisher publishes it itself when it stops cleanly). QoS 1.
    package static let status = "status"
}
