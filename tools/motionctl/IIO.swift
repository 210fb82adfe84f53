import ArgumentParser
import Foundation
import LinuxIIO

/// `motionctl iio`: the kernel's motion sensors (IIO devices), their channels and values.
struct IIO: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iio",
        abstract: "List IIO motion sensors (local or on a remote iiod) with their current values in SI units.",
        discussion: "Values are (raw + offset) × scale in OpenCoreMotion's units (m/s², rad/s, µT, Pa, °C), vectors in device axes (mount_matrix applied).")

    @Option(help: "libiio context: local: or ip:HOST.")
    var uri: String = "local:"

    @Option(help: "Set each device's sampling_frequency to the available rate nearest this, in Hz.")
    var rate: Double?

    func run() throws {
        let context = try IIOContext(uri: uri)
        let devices = context.sensorDevices()
        if devices.isEmpty { print("no IIO motion sensors in \(uri)") }
        for device in devices {
            if let rate, !device.availableSamplingFrequencies.isEmpty {
                let chosen = try device.setSamplingFrequency(nearest: rate)
                print("\(device.id) \(device.name): sampling_frequency set to \(chosen) Hz")
            }
            let frequency = device.samplingFrequency.map { " at \($0) Hz" } ?? ""
            print("\(device.id) \(device.name)\(frequency): \(device.channels.map(\.id).joined(separator: " "))")
            for value in try device.read() {
                switch value {
                case .vector(let kind, let x, let y, let z):
                    print("  \(kind.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0))" + String(format: "%12.6f %12.6f %12.6f", x, y, z))
                case .scalar(let kind, let x):
                    print("  \(kind.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0))" + String(format: "%12.6f", x))
                }
            }
        }
    }
}
