import ArgumentParser
import Chips
import Foundation
import LinuxI2C

/// `motionctl probe`: which known chips answer on the I2C buses, as a board file.
struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Scan I2C buses for known chips and print a board file for what answers.",
        discussion: "Reads identity registers only; nothing is configured. Addresses a kernel driver owns are listed as comments.")

    @Option(help: "Scan only /dev/i2c-N (default: every /dev/i2c-*).")
    var bus: Int?

    func run() throws {
        let buses = try bus.map { [$0] } ?? (try FileManager.default.contentsOfDirectory(atPath: "/dev"))
            .filter { $0.hasPrefix("i2c-") }.compactMap { Int($0.dropFirst(4)) }.sorted()
        guard !buses.isEmpty else { throw NoBusError() }
        let opened = try buses.map { (number: $0, bus: try LinuxI2CBus(bus: $0)) }
        print("board = probed \(ProcessInfo.processInfo.hostName)")
        var found = 0
        for (number, linuxBus) in opened {
            for finding in try ChipProbe.probe(linuxBus) {
                let address = String(format: "0x%02x", finding.address)
                switch finding.outcome {
                case .identified(let driver, let chip):
                    found += 1
                    print("\n[chip \(driver.replacingOccurrences(of: "-", with: "_"))_\(number)_\(address.dropFirst(2))]   # \(chip)")
                    print("driver = \(driver)\nbus = i2c-\(number)\naddress = \(address)\nmount = x y z   # measure and correct for your mounting")
                case .ownedByKernelDriver:
                    print("\n# i2c-\(number) \(address): a kernel driver owns this address; read it through IIO (not yet supported) or unbind the driver")
                }
            }
        }
        if found == 0 { print("\n# no known chip answered on \(buses.map { "/dev/i2c-\($0)" }.joined(separator: ", "))") }
    }
}

struct NoBusError: Error, CustomStringConvertible {
    var description: String {
        "No I2C bus (/dev/i2c-*) exists. Enable I2C (on a Raspberry Pi: `dtparam=i2c_arm=on` in config.txt, or raspi-config) and load the i2c-dev module (`sudo modprobe i2c-dev`)."
    }
}
