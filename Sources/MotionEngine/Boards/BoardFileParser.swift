/// Reads board files: `key = value` lines, `# comments`, and one `[chip LABEL]` section per chip.
/// Every problem is reported with the file, line and what is expected; nothing is guessed.
///
/// ```
/// # GY-521 breakout (MPU-6050) on a Raspberry Pi
/// board = GY-521 (MPU-6050)
///
/// [chip imu]
/// driver = mpu6050
/// bus = i2c-1            # or: emulated, iio (then: device = IIO NAME, optional uri = ip:HOST), or serial:/dev/ttyAMA0 (bno08x-rvc)
/// address = 0x68
/// interrupt = GPIO17      # optional: the data-ready line's name
/// mount = x y z           # device x, y, z from chip axes, signed: e.g. "-y x z"
/// rate = 100              # optional, Hz
/// capture = buffer        # iio only: sysfs (default) or buffer (the kernel's timestamped scans)
/// trigger = t0            # iio buffer only: the trigger to drive it (default: the device's own)
/// motion = Tests/Recordings/uci_hapt_exp01_user01_stand_walk.csv.gz   # emulated only
/// noise = datasheet       # emulated only: the chip's datasheet noise (default) or off
/// hard-iron = 40 -25 10   # emulated magnetometers only: a constant offset, µT (chip axes)
/// chip-fusion = on        # bno08x, bno08x-rvc, bno055 only: also pass on the chip's own attitude, steps, classes (default off)
/// ```
public enum BoardFileParser {
    /// The chip registries' names (`ChipFamily.all`, `SerialChipFamily.all`), sorted for messages.
    public static let knownDrivers: [String] = (Array(ChipFamily.all.keys) + SerialChipFamily.all.keys).sorted()

