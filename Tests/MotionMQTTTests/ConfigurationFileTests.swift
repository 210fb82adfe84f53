import Foundation
@testable import MotionMQTT
import Testing

/// The configuration file: every setting, and errors that name the file and line.
struct ConfigurationFileTests {
    func write(_ text: String) -> String {
        let path = NSTemporaryDirectory() + "ocm-mqtt-\(UUID().uuidString).conf"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        return path
    }

    @Test func everySettingIsRead() throws {
        let path = write("""
            # a lab cart
            [broker]
            host = broker.lab.example
            client_id = cart-7
            username = cart-7
            password = s3cret#with-hash
            ca_file = /etc/ssl/lab-ca.pem
            max_queued = 500
            reconnect_min = 2
            reconnect_max = 20

            [publish]
            prefix = lab/floor-2
            board_id = cart-7
            format = json

            [stream device-motion]
            rate = 25
            qos = 1
            [stream accelerometer]
            enabled = yes
            [stream pedometer]
            retain = yes
            """)
        defer { unlink(path) }
        let configuration = try MQTTConfigurationFile.load(path: path)
        #expect(configuration.broker.host == "broker.lab.example")
        #expect(configuration.broker.resolvedPort == 8883)  // TLS without a port
        #expect(configuration.broker.password?.value == "s3cret#with-hash")
        #expect(configuration.broker.maxQueuedMessages == 500)
        #expect(configuration.broker.reconnectMinimumSeconds == 2 && configuration.broker.reconnectMaximumSeconds == 20)
        #expect(configuration.topic(board: configuration.boardID!, "activity") == "lab/floor-2/cart-7/activity")
        #expect(configuration.format == .json)
        #expect(configuration.settings(.deviceMotion).rateHertz == 25 && configuration.settings(.deviceMotion).qos == 1)
        #expect(configuration.settings(.accelerometer).enabled && !configuration.settings(.gyroscope).enabled)
        #expect(configuration.settings(.pedometer).retain && configuration.settings(.pedometer).qos == 1)
        #expect(configuration.settings(.activity).qos == 1 && configuration.settings(.altitude).qos == 0)
        // The password never shows in descriptions.
        #expect(!"\(configuration.broker)".contains("s3cret"))
        var dumped = ""
        dump(configuration, to: &dumped)
        #expect(!dumped.contains("s3cret"))
    }

    @Test(arguments: [
        ("[broker]\nhost = a\nprot = 1883\n", 3, "unknown key `prot`"),
        ("[broker]\nport = 70000\n", 2, "from 1 to 65535"),
        ("[stream pedometer]\nrate = 10\n", 2, "has no rate"),
        ("[stream device-motion]\nrate = 400\n", 2, "at most 100"),
        ("[stream device-motion]\nqos = 3\n", 2, "from 0 to 2"),
        ("[stream steps]\n", 1, "unknown stream `steps`"),
        ("host = a\n", 1, "before any section"),
        ("[publish]\nboard_id = a/b\n", 2, "without + #"),
        ("[broker]\npassword =\n", 2, "`password` is empty"),
        ("\n\n[publish\n", 3, "ends with ']'"),
    ])
    func errorsNameTheFileAndLine(text: String, line: Int, problem: String) {
        let path = write(text)
        defer { unlink(path) }
        do {
            _ = try MQTTConfigurationFile.load(path: path)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.line == line)
            #expect(error.description.hasPrefix("\(path):\(line): "), "\(error)")
            #expect(error.description.contains(problem), "\(error)")
        }
    }

    @Test func aMissingFileSaysSo() {
        #expect(throws: MQTTConfigurationError.self) { try MQTTConfigurationFile.load(path: "/nonexistent/mqtt.conf") }
    }

    @Test func aPasswordLineErrorDoesNotRepeatTheSecret() {
        let path = write("[broker]\npassword = hunter2\nkeepalive = 1\n")
        defer { unlink(path) }
        do {
            _ = try MQTTConfigurationFile.load(path: path)
            Issue.record("keepalive 1 accepted")
        } catch {
            #expect(error.line == 3 && !error.description.contains("hunter2"))
        }
    }
}
