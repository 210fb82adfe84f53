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

    @Flag(help: "Capture scans from the device's IIO buffer (triggered buffer or FIFO) instead of reading sysfs once.")
    var buffer = false

    @Option(help: "With --buffer: scans to capture.")
    var samples: Int = 10

    @Option(help: "With --buffer: trigger to write to trigger/current_trigger (e.g. an hrtimer trigger \"t0\"); default: the device's current trigger.")
    var trigger: String?

    @Option(help: "With --buffer: device name (\"bmi160\") or id (\"iio:device0\"); default: the first with a buffer.")
    var device: String?

    @Option(help: "With --buffer: seconds to wait for each scan before giving up.")
    var timeout: Double = 2

    func validate() throws {
        guard samples >= 1 else { throw ValidationError("--samples must be 1 or more, got \(samples)") }
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be more than 0 s, got \(timeout)") }
    }

    func run() throws {
        let context = try IIOContext(uri: uri)
        if buffer { return try capture(context) }
        let devices = context.sensorDevices()
        if devices.isEmpty { print("no IIO motion sensors in \(uri)") }
        for device in devices {
            if let rate, !device.availableSamplingFrequencies.isEmpty {
                let chosen = try device.setSamplingFrequency(nearest: rate)
                print("\(device.id) \(device.name): sampling_frequency set to \(chosen) Hz")
            }
            let frequency = device.samplingFrequency.map { " at \($0) Hz" } ?? ""
            print("\(device.id) \(device.name)\(frequency): \(device.channels.map(\.id).joined(separator: " "))")
            for value in try device.read() { print("  " + Self.format(value)) }
        }
    }

    /// "accel      -0.119600    -0.059800     9.797632": kind, then the value(s) in SI units.
    static func format(_ value: IIOSensorDevice.Value) -> String {
        switch value {
        case .vector(let kind, let x, let y, let z):
            kind.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0) + String(format: "%12.6f %12.6f %12.6f", x, y, z)
        case .scalar(let kind, let x):
            kind.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0) + String(format: "%12.6f", x)
        }
    }

    /// `--buffer`: one line per sample, "  <timestamp s.ns>  <kind> <values>".
    private func capture(_ context: IIOContext) throws {
        let devices = context.sensorDevices()
        let chosen: IIOSensorDevice?
        if let device {
            chosen = devices.first { $0.name == device || $0.id == device }
            guard chosen != nil else {
                throw CaptureError(description: "\(uri) has no IIO motion sensor named \"\(device)\" (it has: \(devices.map(\.name).joined(separator: ", ")))")
            }
        } else {
            chosen = devices.first { $0.supportsBufferedCapture }
            guard chosen != nil else { throw CaptureError(description: "no IIO motion sensor in \(uri) has a buffer (scan_elements/)") }
        }
        guard let sensor = chosen else { return }
        let capture = try IIOBufferedCapture(device: sensor, trigger: trigger)
        defer { capture.stop() }
        print("\(sensor.id) \(sensor.name): buffered capture of \(samples) scans, trigger \(capture.triggerName ?? "none (device FIFO)"), \(capture.layout.scanBytes) bytes per scan, channels \(capture.channels.map(\.id).joined(separator: " "))" + (capture.hasTimestamps ? " timestamp" : ""))
        let storage = UnsafeMutableBufferPointer<IIOSample>.allocate(capacity: capture.samplesPerScan)
        defer { storage.deallocate() }
        let timeoutNanoseconds = Int64(timeout * 1e9)
        for _ in 0..<samples {
            let count = try capture.read(into: storage, timeoutNanoseconds: timeoutNanoseconds)
            guard count > 0 else {
                throw CaptureError(description: "\(sensor.id) (\(sensor.name)): no scan within \(timeout) s. Is its trigger (\(capture.triggerName ?? "none")) running, e.g. the hrtimer's sampling_frequency set?")
            }
            for sample in storage[..<count] {
                let t = sample.timestampNanoseconds
                print(String(format: "  %lld.%09lld  ", t / 1_000_000_000, abs(t % 1_000_000_000)) + Self.format(sample.value))
            }
        }
    }
}

/// A `--buffer` capture that could not run, said without the usage text.
private struct CaptureError: Error, CustomStringConvertible {
    var description: String
}
