import Foundation
@testable import MotionMQTT
import OpenCoreMotion
import Locking
import Testing
import TestSupport

/// `CMHeadphoneMotionManager` fed from the broker by a board publishing in this process.
@Suite(.serialized, .blocking)
struct HeadphoneMotionTests {
    final class Events: CMHeadphoneMotionManagerDelegate {
        let log = Lock<[String]>([])
        func headphoneMotionManagerDidConnect(_ manager: CMHeadphoneMotionManager) { log.withLock { $0.append("connect") } }
        func headphoneMotionManagerDidDisconnect(_ manager: CMHeadphoneMotionManager) { log.withLock { $0.append("disconnect") } }
    }

    @Test func remoteDeviceMotionConnectsIsRelativeToTheStartAndFailsWhenTheBoardLeaves() throws {
        let broker = try LocalBroker()
        let file = NSTemporaryDirectory() + "ocm-mqtt-remote-\(getpid()).conf"
        try "[broker]\nhost = 127.0.0.1\nport = \(broker.port)\n[publish]\nprefix = test\n[stream device-motion]\nrate = 50\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        defer { unlink(file) }
        let configuration = try MQTTConfigurationFile.load(path: file)

        let manager = CMHeadphoneMotionManager(configurationFile: file, boardID: "sim-gy-521")
        #expect(manager.isDeviceMotionAvailable)
        let events = Events()
        manager.delegate = events
        let samples = Lock<[CMDeviceMotion]>([])
        let errors = Lock<[String]>([])
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        manager.startDeviceMotionUpdates(to: queue) { motion, error in
            if let motion { samples.withLock { $0.append(motion) } }
            if let error { errors.withLock { $0.append("\(error)") } }
        }
        #expect(manager.isDeviceMotionActive)

        let publisher = try BoardPublisher(board: BrokerFixtures.board("sim-gy-521.board"), configuration: configuration, log: { _ in })
        try publisher.start()
        #expect(BrokerFixtures.wait { samples.withLock { $0.count } >= 150 })
        #expect(manager.isConnected)
        #expect(events.log.withLock { $0 } == ["connect"])
        let first = try #require(samples.withLock { $0.first })
        // The first sample is the reference: its relative attitude is the identity.
        #expect(abs(first.attitude.quaternion.w - 1) < 1e-6 && abs(first.attitude.roll) < 1e-3 && abs(first.attitude.yaw) < 1e-3)
        // Timestamps on this machine's CLOCK_MONOTONIC, increasing.
        let uptime = ProcessInfo.processInfo.systemUptime
        let times = samples.withLock { $0.map(\.timestamp) }
        #expect(times.last! <= uptime + 0.01 && times.last! > uptime - 60)  // a clock-domain check, not a latency
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })

        publisher.stop()
        #expect(BrokerFixtures.wait { errors.withLock { !$0.isEmpty } && events.log.withLock { $0.count } == 2 })
        #expect(events.log.withLock { $0 } == ["connect", "disconnect"])
        #expect(errors.withLock { $0.first?.contains("sim-gy-521 went offline") } == true)
        #expect(!manager.isConnected)

        let latencies = manager.latencies
        let median = latencies[latencies.count / 2] * 1000
        print("remote device motion: \(latencies.count) samples, latency median \(String(format: "%.2f", median)) ms, "
              + "99th percentile \(String(format: "%.2f", latencies[latencies.count * 99 / 100] * 1000)) ms")
        // Printed, not asserted: a loaded machine delays delivery by any amount. The latency is
        // measured by `motionctl stream --remote BOARD` (docs/mqtt.md).
        manager.stopDeviceMotionUpdates()
        #expect(!manager.isDeviceMotionActive)
    }

    @Test func anUnreadableConfigurationMakesRemoteMotionUnavailableAndSaysWhy() {
        let manager = CMHeadphoneMotionManager(configurationFile: "/nonexistent/mqtt.conf", boardID: "x")
        #expect(!manager.isDeviceMotionAvailable)
        let message = Lock<String?>(nil)
        manager.startDeviceMotionUpdates(to: OperationQueue()) { _, error in message.withLock { $0 = error.map { "\($0)" } } }
        #expect(BrokerFixtures.wait { message.withLock { $0 } != nil })
        #expect(message.withLock { $0?.contains("/nonexistent/mqtt.conf") } == true)
    }

    /// iOS code: `CMHeadphoneMotionManager()` and connection-status updates alone. The system's
    /// configuration folder is a temporary one holding `headphone-motion.conf`; the variable is
    /// set only while the manager reads it (the initializer reads the file at once).
    @Test func theSystemsRemoteBoardConnectsAndDisconnectsWithoutDeviceMotion() throws {
        let broker = try LocalBroker()
        let folder = NSTemporaryDirectory() + "ocm-headphone-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let text = "[broker]\nhost = 127.0.0.1\nport = \(broker.port)\n[publish]\nprefix = test\nboard_id = sim-gy-521\n[stream device-motion]\nrate = 50\n"
        try text.write(toFile: folder + "/headphone-motion.conf", atomically: true, encoding: .utf8)
        setenv("OPENCOREMOTION_CONFIG_DIR", folder, 1)
        let manager = CMHeadphoneMotionManager()
        unsetenv("OPENCOREMOTION_CONFIG_DIR")
        #expect(manager.isDeviceMotionAvailable && manager.boardID == "sim-gy-521")

        let events = Events()
        manager.delegate = events
        manager.startConnectionStatusUpdates()
        #expect(manager.isConnectionStatusActive && !manager.isDeviceMotionActive)
        let publisher = try BoardPublisher(board: BrokerFixtures.board("sim-gy-521.board"),
                                           configuration: try MQTTConfigurationFile.load(path: folder + "/headphone-motion.conf"), log: { _ in })
        try publisher.start()
        #expect(BrokerFixtures.wait { events.log.withLock { $0 } == ["connect"] })
        #expect(manager.isConnected && manager.deviceMotion == nil, "connection status alone keeps no samples")
        // Device motion started meanwhile shares the subscription: no second connect, and its
        // first sample is the attitude reference.
        let samples = Lock<[CMDeviceMotion]>([])
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        manager.startDeviceMotionUpdates(to: queue) { motion, _ in if let motion { samples.withLock { $0.append(motion) } } }
        #expect(BrokerFixtures.wait { samples.withLock { $0.count } >= 10 })
        let first = try #require(samples.withLock { $0.first })
        #expect(abs(first.attitude.quaternion.w - 1) < 1e-6)
        manager.stopDeviceMotionUpdates()
        #expect(!manager.isDeviceMotionActive && manager.isConnectionStatusActive && manager.isConnected)
        #expect(events.log.withLock { $0 } == ["connect"])
        publisher.stop()
        #expect(BrokerFixtures.wait { events.log.withLock { $0 } == ["connect", "disconnect"] })
        manager.stopConnectionStatusUpdates()
        #expect(!manager.isConnectionStatusActive)
    }

}
