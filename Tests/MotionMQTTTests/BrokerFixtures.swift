import Foundation
@testable import MotionMQTT
import Locking
import TestSupport
import Testing

/// What the broker tests share: a configuration pointing at a `LocalBroker`, a recording
/// subscriber, and the checks of one stream's messages.
enum BrokerFixtures {
    /// A copy of one of this checkout's board files in this process's own folder: the process
    /// runs one engine per board file path, and other test suites running at the same time
    /// (OpenCoreMotionTests' pedometer on sim-walker) must not share these tests' engines. These
    /// tests share them among themselves, as two apps on one board do.
    /// Tests run in parallel: two asking for the same board at once both found no copy, and the
    /// second copy failed with "file exists" (a CI run of session 7). One copy at a time.
    static func board(_ name: String) -> String {
        let copy = privateBoards + "/" + name
        copying.withLock { _ in
            guard !FileManager.default.fileExists(atPath: copy) else { return }
            do {
                try FileManager.default.createDirectory(atPath: privateBoards, withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: ProjectPaths.root + "/boards/" + name, toPath: copy)
            } catch {
                Issue.record("could not copy the board file \(name) to \(privateBoards): \(error)")
            }
        }
        return copy
    }

    private static let copying = Lock(())

    static let privateBoards = NSTemporaryDirectory() + "ocm-mqtt-boards-\(getpid())"

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

    /// Waits until `condition` holds, looking every 20 ms, and returns whether it does. The
    /// deadline, 60 s, is for a real hang only (a loaded machine makes the wait longer, never
    /// fails it): how soon a broker, a connection or a message comes is a timing claim, measured
    /// by `motionctl mqtt-load` and the benchmarks, not here.
    @discardableResult
    static func wait(_ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition() {
            if ContinuousClock.now >= deadline { return false }
            usleep(20_000)
        }
        return true
    }
}

/// Every message a subscriber received, in arrival order.
final class Recorder: Sendable {
    private let received = Lock<[MotionSubscriber.Received]>([])

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
