import ArgumentParser
import MotionMQTT

/// `motionctl mqtt-load`: the fleet measurement of issue 10 (messages per second per board and
/// the broker's CPU at 100 boards × 100 Hz on loopback).
struct MQTTLoad: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mqtt-load",
        abstract: "Measure MQTT throughput: N simulated boards publish device motion at R Hz; report messages/s per board and broker CPU.",
        discussion: """
            Without --config, a private mosquitto is started on a free loopback port (Debian package mosquitto) and its CPU
            read from /proc/PID/stat. With --config, the configured broker is used; give --broker-pid to read its CPU.
            """)

    @Option(help: "Simulated boards, one MQTT connection each.") var boards = 100
    @Option(help: "Device motion messages per second per board.") var rate = 100.0
    @Option(help: "Seconds to publish.") var duration = 10.0
    @Option(name: .customLong("config"), help: "An MQTT configuration file (default: a private broker on loopback).") var configPath: String?
    @Option(help: "The broker's process id, to read its CPU (with --config).") var brokerPid: Int32?

    func validate() throws {
        guard (1...1000).contains(boards) else { throw ValidationError("--boards is 1 to 1000, got \(boards)") }
        guard rate > 0, rate <= 1000 else { throw ValidationError("--rate is above 0 and at most 1000 Hz, got \(rate)") }
        guard duration > 0, duration <= 3600 else { throw ValidationError("--duration is above 0 and at most 3600 s, got \(duration)") }
    }

    func run() throws {
        var broker: LocalBroker?
        var configuration: MQTTConfiguration
        var pid = brokerPid
        if let configPath {
            configuration = try MQTTConfigOption.load(path: configPath)
        } else {
            let local = try LocalBroker()
            broker = local
            configuration = MQTTConfiguration(path: "(private broker)")
            configuration.broker.host = "127.0.0.1"
            configuration.broker.port = local.port
            pid = local.pid
            standardError("started mosquitto (pid \(local.pid)) on 127.0.0.1:\(local.port)")
        }
        configuration.prefix = "ocm-load"
        let result = try FleetLoad.run(configuration: configuration, boards: boards, rateHertz: rate, seconds: duration, brokerPID: pid, log: standardError)
        print(result.report)
        broker?.stop()
    }
}
