import Foundation
@testable import MotionMQTT
import Synchronization
import TestSupport

/// What the broker tests share: a configuration pointing at a `LocalBroker`, a recording
/// subscriber, and the checks of one stream's messages.
enum BrokerFixtures {
    /// The board files of this checkout.
    static func board(_ name: String) -> String { ProjectPaths.root + "/boards/" + name }

    static func configuration(_ broker: LocalBroker, prefix: String = "test") -> MQTTConfiguration {
        var configuration = MQTTConfiguration(path: "(test)")
        configuration.broker.host = "127.0.0.1"
        configuration.broker.port = broker.port
        configuration.broker.keepAliveSeconds = 5
        configuration.broker.reconnectMinimumSeconds = 1
        configuration.broker.reconnectMaximumSeconds = 2
        configuration.prefix = prefix
        return configuration
    }

    /// Waits up to `seconds` for `condition`; returns whether it came true.
    @discardableResult
    static func wait(seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            usleep(20_000)
        }
        return true
    }
}

/// Every message a subscriber received, in arrival order.
final class Recorder: Sendable {
    private let received = Mutex<[MotionSubscriber.Received]>([])

    func take(_ message: MotionSubscriber.Received) { received.withLock { $0.append(message) } }

    var all: [MotionSubscriber.Received] { received.withLock { $0 } }

    /// The decoded messages of `stream` from `board`, in arrival order.
    func messages(_ board: String, _ stream: MQTTStream) -> [MotionMessage] {
        all.compactMap {
            guard case .motion(let from, let message) = $0, from == board, message.stream == stream else { return nil }
            return message
        }
    }

    /// The status texts of `board` in arrival order.
    func statuses(_ board: String) -> [String] {
        all.compactMap {
            guard case .status(let from, let text, _) = $0, from == board else { return nil }
            return text
        }
    }

    func descriptions(_ board: String) -> [String] {
        all.compactMap {
            guard case .description(let from, let json) = $0, from == board else { return nil }
            return json
        }
    }

    /// Subscribes to every board under the configuration's prefix.
    static func subscribe(_ configuration: MQTTConfiguration, clientID: String, durable: Bool) throws -> (MotionSubscriber, Recorder) {
        let recorder = Recorder()
        let subscriber = try MotionSubscriber(configuration: configuration, board: nil, clientID: clientID, durable: durable, log: { _ in }) {
            recorder.take($0)
        }
        try subscriber.start(configuration.broker)
        return (subscriber, recorder)
    }
}

/// One stream's messages as received: repeats (a QoS 1 resend) removed, then checked in order.
struct StreamCheck {
    /// The distinct sequence numbers received.
    let sequences: Set<UInt32>
    /// Messages whose sequence number or timestamp did not increase over the previous new one.
    let outOfOrder: Int
    let duplicates: Int

    init(_ messages: [MotionMessage]) {
        var seen = Set<UInt32>()
        var outOfOrder = 0
        var duplicates = 0
        var last: MotionMessage?
        for message in messages {
            guard seen.insert(message.sequence).inserted else {
                duplicates += 1
                continue
            }
            if let last, message.sequence <= last.sequence || message.timestampUnixNanoseconds < last.timestampUnixNanoseconds { outOfOrder += 1 }
            last = message
        }
        (sequences, self.outOfOrder, self.duplicates) = (seen, outOfOrder, duplicates)
    }

    /// Sequence numbers below `published` that never arrived.
    func missing(of published: Int) -> Int { (0..<UInt32(published)).filter { !sequences.contains($0) }.count }
}
