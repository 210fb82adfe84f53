import ArgumentParser
import Foundation
import MotionDaemon
import MotionDaemonProtocol

/// `motionctl status`: is motiond reachable, which board it runs, who is connected and how much
/// history it keeps.
struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show whether motiond runs, its board, its clients and its history's storage use.",
        discussion: "Exit status 1 when motiond is not reachable (the APIs then run the board in-process) or refuses you.")

    @Option(help: "motiond's socket (default: $OPENCOREMOTION_SOCKET, else \(Framing.defaultSocketPath)).")
    var socket: String?

    func run() throws {
        let path = socket ?? DaemonLink.defaultSocketPath
        let link: DaemonLink
        do {
            link = try DaemonLink(path: path, name: "motionctl status")
        } catch {
            print("daemon: not reachable: \(error.message)")
            print("        \(error.advice)")
            print("        Without it, the Swift and C APIs run the board in-process.")
            throw ExitCode(1)
        }
        let welcome = link.welcome
        print("daemon: motiond \(welcome.daemonVersion) at \(path) (protocol \(welcome.version))")
        print("you:    \(Self.name(welcome.authorization))\(welcome.authorization == .authorized && !welcome.historyAllowed ? ", live data only (policy)" : "")")
        let answer: DaemonMessage
        do {
            answer = try link.ask { .status(request: $0) }
        } catch {
            print("board:  \(welcome.boardName)")
            print("status refused: \(error.message)\n        \(error.advice)")
            throw ExitCode(1)
        }
        guard case .status(_, let status) = answer else { return }
        print("board:  \(status.boardName) (\(status.boardPath)), \(status.boardRunning ? "running" : "stopped"), up \(Self.duration(status.uptime))")
        print("history: \(status.historyPath), \(status.bytesWrittenSinceStart) bytes written since start")
        for use in status.storage {
            print("  " + use.kind.padding(toLength: 14, withPad: " ", startingAt: 0) + String(format: "%12llu bytes in %u files", use.bytes, use.files))
        }
        print("clients: \(status.clients.count)")
        for client in status.clients {
            let streams = client.streams.map { $0.interval > 0 ? "\($0.stream.name) every \(String(format: "%g", $0.interval)) s" : $0.stream.name }
            print("  pid \(client.pid) uid \(client.uid) \"\(client.name)\": \(streams.isEmpty ? "no streams" : streams.joined(separator: ", "))"
                  + (client.dropped > 0 ? "; \(client.dropped) updates dropped (reads too slowly)" : ""))
        }
    }

    static func name(_ status: WireAuthorization) -> String {
        switch status {
        case .authorized: "authorized"
        case .denied: "denied (not in group motion)"
        case .restricted: "restricted (the administrator's policy)"
        case .notDetermined: "not determined"
        }
    }

    static func duration(_ seconds: Double) -> String {
        seconds < 120 ? String(format: "%.1f s", seconds) : seconds < 7200 ? String(format: "%.1f min", seconds / 60) : String(format: "%.1f h", seconds / 3600)
    }
}
