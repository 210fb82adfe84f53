import CLibI2C
import SensorBus
import Glibc

/// The system calls the I2C transport makes, as a table of functions: `live` calls the kernel,
/// and tests pass a table that records calls and forces errno values (EINTR once, EIO on the
/// third call, …) so that every error path runs. Each function returns what the C call returns
/// and leaves errno set, exactly like the call it stands for.
public struct SystemCalls: Sendable {
    public var open: @Sendable (_ path: String, _ flags: Int32) -> Int32
    public var close: @Sendable (_ descriptor: Int32) -> Int32
    /// ioctl with a pointer argument (I2C_RDWR, I2C_FUNCS, I2C_SMBUS).
    public var ioctlPointer: @Sendable (_ descriptor: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> Int32
    /// ioctl with an integer argument (I2C_SLAVE).
    public var ioctlValue: @Sendable (_ descriptor: Int32, _ request: UInt, _ argument: UInt) -> Int32
    /// libi2c's SMBus "I2C block" read/write (≤ 32 bytes; ioctl I2C_SMBUS underneath): the
    /// path for adapters without plain I2C transfers. Return bytes read / 0, or **−errno**:
    /// libi2c 4.3 negates errno itself (its `i2c_smbus_access` returns `-errno`), unlike the
    /// ioctls' −1; `negatedErrno` turns that into the funnel's convention.
    public var smbusReadBlock: @Sendable (_ descriptor: Int32, _ register: UInt8, _ length: UInt8, _ values: UnsafeMutablePointer<UInt8>) -> Int32
    public var smbusWriteBlock: @Sendable (_ descriptor: Int32, _ register: UInt8, _ length: UInt8, _ values: UnsafePointer<UInt8>) -> Int32

    public init(open: @escaping @Sendable (String, Int32) -> Int32, close: @escaping @Sendable (Int32) -> Int32,
                ioctlPointer: @escaping @Sendable (Int32, UInt, UnsafeMutableRawPointer) -> Int32,
                ioctlValue: @escaping @Sendable (Int32, UInt, UInt) -> Int32,
                smbusReadBlock: @escaping @Sendable (Int32, UInt8, UInt8, UnsafeMutablePointer<UInt8>) -> Int32,
                smbusWriteBlock: @escaping @Sendable (Int32, UInt8, UInt8, UnsafePointer<UInt8>) -> Int32) {
        self.open = open
        self.close = close
        self.ioctlPointer = ioctlPointer
        self.ioctlValue = ioctlValue
        self.smbusReadBlock = smbusReadBlock
        self.smbusWriteBlock = smbusWriteBlock
    }

    /// The kernel's.
    public static let live = SystemCalls(
        open: { path, flags in Glibc.open(path, flags) },
        close: { descriptor in Glibc.close(descriptor) },
        ioctlPointer: { descriptor, request, argument in ocm_i2c_ioctl_pointer(descriptor, request, argument) },
        ioctlValue: { descriptor, request, argument in ocm_i2c_ioctl_value(descriptor, request, argument) },
        smbusReadBlock: { descriptor, register, length, values in
            i2c_smbus_read_i2c_block_data(descriptor, register, length, values)
        },
        smbusWriteBlock: { descriptor, register, length, values in
            i2c_smbus_write_i2c_block_data(descriptor, register, length, values)
        })
}

/// A libi2c result (value, or −errno) in the ioctl convention (value, or −1 with errno set),
/// so that one funnel classifies both. Found by the level-1 test (tools/test-i2c-umockdev.sh):
/// read as "−1 and errno", a failed SMBus write passed for success and ENXIO for a short read.
@inline(__always)
func negatedErrno(_ result: Int32) -> Int32 {
    guard result < 0 else { return result }
    errno = -result
    return -1
}

/// The one place where a −1 return becomes an errno: EINTR is retried here (and only here),
/// everything else is returned for the caller to classify.
@inline(__always)
func valueOrErrno(retryOnInterrupt: Bool = true, _ call: () -> Int32) -> Result<Int32, Errno> {
    while true {
        let result = call()
        if result != -1 { return .success(result) }
        let code = errno
        if code == EINTR && retryOnInterrupt { continue }
        return .failure(Errno(rawValue: code))
    }
}

/// An errno value with the names this transport classifies.
public struct Errno: Error, RawRepresentable, Sendable, Equatable {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The bus error for this errno.
    func busErrorKind() -> BusError.Kind {
        switch rawValue {
        case ENXIO, EREMOTEIO: .noAcknowledge
        case EBUSY: .busy
        case EACCES, EPERM: .permissionDenied
        case ENOENT, ENODEV: .noSuchBus
        case EOPNOTSUPP: .notSupported
        case ETIMEDOUT: .timeout
        default: .inputOutput(errno: rawValue)
        }
    }
}
