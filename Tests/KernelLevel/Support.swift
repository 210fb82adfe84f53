import Glibc
import LinuxIIO

/// A check that did not hold, with what was seen.
struct CheckFailure: Error, CustomStringConvertible {
    var description: String
}

/// Counts checks and prints one `ok NAME` / `FAIL NAME: why` line each, then the summary line
/// tools/test-kernel-qemu.sh looks for.
struct Report {
    var passed = 0
    var failed = 0

    mutating func check(_ name: String, _ body: () throws -> Void) {
        do {
            try body()
            passed += 1
            print("ok \(name)")
        } catch {
            failed += 1
            // Any error our libraries throw describes itself (IIOError, BusError, GPIOError).
            print("FAIL \(name): \(error)")
        }
        fflush(nil)  // every stream: the line reaches the serial console even if the next check hangs
    }

    func finish() -> Never {
        print("\(passed) passed, \(failed) failed")
        fflush(nil)
        exit(failed == 0 ? 0 : 1)
    }
}

func expect(_ condition: Bool, _ why: @autoclosure () -> String) throws(CheckFailure) {
    if !condition { throw CheckFailure(description: why()) }
}

func environment(_ name: String) throws(CheckFailure) -> String {
    guard let value = getenv(name) else {
        throw CheckFailure(description: "$\(name) is not set: the guest's /init (tools/kernel-level/init.sh) sets it up")
    }
    return String(cString: value)
}

func monotonicNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

// MARK: - sysfs, without Foundation

/// The whole file, trailing whitespace removed; nil when it cannot be read.
func readText(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 { return nil }
        if count == 0 { break }
        bytes += chunk[0..<count]
    }
    // sysfs ends values with a newline (some attributes with padding after it, too).
    while let last = bytes.last, last == 10 || last == 32 || last == 0 { bytes.removeLast() }
    return String(decoding: bytes, as: UTF8.self)
}

/// Writes `text` to a sysfs file in one write(2), as `echo` would.
func writeText(_ path: String, _ text: String) throws(CheckFailure) {
    let descriptor = open(path, O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw CheckFailure(description: "open \(path): \(String(cString: strerror(errno)))") }
    defer { close(descriptor) }
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    if written != bytes.count { throw CheckFailure(description: "write \"\(text)\" to \(path): \(String(cString: strerror(errno)))") }
}

/// The resolved path of a sysfs link, e.g. /sys/devices/i2c-0/0-0076/iio:device0.
func resolvedPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}

// MARK: - values

func vector(_ values: [IIOSensorDevice.Value], _ kind: IIOChannelKind) -> (Double, Double, Double)? {
    for case .vector(let found, let x, let y, let z) in values where found == kind { return (x, y, z) }
    return nil
}

func scalar(_ values: [IIOSensorDevice.Value], _ kind: IIOChannelKind) -> Double? {
    for case .scalar(let found, let value) in values where found == kind { return value }
    return nil
}

/// Within `relative` of `expected` (and exactly 0 for 0: the kernel scales 0 to 0).
func near(_ actual: Double, _ expected: Double, relative: Double) -> Bool {
    abs(actual - expected) <= abs(expected) * relative
}

func expectVector(_ values: [IIOSensorDevice.Value], _ kind: IIOChannelKind, _ expected: (Double, Double, Double),
                  relative: Double, _ what: String, quiet: Bool = false) throws(CheckFailure) {
    guard let actual = vector(values, kind) else { throw CheckFailure(description: "\(what): no \(kind.rawValue) vector in \(values)") }
    try expect(near(actual.0, expected.0, relative: relative) && near(actual.1, expected.1, relative: relative)
               && near(actual.2, expected.2, relative: relative),
               "\(what): \(kind.rawValue) read \(actual), datasheet gives \(expected) (±\(relative * 100) %)")
    if !quiet { print("  \(what) \(kind.rawValue) \(actual.0) \(actual.1) \(actual.2)") }
}

func expectScalar(_ values: [IIOSensorDevice.Value], _ kind: IIOChannelKind, _ expected: Double,
                  tolerance: Double, _ what: String) throws(CheckFailure) {
    guard let actual = scalar(values, kind) else { throw CheckFailure(description: "\(what): no \(kind.rawValue) value in \(values)") }
    try expect(abs(actual - expected) <= tolerance, "\(what): \(kind.rawValue) read \(actual), datasheet gives \(expected) (±\(tolerance))")
    print("  \(what) \(kind.rawValue) \(actual)")
}

let standardGravity = 9.80665
let radiansPerDegree = Double.pi / 180
