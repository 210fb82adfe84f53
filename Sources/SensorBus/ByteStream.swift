/// A one-way stream of bytes from a device that talks unprompted (a BNO08x in UART-RVC mode
/// sends a frame every 10 ms): a serial port (LinuxSerial) or an emulator. The driver drains
/// what has arrived and never waits; the board runtime decides when to look again.
public protocol ByteStream: AnyObject {
    /// Where the bytes come from, for messages: "/dev/ttyAMA0", "emulated UART".
    var name: String { get }

    /// Moves up to `buffer.count` bytes that have arrived into `buffer` and returns how many;
    /// 0 when none wait. Never blocks.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int
}

/// A serial port that cannot be opened or read, with what a person should do about it.
public struct SerialError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The device node does not exist (ENOENT, ENODEV, ENXIO).
        case noSuchDevice
        /// The process may not open it (EACCES, EPERM).
        case permissionDenied
        /// Another process holds it exclusively (EBUSY), e.g. a serial console's getty.
        case busy
        /// It is not a terminal (tcgetattr fails with ENOTTY): a file, or a device of another kind.
        case notATerminal
        /// The line discipline refused 115200 8N1 raw (tcsetattr or cfsetspeed failed), with errno.
        case cannotConfigure(errno: Int32)
        /// Any other failure, with its errno and the call that failed.
        case system(call: String, errno: Int32)
    }

    public var kind: Kind
    /// The device, e.g. "/dev/ttyAMA0".
    public var device: String

    public init(_ kind: Kind, device: String) {
        self.kind = kind
        self.device = device
    }

    public var description: String {
        "Serial port \(device): " + reason
    }

    private var reason: String {
        switch kind {
        case .noSuchDevice:
            return "no such device. On a Raspberry Pi enable the UART (`enable_uart=1` in /boot/firmware/config.txt, older images "
                + "/boot/config.txt) and reboot; the header's pins 8/10 are /dev/serial0 (a link to /dev/ttyAMA0 or /dev/ttyS0). "
                + "A USB adapter is /dev/ttyUSB0 or /dev/ttyACM0 (`ls /dev/tty*` before and after plugging it in)."
        case .permissionDenied:
            return "permission denied. Add yourself to group `dialout` (`sudo usermod -aG dialout $USER`, then log in again), or run as root."
        case .busy:
            return "busy: another process holds it. On a Raspberry Pi the serial console does by default: turn it off "
                + "(raspi-config → Interface Options → Serial Port: login shell no, hardware yes; or remove `console=serial0,115200` "
                + "from /boot/firmware/cmdline.txt) and reboot; `fuser -v \(device)` names any other holder."
        case .notATerminal:
            return "not a terminal (tcgetattr: ENOTTY). Name the UART's device node in the board file: bus = serial:/dev/ttyAMA0 (or /dev/serial0, /dev/ttyUSB0)."
        case .cannotConfigure(let errno):
            return "could not set 115200 baud, 8 data bits, no parity, 1 stop bit, raw (errno \(errno)). Check that the device is a UART."
        case .system(let call, let errno):
            return "\(call) failed (errno \(errno)). Check the adapter's cable; unplugging a USB adapter causes this."
        }
    }
}
