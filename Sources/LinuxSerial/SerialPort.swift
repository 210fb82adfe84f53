public import SensorBus
import Glibc

/// A UART read raw through POSIX termios: opened non-blocking at 115200 baud, 8 data bits, no
/// parity, 1 stop bit, no flow control, no echo or line editing (what a BNO08x sends in
/// UART-RVC mode: BNO080 data sheet 1000-3927 §1.3.5.1). Bytes that wait when it opens are
/// dropped: they may be the tail of a frame sent before.
///
/// Errors say which device and what to do (a missing node: enable the UART; EACCES: join
/// `dialout`; EBUSY or another holder's lock: the serial console).
public final class SerialPort: ByteStream {
    public let name: String
    private let descriptor: Int32

    /// Opens `path` (e.g. "/dev/ttyAMA0") and sets it up.
    public init(path: String) throws(SerialError) {
        name = path
        let descriptor = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw SerialError(Self.openFailure(errno), device: path) }
        self.descriptor = descriptor
        do {
            try configure(baud: speed_t(B115200))
        } catch {
            Glibc.close(descriptor)
            throw error
        }
    }

    deinit { Glibc.close(descriptor) }

    private static func openFailure(_ code: Int32) -> SerialError.Kind {
        switch code {
        case ENOENT, ENODEV, ENXIO: .noSuchDevice
        case EACCES, EPERM: .permissionDenied
        case EBUSY: .busy
        default: .system(call: "open", errno: code)
        }
    }

    private func configure(baud: speed_t) throws(SerialError) {
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else {
            throw SerialError(errno == ENOTTY || errno == EINVAL ? .notATerminal : .system(call: "tcgetattr", errno: errno), device: name)
        }
        // Another program of ours (or any that locks, as pyserial's exclusive mode does) reading it.
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            throw SerialError(errno == EWOULDBLOCK ? .busy : .system(call: "flock", errno: errno), device: name)
        }
        cfmakeraw(&settings)
        settings.c_cflag &= ~(tcflag_t(CSTOPB) | tcflag_t(PARENB) | tcflag_t(CRTSCTS) | tcflag_t(CSIZE))
        settings.c_cflag |= tcflag_t(CS8) | tcflag_t(CLOCAL) | tcflag_t(CREAD)
        settings.c_iflag &= ~(tcflag_t(IXON) | tcflag_t(IXOFF) | tcflag_t(IXANY))
        guard cfsetispeed(&settings, baud) == 0, cfsetospeed(&settings, baud) == 0,
              tcsetattr(descriptor, TCSANOW, &settings) == 0 else {
            throw SerialError(.cannotConfigure(errno: errno), device: name)
        }
        // tcsetattr succeeds if any change took: read back what the driver kept.
        var applied = termios()
        guard tcgetattr(descriptor, &applied) == 0, cfgetispeed(&applied) == baud, applied.c_cflag & tcflag_t(CSIZE) == tcflag_t(CS8) else {
            throw SerialError(.cannotConfigure(errno: 0), device: name)
        }
        tcflush(descriptor, TCIFLUSH)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let count = Glibc.read(descriptor, base, buffer.count)
            if count >= 0 { return count }
            switch errno {
            case EINTR: continue
            case EAGAIN: return 0
            default: throw SerialError(.system(call: "read", errno: errno), device: name)
            }
        }
    }
}
