import ArgumentParser
import Glibc
import MotionDaemon
import MotionEngine
import MotionMQTT

/// `motiond`: the always-on motion coprocessor (issue 9).
@main
struct MotionDaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "motiond",
        abstract: "Run one board's motion pipeline continuously, keep its history, and serve clients over a Unix socket.",
        discussion: """
            Pedometer and activity history (7 days) and the 50 Hz accelerometer (3 days) are kept
            in --history/BOARD. Clients (the Swift and C APIs, motionctl status/history) connect
            to --socket; see Sources/MotionDaemonProtocol/PROTOCOL.md.

            Who may connect: root and members of group motion, less what the policy file
            denies. Policy file, one rule a line (# comments):
              deny USER...        no data at all, even in group motion
              live-only USER...   live streams, no history queries
              allow USER...       as if in group motion
              group NAME          the granting group (default motion)
            USER is a name or a numeric uid. A missing file is an empty policy.

            With --mqtt FILE it also publishes what the board computes to an MQTT broker
            (issue 10; topics, payloads and the file's format: Sources/MotionMQTT/PAYLOADS.md),
            from the same engine that serves the clients. Secrets are read from that file only.

            Stops on SIGTERM or SIGINT (exit 0, history committed and synced); exits 1 when the
            board or the history fails (systemd restarts it), 2 on a bad option or file.
            """,
        version: OpenCoreMotionVersion.string)

    @Option(help: "The board file (a path, or the name of an installed one; default: the system's board: OPENCOREMOTION_BOARD, /etc/opencoremotion/board, else what a probe of the I2C buses finds).")
    var board: String?

    @Option(help: "The history root; the board's history is in ROOT/BOARD.")
    var history = "/var/lib/opencoremotion"

    @Option(help: "The Unix socket to serve on.")
    var socket = "/run/opencoremotion/motiond.sock"

    @Option(help: "The access policy file.")
    var policy = "/etc/opencoremotion/policy"

    @Option(help: "Also publish to the MQTT broker this configuration file names (Sources/MotionMQTT/PAYLOADS.md).")
    var mqtt: String?

    @Option(help: "Connections served at once; more are refused and closed.")
    var maxClients = 256

    @Option(help: "Connections of one user (uid) served at once; more are refused and closed.")
    var maxClientsPerUser = 32

    @Option(help: "Seconds a connection has to say hello, and to finish a frame it began, before it is closed.")
    var handshakeTimeout = 5.0

    @Option(help: "Seconds a repeated log line is counted before its summary is written.")
    var logRepeatWindow = 60.0

    // For MotionDaemonTests' clock test only, hence hidden (not in --help or the manual).
    @Option(help: ArgumentHelp("A file holding a simulated step of the wall clock, ns (tests).", visibility: .hidden))
    var wallClockStepFile: String?

    func run() throws {
        var configuration = DaemonConfiguration()
        configuration.board = board
        configuration.historyRoot = history
        configuration.socketPath = socket
        configuration.policyPath = policy
        guard maxClients >= 1, maxClientsPerUser >= 1, handshakeTimeout > 0, handshakeTimeout <= 3600, logRepeatWindow >= 0, logRepeatWindow <= 86_400 else {
            FileHandleLine.standardError("motiond: --max-clients and --max-clients-per-user take 1 or more, --handshake-timeout 0…3600 s, --log-repeat-window 0…86 400 s")
            throw ExitCode(2)
        }
        configuration.maximumClients = maxClients
        configuration.maximumClientsPerUser = maxClientsPerUser
        configuration.handshakeTimeoutNanoseconds = Int64(handshakeTimeout * 1e9)
        configuration.wallClockStepFile = wallClockStepFile
        DaemonLog.lines.windowNanoseconds = Int64(logRepeatWindow * 1e9)
        let daemon: Daemon
        do {
            daemon = try Daemon(configuration: configuration)
        } catch {
            FileHandleLine.standardError("motiond: \(error)")
            throw ExitCode(2)
        }
        // The publisher runs the daemon's own board file: in this process that is the daemon's
        // engine (one per board), so the broker gets what the clients get.
        var publisher: BoardPublisher?
        if let mqtt {
            do {
                let published = try BoardPublisher(board: daemon.boardPath, configuration: try MQTTConfigurationFile.load(path: mqtt),
                                                   log: { DaemonLog.say("mqtt: \($0)") })  // repeats (a broker down) summarized
                for line in try published.start() { FileHandleLine.standardError("motiond: mqtt: skipped \(line)") }
                publisher = published
            } catch {
                FileHandleLine.standardError("motiond: \(error)")
                throw ExitCode(2)
            }
        }
        let code = daemon.run()
        _ = publisher?.stop()
        if code != 0 { throw ExitCode(code) }
    }
}

enum FileHandleLine {
    static func standardError(_ line: String) {
        _ = "\(line)\n".utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }
}
