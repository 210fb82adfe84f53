// libFuzzer's entry point for every fuzz target (tools/fuzz/build.sh builds them into one
// binary; tools/fuzz/run.sh runs each with its corpus). OCM_FUZZ_TARGET names the target.
//
// A target feeds the input to one parser or decoder exactly as the project's code receives it
// (bytes from a socket, a file, an MQTT payload, a chip's registers) and checks what must hold
// for any input: no trap, no memory error (AddressSanitizer), no hang, and where a decoder has
// an encoder, that re-encoding what it decoded is stable.
internal import Glibc

enum FuzzTarget: String, CaseIterable, Sendable {
    case wireDaemon = "wire-daemon"
    case wireClient = "wire-client"
    case recording
    case boardFile = "board-file"
    case calibration
    case policy
    case mqttConfiguration = "mqtt-configuration"
    case mqttBinaryPayload = "mqtt-binary-payload"
    case mqttMessage = "mqtt-message"
    case iio
    case chips
    case chipMS5837 = "chip-ms5837"
    case uartRVC = "uart-rvc"

    func run(_ bytes: UnsafeRawBufferPointer) {
        switch self {
        case .wireDaemon: WireProtocolTargets.daemonSide(bytes)
        case .wireClient: WireProtocolTargets.clientSide(bytes)
        case .recording: FileTargets.recording(bytes)
        case .boardFile: FileTargets.boardFile(bytes)
        case .calibration: FileTargets.calibration(bytes)
        case .policy: FileTargets.policy(bytes)
        case .mqttConfiguration: FileTargets.mqttConfiguration(bytes)
        case .mqttBinaryPayload: MQTTTargets.binaryPayload(bytes)
        case .mqttMessage: MQTTTargets.message(bytes)
        case .iio: IIOTargets.sysfs(bytes)
        case .chips: ChipTargets.registerBytes(bytes, includingMS5837: false)
        case .chipMS5837: ChipTargets.registerBytes(bytes, includingMS5837: true)
        case .uartRVC: SerialTargets.rvcStream(bytes)
        }
    }
}

/// The target OCM_FUZZ_TARGET names; the process exits with the list when it names none.
/// With OCM_FUZZ_WRITE_SEEDS=DIR set instead, the process writes the encoded seeds (Seeds.swift)
/// under DIR and exits.
let selectedTarget: FuzzTarget = {
    if let folder = getenv("OCM_FUZZ_WRITE_SEEDS") {
        Seeds.write(to: String(cString: folder))
        _exit(0)  // not exit(): libFuzzer reports an exit() as a crash
    }
    let name = getenv("OCM_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: " ")
        printError("ocm-fuzz: set OCM_FUZZ_TARGET to one of: \(names) (\"\(name)\" is none of them)")
        _exit(2)
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    selectedTarget.run(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}

/// A failed property: what a target checks beyond "no crash". Traps, so libFuzzer keeps the input.
func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        printError("ocm-fuzz: property failed: \(message())")
        abort()
    }
}

/// A scratch file holding the input, for parsers that read a path (one per process: libFuzzer
/// runs inputs one after another in a process).
enum ScratchFile {
    static let path: String = {
        let folder = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        return "\(folder)/ocm-fuzz-\(getpid())"
    }()

    static func write(_ bytes: UnsafeRawBufferPointer, path: String = ScratchFile.path) -> String {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        fuzzCheck(descriptor >= 0, "could not create \(path)")
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            fuzzCheck(written > 0, "could not write \(path)")
            offset += written
        }
        close(descriptor)
        return path
    }
}

/// A line on standard error (write(2): stderr the C global is not concurrency-safe in Swift 6).
func printError(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { bytes in _ = Glibc.write(2, bytes.baseAddress, bytes.count) }
}
