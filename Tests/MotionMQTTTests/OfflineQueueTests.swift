import Foundation
@testable import MotionMQTT
import Testing

/// The client's behaviour while the broker is away, against a real mosquitto that is down,
/// then up: QoS 1 messages wait (up to `max_queued`, the rest refused and counted) and are
/// delivered when the broker comes; QoS 0 messages are counted lost.
@Suite(.serialized)
struct OfflineQueueTests {
    @Test func qos1WaitsForTheBrokerUpToTheBoundAndQoS0IsCountedLost() throws {
        let broker = try LocalBroker()
        broker.stop()
        var settings = BrokerFixtures.configuration(broker).broker
        settings.maxQueuedMessages = 5
        let client = try MosquittoClient(clientID: "test-offline-queue", cleanSession: true, broker: settings, will: nil, events: .init())
        try client.start(settings)
        for index in 0..<8 { client.publish(topic: "test/queue/\(index)", payload: [UInt8(index)], qos: 1, retain: false) }
        for _ in 0..<4 { client.publish(topic: "test/queue/zero", payload: [0], qos: 0, retain: false) }
        var counts = client.counts
        #expect(counts.queuedAtLeastOnce == 5 && counts.droppedQueueFull == 3, "\(counts.summary)")
        #expect(counts.lostWhileDisconnected == 4 && counts.connects == 0)
        #expect(client.pendingCount == 5)

        try broker.restart(downSeconds: 0)
        #expect(BrokerFixtures.wait(seconds: 10) { client.pendingCount == 0 })
        counts = client.counts
        #expect(counts.connects == 1 && counts.acknowledged == 5, "\(counts.summary)")
        #expect(client.stop(waitingUpTo: 1) == 0)
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
