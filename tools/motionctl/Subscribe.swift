import ArgumentParser
import Glibc
import MotionMQTT
import Synchronization

/// `motionctl subscribe`: prints what boards publish, decoded (one line per message).
struct Subscribe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the messages boards publish to an MQTT broker, decoded.",
        discussion: """
            Each line is `<board-id> <stream> <JSON>` (binary payloads are decoded into the JSON form), `<board-id> status online`
            (`(retained)` when the broker kept it from before), or `<board-id> board <description JSON>`.
            """)

    @OptionGroup var config: MQTTConfigOption

    @Argument(help: "The board id to follow (default: every board under the prefix).")
    var board: String?

    @Option(help: "A fixed client id: keeps this subscriber's session on the broker, so QoS 1 messages sent while it is away arrive when it is back.")
    var clientID: String?

    @Option(help: "Exit after this many stream messages.")
    var count: Int?

    @Option(help: "Exit after this many seconds.")
    var duration: Double?

    func run() throws {
        let configuration = try config.load()
        stopRequested.install()
        let streamMessages = Atomic<Int>(0)
        let subscriber: MotionSubscriber
        do {
            subscriber = try MotionSubscriber(configuration: configuration, board: board, clientID: clientID ?? "ocm-sub-\(getpid())",
                                              durable: clientID != nil, log: standardError) { received in
                if let line = Self.line(received) {
                    standardOutput(line)
                    streamMessages.wrappingAdd(1, ordering: .relaxed)
                } else if case .unreadable(let topic, let problem) = received {
                    standardError("\(topic): \(problem)")
                } else {
                    standardOutput(Self.announcement(received))
                }
            }
            try subscriber.start(configuration.broker)
        } catch {
            standardError("error: \(error)")
            throw ExitCode.failure
        }
        let end = duration.map { MQTTClock.monotonicSeconds() + $0 }
        while !stopRequested.isRaised, end.map({ MQTTClock.monotonicSeconds() < $0 }) ?? true,
              count.map({ streamMessages.load(ordering: .relaxed) < $0 }) ?? true {
            usleep(20_000)
        }
        subscriber.stop()
    }

    /// A stream message's line, nil for the others.
    static func line(_ received: MotionSubscriber.Received) -> String? {
        switch received {
        case .motion(let board, let message): "\(board) \(message.stream.topicName) \(JSONPayload.encode(message))"
        case .json(let board, let stream, let text): "\(board) \(stream.topicName) \(text)"
        case .status, .description, .unreadable: nil
        }
    }

    static func announcement(_ received: MotionSubscriber.Received) -> String {
        switch received {
        case .status(let board, let text, let retained): "\(board) status \(text)\(retained ? " (retained)" : "")"
        case .description(let board, let json): "\(board) board \(json)"
        default: ""
        }
    }
}
