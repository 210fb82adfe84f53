import Foundation
@testable import MotionMQTT
import Locking
import Testing
import TestSupport

/// The client's behaviour while the broker is away, against a real mosquitto that is down,
/// then up: QoS 1 messages wait (up to `max_queued`, the rest refused and counted) and are
/// delivered when the broker comes, each once and in order; QoS 0 messages are counted lost.
/// Waits are on conditions, their deadlines (60 s) for a hang only: libmosquitto retries every
/// 1–2 s, and how soon a loaded machine restarts the broker and reconnects is no claim here.
@Suite(.serialized, .blocking)
struct OfflineQueueTests {
    @Test func qos1WaitsForTheBrokerUpToTheBoundAndQoS0IsCountedLost() throws {
        let broker = try LocalBroker()
        var settings = BrokerFixtures.configuration(broker).broker
        // A durable subscriber (its session and subscription kept in the broker's persistence
        // across the restart) sees what the broker received: the queue's contents.
        let received = Lock<[(topic: String, payload: [UInt8])]>([])
        var heard = MosquittoClient.Events()
        heard.message = { topic, payload, _ in received.withLock { $0.append((topic, payload)) } }
        let subscriber = try MosquittoClient(clientID: "test-offline-queue-subscriber", cleanSession: false, broker: settings, will: nil,
                                             subscriptions: [("test/queue/#", 1)], events: heard)
        try subscriber.start(settings)
        defer { subscriber.stop(waitingUpTo: 0) }
        // Subscribed once its own message comes back.
        #expect(BrokerFixtures.wait { subscriber.connected })
        subscriber.publish(topic: "test/queue/probe", payload: [], qos: 1, retain: false)
        try #require(BrokerFixtures.wait { received.withLock { $0.contains { $0.topic == "test/queue/probe" } } })
        broker.stop()

        settings.maxQueuedMessages = 5
        let refusals = Lock(0)
        var events = MosquittoClient.Events()
        events.disconnected = { _ in refusals.withLock { $0 += 1 } }
        let client = try MosquittoClient(clientID: "test-offline-queue", cleanSession: true, broker: settings, will: nil, events: events)
        try client.start(settings)
        // Both ways libmosquitto takes a message while the broker is away: during a connection
        // attempt (accepted), and once the attempt has failed (MOSQ_ERR_NO_CONN, but queued
        // all the same: the client once handed those again at the connect, sending them twice).
        for index in 0..<3 { client.publish(topic: "test/queue/\(index)", payload: [UInt8(index)], qos: 1, retain: false) }
        #expect(BrokerFixtures.wait { refusals.withLock { $0 } > 0 })
        for index in 3..<8 { client.publish(topic: "test/queue/\(index)", payload: [UInt8(index)], qos: 1, retain: false) }
        for _ in 0..<4 { client.publish(topic: "test/queue/zero", payload: [0], qos: 0, retain: false) }
        var counts = client.counts
        #expect(counts.queuedAtLeastOnce == 5 && counts.droppedQueueFull == 3, "\(counts.summary)")
        #expect(counts.lostWhileDisconnected == 4 && counts.connects == 0)
        #expect(client.pendingCount == 5)

        try broker.restart(downSeconds: 0)
        #expect(BrokerFixtures.wait { client.pendingCount == 0 })
        counts = client.counts
        #expect(counts.connects == 1 && counts.acknowledged == 5 && counts.failed == 0, "\(counts.summary)")
        // A last message after them: once it is in, every message sent before it is too.
        client.publish(topic: "test/queue/end", payload: [9], qos: 1, retain: false)
        #expect(BrokerFixtures.wait { received.withLock { $0.contains { $0.topic == "test/queue/end" } } })
        let delivered = received.withLock { $0 }.filter { $0.topic != "test/queue/probe" }
        #expect(delivered.map(\.topic) == (0..<5).map { "test/queue/\($0)" } + ["test/queue/end"], "\(delivered.map(\.topic))")
        #expect(delivered.map(\.payload) == (0..<5).map { [UInt8($0)] } + [[9]])
        #expect(client.stop(waitingUpTo: 60) == 0)
    }

    /// Only altitude enabled on a board without a barometer: nothing to publish is an error that
    /// says why, not a silent connection.
    @Test func aBoardThatCanGiveNoEnabledStreamIsAnError() throws {
        var configuration = MQTTConfiguration(path: "(test)")
        configuration.broker.host = "127.0.0.1"
        configuration.broker.port = 1
        for stream in MQTTStream.allCases { configuration.streams[stream]?.enabled = stream == .altitude }
        let publisher = try BoardPublisher(board: BrokerFixtures.board("sim-gy-521.board"), configuration: configuration, log: { _ in })
        do {
            try publisher.start()
            Issue.record("started with nothing to publish")
        } catch {
            #expect(error.description.contains("altitude: ") && error.description.contains("no barometer"), "\(error)")
        }
        #expect(BoardPublisher.defaultID("/x/my board+1.board") == "my-board-1")
    }
}
