import ArgumentParser
import Glibc
import MotionMQTT
import Synchronization

/// `--config FILE`: the MQTT configuration file (broker, credentials, TLS, topics, streams;
/// format in Sources/MotionMQTT/PAYLOADS.md). Secrets are read from it only, never from options.
struct MQTTConfigOption: ParsableArguments {
    @Option(name: .customLong("config"), help: "The MQTT configuration file: broker, credentials, TLS, prefix, streams (Sources/MotionMQTT/PAYLOADS.md).")
    var path: String

    /// The configuration, or an error naming the file and line; warns (never showing the
    /// secret) when a file holding a password is readable by others.
    func load() throws -> MQTTConfiguration { try Self.load(path: path) }

    static func load(path: String) throws -> MQTTConfiguration {
        let configuration: MQTTConfiguration
        do {
            configuration = try MQTTConfigurationFile.load(path: path)
        } catch {
            throw ValidationError("error: \(error)")
        }
        if configuration.broker.password != nil, MQTTConfigurationFile.isReadableByOthers(path) {
            standardError("warning: \(path) holds a password and is readable by others: chmod 600 \(path)")
        }
        return configuration
    }
}

/// One line on standard error, at once (one write: lines from several threads do not mix).
func standardError(_ line: String) { writeLine(line, to: 2) }

/// One line on standard output, at once (unbuffered: `subscribe` is read through pipes).
func standardOutput(_ line: String) { writeLine(line, to: 1) }

private func writeLine(_ line: String, to descriptor: Int32) {
    let bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
    }
}

/// Set by SIGINT or SIGTERM: a command running until stopped ends cleanly at the next check.
let stopRequested = StopFlag()

final class StopFlag: Sendable {
    /// An atomic, not a lock: the signal handler may interrupt any code.
    private let raised = Atomic<Bool>(false)
    var isRaised: Bool { raised.load(ordering: .acquiring) }

    /// Routes SIGINT and SIGTERM here.
    func install() {
        signal(SIGINT) { _ in stopRequested.raise() }
        signal(SIGTERM) { _ in stopRequested.raise() }
    }

    func raise() { raised.store(true, ordering: .releasing) }
}
