import Glibc
import Synchronization

/// The fleet measurement (issue 10): `boards` simulated boards, each its own MQTT connection
/// (`BoardConnection`, as a real board publishes), publish synthetic device motion at
/// `rateHertz` for `seconds`, while one subscriber receives every board's stream. Reports what
/// was published and delivered per board per second and the broker's CPU from /proc/PID/stat.
package enum FleetLoad {
    package struct Result: Sendable {
        package var boards: Int
        package var rateHertz: Double
        package var seconds: Double
        /// Messages published by all boards, and received by the subscriber.
        package var published: Int
        package var delivered: Int
        /// QoS 0 messages counted lost (published while a connection was down).
        package var lostCounted: Int
        /// The broker's CPU over the run, % of one core; nil without a broker process id.
        package var brokerCPUPercent: Double?
        /// This process's CPU (publishers and subscriber), % of one core.
        package var generatorCPUPercent: Double

        package var publishedPerBoardPerSecond: Double { Double(published) / Double(boards) / seconds }
        package var deliveredPerBoardPerSecond: Double { Double(delivered) / Double(boards) / seconds }

        package var report: String {
            let cpu = brokerCPUPercent.map { String(format1: $0) + " % of one core" } ?? "not measured (no broker pid)"
            return """
                \(boards) boards × \(String(format1: rateHertz)) Hz device motion for \(String(format1: seconds)) s on loopback:
                  published \(published) (\(String(format1: publishedPerBoardPerSecond)) messages/s per board, \(String(format1: Double(published) / seconds)) in all)
                  delivered \(delivered) to one subscriber (\(String(format1: deliveredPerBoardPerSecond)) messages/s per board), counted lost \(lostCounted)
                  broker CPU \(cpu); load generator CPU \(String(format1: generatorCPUPercent)) % of one core
                """
        }
    }

    /// Runs the measurement; `brokerPID` is the broker whose CPU is read (nil: not measured).
    package static func run(configuration: MQTTConfiguration, boards: Int, rateHertz: Double, seconds: Double,
                            brokerPID: Int32?, log: @escaping @Sendable (String) -> Void) throws(MQTTClientError) -> Result {
        var configuration = configuration
        configuration.broker.clientID = nil
        configuration.format = .binary
        let received = Atomic<Int>(0)
        let subscriber = try MotionSubscriber(configuration: configuration, board: nil, clientID: "ocm-load-subscriber-\(getpid())", durable: false,
                                              log: log) { message in
            if case .motion = message { received.wrappingAdd(1, ordering: .relaxed) }
        }
        try subscriber.start(configuration.broker)
        var connections: [BoardConnection] = []
        for index in 0..<boards {
            let id = "load-\(index)"
            let connection = try BoardConnection(boardID: id, configuration: configuration, description: "{\"id\":\"\(id)\",\"synthetic\":true}") { _ in }
            try connection.start()
            connections.append(connection)
        }
        defer {
            for connection in connections { connection.stop(waitingUpTo: 0.5) }
            subscriber.stop()
        }
        try waitUntil(seconds: 15, "the \(boards) publishers and the subscriber connected") {
            subscriber.isConnected && connections.allSatisfy(\.isConnected)
        }
        usleep(300_000)  // the subscription acknowledged

        let startDelivered = received.load(ordering: .relaxed)
        let startBroker = brokerPID.map { LocalBroker.cpuSeconds(of: $0) }
        let startSelf = LocalBroker.cpuSeconds(of: getpid())
        let period = Int64(1e9 / rateHertz)
        let ticks = Int(seconds * rateHertz)
        var next = MQTTClock.monotonicNanoseconds()
        let started = next
        for tick in 0..<ticks {
            let angle = Float(tick) / Float(rateHertz)
            let fields = MotionMessage.Fields.deviceMotion(DeviceMotionFields(
                w: cos(angle / 2), x: 0, y: 0, z: sin(angle / 2), rotationRate: (0, 0, 1), gravity: (0, 0, -1),
                userAcceleration: (0.01, 0, 0), magneticField: (20, 0, -40), heading: -1, magneticAccuracy: -1, referenceFrame: 1))
            let now = MQTTClock.realtimeNanoseconds()
            for connection in connections { connection.emit(.deviceMotion, unixNanoseconds: now, fields) }
            next += period
            var wake = timespec(tv_sec: Int(next / 1_000_000_000), tv_nsec: Int(next % 1_000_000_000))
            clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &wake, nil)
        }
        let elapsed = Double(MQTTClock.monotonicNanoseconds() - started) / 1e9
        let endBroker = brokerPID.map { LocalBroker.cpuSeconds(of: $0) }
        let endSelf = LocalBroker.cpuSeconds(of: getpid())
        let published = connections.reduce(0) { $0 + $1.published(.deviceMotion) }
        // Let the last messages arrive: until the count stops growing for 0.5 s.
        var last = -1
        while received.load(ordering: .relaxed) != last {
            last = received.load(ordering: .relaxed)
            usleep(500_000)
        }
        let lost = connections.reduce(0) { $0 + $1.counts.lostWhileDisconnected }
        var brokerPercent: Double?
        if let startBroker, let endBroker { brokerPercent = (endBroker - startBroker) / elapsed * 100 }
        return Result(boards: boards, rateHertz: rateHertz, seconds: elapsed, published: published, delivered: last - startDelivered,
                      lostCounted: lost, brokerCPUPercent: brokerPercent, generatorCPUPercent: (endSelf - startSelf) / elapsed * 100)
    }

    static func waitUntil(seconds: Double, _ what: String, _ condition: () -> Bool) throws(MQTTClientError) {
        let deadline = MQTTClock.monotonicNanoseconds() + Int64(seconds * 1e9)
        while !condition() {
            guard MQTTClock.monotonicNanoseconds() < deadline else { throw MQTTClientError("not all of \(what) within \(Int(seconds)) s") }
            usleep(20_000)
        }
    }
}

extension String {
    /// One decimal: "12.3".
    init(format1 value: Double) {
        let tenths = (value * 10).rounded()
        self = tenths.isFinite ? "\(Int(tenths) / 10).\(abs(Int(tenths) % 10))" : "\(value)"
        if tenths < 0, Int(tenths) / 10 == 0 { self = "-" + self }
    }
}
