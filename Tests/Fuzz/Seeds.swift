// Seeds for the binary targets, made by the project's own encoders (tools/fuzz/run.sh writes
// them with OCM_FUZZ_WRITE_SEEDS=DIR before fuzzing): a valid frame or payload of each kind
// gets the fuzzer past the magic numbers and lengths at once.
internal import Glibc
internal import MotionDaemonProtocol
@testable internal import MotionMQTT

enum Seeds {
    static func write(to folder: String) {
        var client: [[UInt8]] = []
        let hello = ClientMessage.hello(version: Framing.version, name: "fuzz seed").frame.bytes
        client.append([0xFF] + hello)
        for message in [ClientMessage.subscribe(request: 1, stream: .deviceMotion, interval: 0.01, from: 0, frame: 1),
                        .unsubscribe(request: 2, stream: .accelerometer),
                        .queryPedometer(request: 3, from: 1_700_000_000, to: 1_700_003_600),
                        .queryActivity(request: 4, from: 1_700_000_000, to: 1_700_003_600),
                        .queryAccelerometer(request: 5, from: 1_700_000_000, to: 1_700_000_060),
                        .recordAccelerometer(request: 6, duration: 60), .status(request: 7),
                        .subscribeAltitude(request: 8, stream: .absoluteAltitude, seaLevelPressure: 101.325, uncertainty: 0.1)] {
            client.append([0xFF] + hello + message.frame.bytes)
        }
        save(client, "wire-daemon", folder)

        var daemon: [[UInt8]] = []
        for message in [DaemonMessage.ok(request: 1), .dropped(stream: .gyroscope, count: 3, total: 9),
                        .recording(request: 2, until: 1_700_000_060),
                        .error(request: 0, code: .busy, message: "busy", advice: "wait")] {
            daemon.append([0xFF] + message.frame.bytes)
        }
        save(daemon, "wire-client", folder)

        var payloads: [[UInt8]] = []
        let fields: [(MQTTStream, MotionMessage.Fields)] = [
            (.accelerometer, .vector(x: 0.1, y: -0.2, z: 9.8)), (.gyroscope, .vector(x: 0, y: 0, z: 1)),
            (.magnetometer, .vector(x: 20, y: 0, z: -40)), (.altitude, .altitude(relativeAltitudeMeters: 1.5, pressureKilopascals: 101)),
            (.pedometerEvent, .pedometerEvent(isResume: true, timeUnixNanoseconds: 1_700_000_000_000_000_000)),
            (.activity, .activity(ActivityFields(flags: 2, confidence: 1, startUnixNanoseconds: 1_700_000_000_000_000_000))),
        ]
        for (stream, fields) in fields {
            payloads.append(BinaryPayload.encode(MotionMessage(stream: stream, sequence: 7, timestampUnixNanoseconds: 1_700_000_000_000_000_000,
                                                               fields: fields)))
        }
        save(payloads, "mqtt-binary-payload", folder)
        save(payloads.map { Array("ocm/board-1/accelerometer".utf8) + [0] + $0 }, "mqtt-message", folder)

        let chips = ChipTargets.seeds()
        save(chips.chips, "chips", folder)
        save(chips.ms5837, "chip-ms5837", folder)
        save(SerialTargets.seeds(), "uart-rvc", folder)
    }

    private static func save(_ inputs: [[UInt8]], _ target: String, _ folder: String) {
        mkdir("\(folder)/\(target)", 0o755)
        for (index, input) in inputs.enumerated() {
            input.withUnsafeBytes { _ = ScratchFile.write($0, path: "\(folder)/\(target)/encoded-\(index)") }
        }
    }
}
