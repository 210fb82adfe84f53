import Glibc

/// Reads an MQTT configuration file: `key = value` lines under `[broker]`, `[publish]` and
/// `[stream NAME]` sections, `#` comment lines (whole lines only: a password may hold `#`).
///
///     [broker]
///     host = broker.lab.example
///     port = 8883
///     username = cart-7
///     password = correct horse battery staple
///     ca_file = /etc/ssl/certs/lab-ca.pem
///
///     [publish]
///     prefix = lab
///     board_id = cart-7
///
///     [stream device-motion]
///     rate = 50
///     qos = 0
///
/// Every key, its unit and default: Sources/MotionMQTT/PAYLOADS.md, "The configuration file".
/// Every setting is optional. An unknown section or key, a bad value or an unreadable file is an
/// error naming the file and line (the value of a secret is never repeated in a message).
package enum MQTTConfigurationFile {
    package static func load(path: String) throws(MQTTConfigurationError) -> MQTTConfiguration {
        guard let file = fopen(path, "r") else {
            throw MQTTConfigurationError(path: path, line: nil, problem: "could not open it: \(String(cString: strerror(errno))); "
                                         + "give the MQTT configuration file with --config (format: Sources/MotionMQTT/PAYLOADS.md)")
        }
        defer { fclose(file) }
        var parser = Parser(configuration: MQTTConfiguration(path: path))
        var buffer = [CChar](repeating: 0, count: 4096)
        var lineNumber = 0
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            lineNumber += 1
            let line = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            guard line.hasSuffix("\n") || feof(file) != 0 else {
                throw MQTTConfigurationError(path: path, line: lineNumber, problem: "the line is longer than \(buffer.count - 2) characters")
            }
            do throws(LineProblem) {
                try parser.take(line)
            } catch {
                throw MQTTConfigurationError(path: path, line: lineNumber, problem: error.text)
            }
        }
        if ferror(file) != 0 {
            throw MQTTConfigurationError(path: path, line: lineNumber, problem: "reading failed: \(String(cString: strerror(errno)))")
        }
        return parser.configuration
    }

    /// Whether others than the owner may read `path` (a file holding a password should not).
    package static func isReadableByOthers(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & (S_IRGRP | S_IROTH) != 0
    }

    struct LineProblem: Error { let text: String }

    private struct Parser {
        var configuration: MQTTConfiguration
        var section: Section?

        enum Section { case broker, publish, stream(MQTTStream) }

        mutating func take(_ raw: String) throws(LineProblem) {
            let line = raw.trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") { return }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { throw LineProblem(text: "a section header ends with ']': \(line)") }
                section = try Self.section(String(line.dropFirst().dropLast()).trimmingSpaces)
                return
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw LineProblem(text: "expected `key = value` or a `[section]`, got: \(line)")
            }
            let key = String(line[..<equals]).trimmingSpaces
            let value = String(line[line.index(after: equals)...]).trimmingSpaces
            switch section {
            case nil: throw LineProblem(text: "`\(key)` comes before any section: put it under [broker], [publish] or [stream NAME]")
            case .broker: try broker(key, value)
            case .publish: try publish(key, value)
            case .stream(let stream): try self.stream(stream, key, value)
            }
        }

        static func section(_ name: String) throws(LineProblem) -> Section {
            if name == "broker" { return .broker }
            if name == "publish" { return .publish }
            let words = name.split(separator: " ", omittingEmptySubsequences: true)
            if words.count == 2, words[0] == "stream" {
                guard let stream = MQTTStream(topicName: String(words[1])) else {
                    throw LineProblem(text: "unknown stream `\(words[1])`: the streams are \(MQTTStream.allCases.map(\.topicName).joined(separator: ", "))")
                }
                return .stream(stream)
            }
            throw LineProblem(text: "unknown section [\(name)]: the sections are [broker], [publish] and [stream NAME]")
        }

        mutating func broker(_ key: String, _ value: String) throws(LineProblem) {
            var b = configuration.broker
            switch key {
            case "host": b.host = try nonEmpty(key, value)
            case "port": b.port = Int32(try integer(key, value, 1...65535))
            case "client_id": b.clientID = try nonEmpty(key, value)
            case "keepalive": b.keepAliveSeconds = Int32(try integer(key, value, 5...3600))
            case "username": b.username = try nonEmpty(key, value)
            case "password":
                guard !value.isEmpty else { throw LineProblem(text: "`password` is empty: give the password, or remove the line") }
                b.password = Secret(value)
            case "ca_file": b.caFile = try nonEmpty(key, value)
            case "cert_file": b.certificateFile = try nonEmpty(key, value)
            case "key_file": b.keyFile = try nonEmpty(key, value)
            case "max_queued": b.maxQueuedMessages = try integer(key, value, 1...1_000_000)
            case "max_inflight": b.maxInflightMessages = Int32(try integer(key, value, 1...65535))
            case "reconnect_min": b.reconnectMinimumSeconds = UInt32(try integer(key, value, 1...3600))
            case "reconnect_max": b.reconnectMaximumSeconds = UInt32(try integer(key, value, 1...3600))
            default:
                throw LineProblem(text: "unknown key `\(key)` in [broker]: the keys are host, port, client_id, keepalive, username, password, "
                                  + "ca_file, cert_file, key_file, max_queued, max_inflight, reconnect_min, reconnect_max")
            }
            configuration.broker = b
        }

        mutating func publish(_ key: String, _ value: String) throws(LineProblem) {
            switch key {
            case "prefix": configuration.prefix = try topicLevels(key, value, allowSlash: true)
            case "board_id": configuration.boardID = try topicLevels(key, value, allowSlash: false)
            case "format":
                guard let format = PayloadFormat(rawValue: value) else { throw LineProblem(text: "`format` is binary or json, not `\(value)`") }
                configuration.format = format
            default: throw LineProblem(text: "unknown key `\(key)` in [publish]: the keys are prefix, board_id, format")
            }
        }

        mutating func stream(_ stream: MQTTStream, _ key: String, _ value: String) throws(LineProblem) {
            var s = configuration.settings(stream)
            switch key {
            case "enabled": s.enabled = try boolean(key, value)
            case "rate":
                guard stream.isSampled else {
                    throw LineProblem(text: "\(stream.topicName) has no rate: it is published as things happen (rate is for device-motion, altitude and the raw streams)")
                }
                guard let rate = Double(value), rate > 0, rate <= 100 else {
                    throw LineProblem(text: "`rate` is in Hz, above 0 and at most 100 (the live streams' maximum), not `\(value)`")
                }
                s.rateHertz = rate
            case "qos": s.qos = Int32(try integer(key, value, 0...2))
            case "retain": s.retain = try boolean(key, value)
            default: throw LineProblem(text: "unknown key `\(key)` in [stream \(stream.topicName)]: the keys are enabled, rate, qos, retain")
            }
            configuration.streams[stream] = s
        }

        func nonEmpty(_ key: String, _ value: String) throws(LineProblem) -> String {
            guard !value.isEmpty else { throw LineProblem(text: "`\(key)` is empty: give a value, or remove the line") }
            return value
        }

        func integer(_ key: String, _ value: String, _ range: ClosedRange<Int>) throws(LineProblem) -> Int {
            guard let number = Int(value), range.contains(number) else {
                throw LineProblem(text: "`\(key)` is a whole number from \(range.lowerBound) to \(range.upperBound), not `\(value)`")
            }
            return number
        }

        func boolean(_ key: String, _ value: String) throws(LineProblem) -> Bool {
            switch value {
            case "yes", "true", "on", "1": return true
            case "no", "false", "off", "0": return false
            default: throw LineProblem(text: "`\(key)` is yes or no, not `\(value)`")
            }
        }

        /// A prefix or board id: no MQTT wildcards (+ #), no empty levels, no spaces.
        func topicLevels(_ key: String, _ value: String, allowSlash: Bool) throws(LineProblem) -> String {
            let value = try nonEmpty(key, value)
            let bad = value.contains { "+# \t".contains($0) || (!allowSlash && $0 == "/") }
            guard !bad, !value.hasPrefix("/"), !value.hasSuffix("/"), !value.contains("//") else {
                throw LineProblem(text: "`\(key)` must be topic levels without + # spaces or empty levels\(allowSlash ? "" : " or '/'"), not `\(value)`")
            }
            return value
        }
    }
}

/// A configuration file that could not be used: "file:line: problem" and what to do.
package struct MQTTConfigurationError: Error, Sendable, CustomStringConvertible {
    package let path: String
    package let line: Int?
    package let problem: String
    package var description: String { line.map { "\(path):\($0): \(problem)" } ?? "\(path): \(problem)" }
}

extension String {
    var trimmingSpaces: String {
        var view = Substring(self)
        while let first = view.first, first.isWhitespace { view.removeFirst() }
        while let last = view.last, last.isWhitespace { view.removeLast() }
        return String(view)
    }
}
