public import Chips
import Glibc
import LinuxI2C
public import SensorBus

/// What answered on one I2C bus (`ChipProbe`'s findings for /dev/i2c-N).
public struct BusProbe: Sendable, Equatable {
    public var bus: Int
    public var findings: [ChipProbe.Finding]

    public init(bus: Int, findings: [ChipProbe.Finding]) {
        self.bus = bus
        self.findings = findings
    }
}

/// A board file made from what answers on the I2C buses: `motionctl probe` prints it (or
/// writes the system's board file with `--write`), and a manager with no configured board
/// uses it in memory (`SystemBoard`). Reads identity registers only; nothing is configured.
public enum ProbedBoard {
    /// The drivers of chips with an accelerometer and a gyroscope: without one, a board gives
    /// neither device motion nor steps, so a probe that finds none is reported, not used.
    public static let imuDrivers: Set<String> = ["mpu6050", "mpu9250", "icm20948", "bno08x", "bno055", "bmi160", "lsm9ds1", "lsm6dsx",
                                                   "lsm6dsx-fifo", "lsm6dsv16x", "lsm6ds3-fifo"]

    /// The N of every /dev/i2c-N under `devices`, ascending.
    public static func linuxBuses(devices: String = "/dev") -> [Int] {
        guard let directory = opendir(devices) else { return [] }
        defer { closedir(directory) }
        var buses: [Int] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("i2c-"), let number = Int(name.dropFirst(4)) { buses.append(number) }
        }
        return buses.sorted()
    }

    /// Probes /dev/i2c-N for each N in `buses`. Throws the first bus that could not be opened or
    /// read (no permission, a broken bus): an unreadable bus must not look empty.
    public static func probe(buses: [Int]) throws(BusError) -> [BusProbe] {
        var probes: [BusProbe] = []
        for number in buses {
            let bus = try LinuxI2CBus(bus: number)
            probes.append(BusProbe(bus: number, findings: try ChipProbe.probe(bus)))
        }
        return probes
    }

    /// Whether an IMU answered on any bus.
    public static func hasIMU(_ probes: [BusProbe]) -> Bool {
        probes.contains { $0.findings.contains { imuDrivers.contains($0.driver ?? "") } }
    }

    /// The board file for `probes`: one `[chip]` per identified chip (mounting left as the
    /// chip's axes, with a comment to correct it), a comment per address a kernel driver owns,
    /// and one saying so when nothing known answered. `BoardFileParser` accepts it.
    public static func boardFile(name: String, probes: [BusProbe]) -> String {
        var lines = ["# Written by `motionctl probe` from what answered on the I2C buses; edit the mount lines.", "board = \(name)"]
        var found = 0
        for probe in probes {
            for finding in probe.findings {
                let address = hexadecimal(finding.address)
                switch finding.outcome {
                case .identified(let driver, let chip):
                    found += 1
                    lines += ["", "[chip \(driver.replacingOccurrences("-", "_"))_\(probe.bus)_\(address.dropFirst(2))]   # \(chip)",
                              "driver = \(driver)", "bus = i2c-\(probe.bus)", "address = \(address)",
                              "mount = x y z   # measure and correct for your mounting"]
                case .ownedByKernelDriver:
                    lines += ["", "# i2c-\(probe.bus) \(address): a kernel driver owns this address; read it through IIO or unbind the driver"]
                }
            }
        }
        if found == 0 { lines += ["", "# no known chip answered on \(probes.map { "/dev/i2c-\($0.bus)" }.joined(separator: ", "))"] }
        return lines.joined(separator: "\n") + "\n"
    }

    static func hexadecimal(_ value: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return "0x" + String(digits[Int(value >> 4)]) + String(digits[Int(value & 0xF)])
    }
}

extension ChipProbe.Finding {
    /// The board-file driver of an identified chip; nil for an address a kernel driver owns.
    public var driver: String? {
        if case .identified(let driver, _) = outcome { return driver }
        return nil
    }
}

extension String {
    fileprivate func replacingOccurrences(_ target: Character, _ replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}