    public static func parse(_ text: String, path: String) throws(BoardError) -> BoardDescription {
        var name: String?
        var chips: [BoardDescription.Chip] = []
        var section: (label: String, line: Int, values: [String: (value: String, line: Int)])?

        func finishSection() throws(BoardError) {
            guard let current = section else { return }
            chips.append(try chip(current.label, current.values, sectionLine: current.line, path: path))
            section = nil
        }

        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = offset + 1
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .trimmingCharacters(in: " \t\r")
            if line.isEmpty { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), case let words = line.dropFirst().dropLast().split(separator: " "),
                      words.count == 2, words[0] == "chip" else {
                    throw BoardError(path: path, line: lineNumber, problem: "expected a section header like \"[chip imu]\", found \"\(line)\"")
                }
                try finishSection()
                let label = String(words[1])
                if chips.contains(where: { $0.label == label }) {
                    throw BoardError(path: path, line: lineNumber, problem: "a second chip named \"\(label)\"")
                }
                section = (label, lineNumber, [:])
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw BoardError(path: path, line: lineNumber, problem: "expected \"key = value\", found \"\(line)\"")
            }
            let key = line[..<equals].trimmingCharacters(in: " \t")
            let value = line[line.index(after: equals)...].trimmingCharacters(in: " \t")
            guard !value.isEmpty else { throw BoardError(path: path, line: lineNumber, problem: "\"\(key)\" has no value") }
            if var current = section {
                guard ["driver", "bus", "address", "interrupt", "mount", "rate", "mode", "motion", "device", "uri", "capture", "trigger", "noise",
                       "hard-iron", "chip-fusion"].contains(key) else {
                    throw BoardError(path: path, line: lineNumber, problem: "unknown chip setting \"\(key)\"",
                                     advice: "Chip settings: driver, bus, address, interrupt, mount, rate, mode, motion, noise, hard-iron, chip-fusion, device, uri, capture, trigger.")
                }
                guard current.values[key] == nil else { throw BoardError(path: path, line: lineNumber, problem: "\"\(key)\" is set twice") }
                current.values[key] = (value, lineNumber)
                section = current
            } else {
                guard key == "board" else {
                    throw BoardError(path: path, line: lineNumber, problem: "\"\(key)\" outside a [chip …] section",
                                     advice: "Only \"board = NAME\" comes before the first chip.")
                }
                name = value
            }
        }
        try finishSection()
        guard let name else { throw BoardError(path: path, line: nil, problem: "no \"board = NAME\" line") }
        guard !chips.isEmpty else { throw BoardError(path: path, line: nil, problem: "no [chip …] section: a board needs at least one chip") }
        return BoardDescription(name: name, chips: chips)
    }

    private static func chip(_ label: String, _ values: [String: (value: String, line: Int)], sectionLine: Int,
                             path: String) throws(BoardError) -> BoardDescription.Chip {
        func required(_ key: String) throws(BoardError) -> (value: String, line: Int) {
            guard let entry = values[key] else {
                throw BoardError(path: path, line: sectionLine, problem: "chip \"\(label)\" has no \"\(key)\"")
            }
            return entry
        }
        let driver = try required("driver")
        guard knownDrivers.contains(driver.value) else {
            throw BoardError(path: path, line: driver.line, problem: "unknown driver \"\(driver.value)\"",
                             advice: "Drivers in this version: \(knownDrivers.joined(separator: ", ")).")
        }
        let busEntry = try required("bus")
        let bus: BoardDescription.Bus
        if busEntry.value == "emulated" {
            bus = .emulated
        } else if busEntry.value == "iio" {
            bus = .iio(device: try required("device").value, uri: values["uri"]?.value ?? "local:")
        } else if busEntry.value.hasPrefix("i2c-"), let number = Int(busEntry.value.dropFirst(4)), number >= 0 {
            bus = .i2c(number: number)
        } else if busEntry.value.hasPrefix("serial:/dev/") {
            bus = .serial(device: String(busEntry.value.dropFirst("serial:".count)))
        } else {
            throw BoardError(path: path, line: busEntry.line,
                             problem: "bus \"\(busEntry.value)\" is not \"i2c-N\", \"emulated\", \"iio\" or \"serial:/dev/TTY\"")
        }
        try checkSerial(driver: driver, bus: bus, busLine: busEntry.line, values, path: path)
        for key in ["device", "uri", "capture", "trigger"] where values[key] != nil {
            guard case .iio = bus else {
                throw BoardError(path: path, line: values[key]!.line, problem: "\"\(key)\" applies only to chips on bus = iio")
            }
        }
        var address: UInt8 = 0
        if SerialChipFamily.all[driver.value] != nil {
            // checkSerial refused an address: a UART has none.
        } else if case .iio = bus {
            if let entry = values["address"] {
                throw BoardError(path: path, line: entry.line, problem: "an IIO chip has no \"address\": the kernel driver addresses it",
                                 advice: "Name its IIO device instead: device = NAME (see `motionctl iio`).")
            }
        } else {
            let addressEntry = try required("address")
            guard addressEntry.value.hasPrefix("0x"), let value = UInt8(addressEntry.value.dropFirst(2), radix: 16), value >= 0x03, value <= 0x77 else {
                throw BoardError(path: path, line: addressEntry.line, problem: "address \"\(addressEntry.value)\" is not a 7-bit I2C address (0x03…0x77, written 0x..)")
            }
            address = value
        }
        var mount = BoardDescription.AxisMapping.identity
        if let mountEntry = values["mount"] {
            mount = try axisMapping(mountEntry.value, line: mountEntry.line, path: path)
        }
        var rate: Int?
        if let rateEntry = values["rate"] {
            guard let value = Int(rateEntry.value), value > 0, value <= 10_000 else {
                throw BoardError(path: path, line: rateEntry.line, problem: "rate \"\(rateEntry.value)\" is not a whole number of Hz in 1…10000")
            }
            rate = value
        }
        var mode: BoardDescription.OperatingMode?
        if let entry = values["mode"] {
            guard driver.value == "bno055" else {
                throw BoardError(path: path, line: entry.line, problem: "\"mode\" applies only to bno055 chips",
                                 advice: "Its \(driver.value) chip has one way of running: delete the line.")
            }
            guard let value = BoardDescription.OperatingMode(rawValue: entry.value) else {
                throw BoardError(path: path, line: entry.line, problem: "mode \"\(entry.value)\" is not \"ndof\" or \"amg\"",
                                 advice: "ndof: the BNO055's own fusion and background calibration (the default); amg: its three sensors alone.")
            }
            mode = value
        }
        for key in ["motion", "noise", "hard-iron"] where values[key] != nil && bus != .emulated {
            throw BoardError(path: path, line: values[key]!.line, problem: "\"\(key)\" applies only to emulated chips")
        }
        var noise = true
        if let noiseEntry = values["noise"] {
            guard ["datasheet", "off"].contains(noiseEntry.value) else {
                throw BoardError(path: path, line: noiseEntry.line, problem: "noise \"\(noiseEntry.value)\" is not \"datasheet\" or \"off\"")
            }
            noise = noiseEntry.value == "datasheet"
        }
        var capture = BoardDescription.IIOCapture.sysfs
        if let captureEntry = values["capture"] {
            switch captureEntry.value {
            case "sysfs": break
            case "buffer": capture = .buffer(trigger: values["trigger"]?.value)
            default: throw BoardError(path: path, line: captureEntry.line, problem: "capture \"\(captureEntry.value)\" is not \"sysfs\" or \"buffer\"")
            }
        }
        if let trigger = values["trigger"], capture == .sysfs {
            throw BoardError(path: path, line: trigger.line, problem: "\"trigger\" applies only with capture = buffer")
        }
        var hardIron: (Double, Double, Double)?
        if let entry = values["hard-iron"] {
            let numbers = entry.value.split(separator: " ", omittingEmptySubsequences: true).compactMap { Double($0) }
            guard numbers.count == 3, numbers.allSatisfy({ abs($0) <= 2000 }) else {
                throw BoardError(path: path, line: entry.line, problem: "hard-iron \"\(entry.value)\" is not three numbers of µT (x y z, each within ±2000)")
            }
            hardIron = (numbers[0], numbers[1], numbers[2])
        }
        var chip = BoardDescription.Chip(label: label, driver: driver.value, bus: bus, address: address,
                                     interruptLine: values["interrupt"]?.value, mount: mount,
                                     motionRecording: values["motion"]?.value, rateHertz: rate, emulatedNoise: noise, iioCapture: capture)
        chip.emulatedHardIron = hardIron.map { [$0.0, $0.1, $0.2] }
        if let entry = values["chip-fusion"] {
            if case .iio = bus, entry.value == "on" {
                throw BoardError(path: path, line: entry.line, problem: "chip-fusion needs the chip on an I2C bus (or emulated): through IIO the kernel's driver reads it")
            }
            chip.chipFusion = try chipFusion(entry, driver: driver.value, mount: mount, path: path)
            if chip.chipFusion, mode == .amg {
                throw BoardError(path: path, line: entry.line, problem: "chip-fusion = on with mode = amg: in AMG the BNO055 runs no fusion of its own",
                                 advice: "Delete the mode line (NDOF, the default, fuses) or set chip-fusion = off.")
            }
        }
        chip.mode = mode
        return chip
    }

    /// `chip-fusion = on | off`: only for a chip that fuses (its driver gives its own attitude),
    /// mounted by a rotation (a mirroring mount would turn its attitude into no rotation at all).
    private static func chipFusion(_ entry: (value: String, line: Int), driver: String, mount: BoardDescription.AxisMapping,
                                   path: String) throws(BoardError) -> Bool {
        guard entry.value == "on" || entry.value == "off" else {
            throw BoardError(path: path, line: entry.line, problem: "chip-fusion \"\(entry.value)\" is not \"on\" or \"off\"")
        }
        guard entry.value == "on" else { return false }
        guard fusingDrivers.contains(driver) else {
            throw BoardError(path: path, line: entry.line, problem: "driver \"\(driver)\" has no fusion of its own to pass on",
                             advice: "chip-fusion applies to \(fusingDrivers.joined(separator: " and ")); the engine's device motion runs on every chip.")
        }
        guard mount.rotation != nil else {
            throw BoardError(path: path, line: entry.line, problem: "chip-fusion needs a mount that is a rotation; this one mirrors an axis",
                             advice: "Check \"mount\": flipping the sign of one axis makes a mirroring mount a rotation.")
        }
        return true
    }

    /// The drivers whose chips compute their own attitude.
    public static let fusingDrivers = ["bno055", "bno08x", "bno08x-rvc"]

    /// A UART chip (bno08x-rvc) sits on `serial:/dev/…` or is emulated, and has no address,
    /// data-ready line or rate (it streams at its own fixed rate); a serial bus takes only such a chip.
    private static func checkSerial(driver: (value: String, line: Int), bus: BoardDescription.Bus, busLine: Int,
                                    _ values: [String: (value: String, line: Int)], path: String) throws(BoardError) {
        let serialDrivers = SerialChipFamily.all.keys.sorted().joined(separator: ", ")
        guard SerialChipFamily.all[driver.value] != nil else {
            if case .serial = bus {
                throw BoardError(path: path, line: busLine, problem: "driver \"\(driver.value)\" does not stream over a UART",
                                 advice: "A serial bus takes \(serialDrivers); other chips sit on i2c-N, iio or emulated.")
            }
            return
        }
        switch bus {
        case .serial, .emulated: break
        case .i2c, .iio:
            throw BoardError(path: path, line: busLine, problem: "driver \"\(driver.value)\" streams over a UART: its bus is serial:/dev/TTY or emulated",
                             advice: "Write e.g. bus = serial:/dev/ttyAMA0; for the same chip on I2C, use driver = bno08x.")
        }
        let refused = ["address": "a chip on a UART has no address",
                       "interrupt": "a chip on a UART has no data-ready line: the runtime polls it",
                       "rate": "UART-RVC frames come at a fixed 100 Hz"]
        for key in refused.keys.sorted() {
            if let entry = values[key] { throw BoardError(path: path, line: entry.line, problem: "\"\(key)\" does not apply to \(driver.value): \(refused[key]!)") }
        }
    }

    static func axisMapping(_ text: String, line: Int, path: String) throws(BoardError) -> BoardDescription.AxisMapping {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        var axes: [(index: Int, sign: Int)] = []
        for word in words {
            let negative = word.hasPrefix("-")
            let axis = negative ? word.dropFirst() : word[...]
            guard let index = ["x", "y", "z"].firstIndex(of: String(axis)) else {
                throw BoardError(path: path, line: line, problem: "mount \"\(text)\": \"\(word)\" is not an axis (x, y, z, -x, -y, -z)")
            }
            axes.append((index, negative ? -1 : 1))
        }
        guard axes.count == 3, Set(axes.map(\.index)).count == 3 else {
            throw BoardError(path: path, line: line, problem: "mount \"\(text)\" must name each of x, y, z once, e.g. \"x -y -z\"")
        }
        return BoardDescription.AxisMapping(axes: axes)
    }
}

/// A board file that cannot be used, with the line and what to write instead.
public struct BoardError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var line: Int?
    public var problem: String
    public var advice: String?

    public init(path: String, line: Int?, problem: String, advice: String? = nil) {
        self.path = path
        self.line = line
        self.problem = problem
        self.advice = advice
    }

    public var description: String {
        "\(path)\(line.map { ":\($0)" } ?? ""): \(problem)" + (advice.map { ". \($0)" } ?? "")
    }
}

extension StringProtocol {
    /// Drops leading and trailing characters in `set` (no Foundation in the engine).
    func trimmingCharacters(in set: String) -> String {
        var slice = self[...]
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}
