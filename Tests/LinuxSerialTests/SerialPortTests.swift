import Glibc
import LinuxSerial
import SensorBus
import Testing
import TestSupport

/// The termios port against what a real system gives: a pseudo-terminal (a tty with termios,
/// like a UART), a path that does not exist, and a device that is no terminal. Blocking: the
/// pseudo-terminal's bytes are waited for in 1 ms sleeps.
@Suite(.blocking) struct SerialPortTests {
    /// A pseudo-terminal pair: the master end (write here, as the hub would) and the slave's path.
    final class PseudoTerminal {
        let master: Int32
        let slavePath: String

        /// glibc's pseudo-terminal calls, which its Swift module map leaves out (they need
        /// _XOPEN_SOURCE): looked up by name in the C library already loaded.
        private static func function<T>(_ name: String, as type: T.Type) throws -> T {
            unsafeBitCast(try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), name), "\(name) not in libc"), to: type)
        }

        init() throws {
            let open = try Self.function("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
            let grant = try Self.function("grantpt", as: (@convention(c) (Int32) -> Int32).self)
            let unlock = try Self.function("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
            let name = try Self.function("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
            master = open(O_RDWR | O_NOCTTY)
            try #require(master >= 0 && grant(master) == 0 && unlock(master) == 0, "posix_openpt: errno \(errno)")
            slavePath = String(cString: try #require(name(master)))
        }

        deinit { close(master) }

        func send(_ bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        }
    }

    /// Bytes written at the master come out of the port raw: 0xAA, 0x0D, 0x0A, 0x03 (which a
    /// cooked tty would turn into line ends or a signal) arrive as sent, and nothing waits
    /// when nothing was sent.
    @Test func aPseudoTerminalDeliversBytesRawAndNeverBlocks() throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort(path: pty.slavePath)
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(try buffer.withUnsafeMutableBytes { try port.read(into: $0) } == 0, "nothing sent: 0, at once")
        let sent: [UInt8] = [0xAA, 0xAA, 0x0D, 0x0A, 0x03, 0x11, 0x13, 0x7F, 0x00, 0xFF]
        pty.send(sent)
        var received: [UInt8] = []
        for _ in 0..<100 where received.count < sent.count {
            let count = try buffer.withUnsafeMutableBytes { try port.read(into: $0) }
            received += buffer[0..<count]
            if count == 0 { usleep(1000) }
        }
        #expect(received == sent)
    }

    @Test func aSecondOpenOfTheSamePortIsBusy() throws {
        let pty = try PseudoTerminal()
        let first = try SerialPort(path: pty.slavePath)
        #expect(throws: SerialError(.busy, device: pty.slavePath)) { _ = try SerialPort(path: pty.slavePath) }
        #expect(first.name == pty.slavePath)
    }

    @Test func aMissingDeviceSaysHowToEnableTheUART() {
        let error = #expect(throws: SerialError.self) { _ = try SerialPort(path: "/dev/ttyOCM-missing") }
        #expect(error?.kind == .noSuchDevice)
        #expect(error?.description.hasPrefix("Serial port /dev/ttyOCM-missing: no such device. On a Raspberry Pi enable the UART (`enable_uart=1`") == true,
                "\(String(describing: error))")
    }

    @Test func aDeviceThatIsNoTerminalIsNamedAsSuch() {
        let error = #expect(throws: SerialError.self) { _ = try SerialPort(path: "/dev/null") }
        #expect(error?.kind == .notATerminal)
        #expect(error?.description.contains("/dev/null: not a terminal") == true, "\(String(describing: error))")
    }

    /// EACCES as an unprivileged user meets it (root opens anything: then the message alone).
    @Test func permissionDeniedAdvisesTheDialoutGroup() throws {
        #expect(SerialError(.permissionDenied, device: "/dev/ttyAMA0").description
                == "Serial port /dev/ttyAMA0: permission denied. Add yourself to group `dialout` (`sudo usermod -aG dialout $USER`, then log in again), or run as root.")
        guard geteuid() != 0 else { return }
        let path = "/tmp/ocm-serial-\(getpid())"
        let descriptor = open(path, O_CREAT | O_WRONLY, 0o000)
        try #require(descriptor >= 0)
        close(descriptor)
        defer { unlink(path) }
        #expect(throws: SerialError(.permissionDenied, device: path)) { _ = try SerialPort(path: path) }
    }
}
