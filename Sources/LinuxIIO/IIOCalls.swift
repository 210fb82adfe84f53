import CLibIIO
import Glibc

/// The one place that calls libiio 0.24 and converts its two return conventions (negative
/// errno from int/ssize_t functions; NULL with errno set from constructors) into messages.
enum IIOCalls {
    /// libiio's text for a (positive) errno, e.g. "No such device".
    static func message(errno code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        iio_strerror(code, &buffer, buffer.count)
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Advice for the errno values a sensor program meets.
    static func advice(errno code: Int32) -> String? {
        switch code {
        case ENODEV, ENOENT: "The device is gone: it was unplugged, its driver unbound, or the board powered off. Check `iio_info`, then restart the stream."
        case EACCES, EPERM: "Install udev/60-opencoremotion.rules and join group `motion` (udev/README.md), or run as root."
        case ECONNREFUSED, EHOSTUNREACH, ETIMEDOUT: "Is iiod running on the remote board (`systemctl status iiod`) and reachable?"
        default: nil
        }
    }

    static func readDouble(_ channel: OpaquePointer, _ attribute: String) -> Result<Double, IIOErrno> {
        var value = 0.0
        let status = iio_channel_attr_read_double(channel, attribute, &value)
        return status < 0 ? .failure(IIOErrno(code: -status)) : .success(value)
    }

    static func readText(channel: OpaquePointer, _ attribute: String) -> Result<String, IIOErrno> {
        var buffer = [CChar](repeating: 0, count: 512)
        let count = iio_channel_attr_read(channel, attribute, &buffer, buffer.count)
        return count < 0 ? .failure(IIOErrno(code: Int32(-count))) : .success(buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    }

    static func readText(device: OpaquePointer, _ attribute: String) -> Result<String, IIOErrno> {
        var buffer = [CChar](repeating: 0, count: 512)
        let count = iio_device_attr_read(device, attribute, &buffer, buffer.count)
        return count < 0 ? .failure(IIOErrno(code: Int32(-count))) : .success(buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    }

    static func writeText(device: OpaquePointer, _ attribute: String, _ value: String) -> Result<Int, IIOErrno> {
        let count = iio_device_attr_write(device, attribute, value)
        return count < 0 ? .failure(IIOErrno(code: Int32(-count))) : .success(count)
    }
}

/// An errno from libiio, as a value (classified by the caller).
struct IIOErrno: Error, Equatable {
    var code: Int32
}
