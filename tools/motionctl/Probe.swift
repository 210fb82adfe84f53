import ArgumentParser
import Foundation
import MotionEngine

/// `motionctl probe`: which known chips answer on the I2C buses, as a board file; with
/// `--write`, the system's board file (`SystemBoard`) for managers and motiond.
struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Scan I2C buses for known chips and print a board file for what answers (--write: make it the system's board).",
        discussion: """
            Reads identity registers only; nothing is configured. Addresses a kernel driver owns are listed as comments.
            --write saves the board file as the system's board, /etc/opencoremotion/board (OPENCOREMOTION_CONFIG_DIR replaces
            /etc/opencoremotion), which CMMotionManager() and the other managers use when motiond does not run; it refuses
            when no IMU answered. Edit its mount lines for how the chips sit in your device.
            """)

    @Option(help: "Scan only /dev/i2c-N (default: every /dev/i2c-*).")
    var bus: Int?

    @Flag(help: "Write the board file to the system's configuration (default /etc/opencoremotion/board) instead of printing it.")
    var write = false

    @Option(help: "With --write: the file to write instead of the system's.")
    var output: String?

    func run() throws {
        let buses = bus.map { [$0] } ?? ProbedBoard.linuxBuses()
        guard !buses.isEmpty else { throw NoBusError() }
        let probes = try ProbedBoard.probe(buses: buses)
        let text = ProbedBoard.boardFile(name: "probed \(ProcessInfo.processInfo.hostName)", probes: probes)
        guard write else { return print(text, terminator: "") }
        let path = output ?? SystemBoard.configurationFile()
        guard ProbedBoard.hasIMU(probes) else {
            throw ProbeWriteError(path: path, problem: "no IMU answered on \(buses.map { "i2c-\($0)" }.joined(separator: ", ")), so there is no board to write",
                                  advice: "Check the wiring and that I2C is enabled (`sudo raspi-config`, Interface Options → I2C); "
                                      + "`motionctl probe` shows what answers.")
        }
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder.isEmpty ? "." : folder, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw ProbeWriteError(path: path, problem: "could not write it: \(error.localizedDescription)",
                                  advice: "Run as root (`sudo motionctl probe --write`), or give --output FILE and name it in OPENCOREMOTION_BOARD.")
        }
        print("wrote \(path): \(probes.flatMap(\.findings).compactMap(\.driver).joined(separator: ", ")); edit its mount lines for your device")
    }
}

struct NoBusError: Error, CustomStringConvertible {
    var description: String {
        "No I2C bus (/dev/i2c-*) exists. Enable I2C (on a Raspberry Pi: `dtparam=i2c_arm=on` in config.txt, or raspi-config) and load the i2c-dev module (`sudo modprobe i2c-dev`)."
    }
}

struct ProbeWriteError: Error, CustomStringConvertible {
    var path: String
    var problem: String
    var advice: String

    var description: String { "Could not write the system's board file \(path): \(problem). \(advice)" }
}
