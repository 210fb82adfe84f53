import ArgumentParser
import Glibc
import MotionEngine
import MotionMQTT

/// `motionctl publish`: runs a board in this process and publishes what it computes to an MQTT
/// broker (issue 10), through the same `BoardPublisher` motiond uses.
struct Publish: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Publish a board's device motion, pedometer, activity and altitude to an MQTT broker.",
        discussion: """
            Topics are <prefix>/<board-id>/<stream>, with a retained description at <prefix>/<board-id>/board and a retained
            status (online; offline as the last will). Broker, credentials, TLS and per-stream rate, QoS and retain come from
            the configuration file (format and payloads: Sources/MotionMQTT/PAYLOADS.md); secrets are never taken as options.
            """)

    @Option(name: .customLong("board"), help: "A board file (default: boards/sim-walker.board).")
    var boardFile: String?

    @OptionGroup var config: MQTTConfigOption

    @Option(help: "The board's id in topics (default: the configuration's board_id, else the board file's name).")
    var boardID: String?

    @Option(help: "Seconds to publish (default: until SIGINT or SIGTERM).")
    var duration: Double?

    func validate() throws {
        if let duration, !(duration > 0 && duration.isFinite) { throw ValidationError("--duration must be a positive number of seconds, got \(duration)") }
        if let boardID, boardID.isEmpty || boardID.contains(where: { "/+# ".contains($0) }) {
            throw ValidationError("--board-id must be one topic level without / + # or spaces, got `\(boardID)`")
        }
    }

    func run() throws {
        let configuration = try config.load()
        let board = boardFile ?? BoardLocations.locate("boards/sim-walker.board")
        stopRequested.install()
        let publisher: BoardPublisher
        do {
            publisher = try BoardPublisher(board: board, configuration: configuration, boardID: boardID, log: standardError)
            for line in try publisher.start() { standardError("skipped \(line)") }
        } catch {
            standardError("error: \(error)")
            throw ExitCode.failure
        }
        let topic = configuration.topic(board: publisher.boardID, "…")
        standardError("publishing \(board) to \(configuration.broker.host):\(configuration.broker.resolvedPort) as \(topic) (\(configuration.format.rawValue))")
        let end = duration.map { MQTTClock.monotonicSeconds() + $0 }
        while !stopRequested.isRaised, end.map({ MQTTClock.monotonicSeconds() < $0 }) ?? true { usleep(50_000) }
        let unacknowledged = publisher.stop()
        let streams = MQTTStream.allCases.filter { configuration.settings($0).enabled }.map { "\($0.topicName) \(publisher.connection.published($0))" }
        print("published \(publisher.boardID): \(streams.joined(separator: ", "))")
        print(publisher.counts.summary + (unacknowledged > 0 ? "; \(unacknowledged) QoS 1 unacknowledged at exit" : ""))
    }
}
