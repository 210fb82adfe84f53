import Glibc
import LinuxGPIO
import Testing

@Suite struct DataReadyLineTests {
    /// Through the real libgpiod: a name no chip has is reported with how to list the names.
    /// (Edge events are exercised against the kernel's gpio-sim in the QEMU tests, issue 4.)
    @Test func anUnknownLineNameIsExplained() {
        let error = #expect(throws: GPIOError.self) { _ = try DataReadyLine(name: "OCM_NO_SUCH_LINE_42") }
        // Without any gpiochip (this CI machine) or with chips lacking the name, the answer is
        // the same: no such line.
        if !hasGPIOChip() || error?.problem.contains("no GPIO line is named") == true {
            #expect(error?.description == "Data-ready line \"OCM_NO_SUCH_LINE_42\": no GPIO line is named \"OCM_NO_SUCH_LINE_42\". Line names come from the device tree; `gpioinfo` lists them (on a Raspberry Pi: GPIO17 for header pin 11).")
        }
    }
}

/// Whether /dev has a gpiochip (without Foundation).
func hasGPIOChip() -> Bool {
    guard let directory = opendir("/dev") else { return false }
    defer { closedir(directory) }
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name.hasPrefix("gpiochip") { return true }
    }
    return false
}
