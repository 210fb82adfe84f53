import CLibIIO
import Glibc

/// A libiio context: the local kernel ("local:") or a remote board running iiod ("ip:HOST").
/// Lists the devices that have motion channels (accel, anglvel, magn, pressure, temp).
public final class IIOContext {
    public let uri: String
    let handle: OpaquePointer

    public init(uri: String = "local:") throws(IIOError) {
        self.uri = uri
        errno = 0
        guard let handle = iio_create_context_from_uri(uri) else {
            let code = errno
            let advice = uri == "local:" && code == ENOENT
                ? "This kernel has no IIO devices (/sys/bus/iio is missing): load the sensor's kernel driver, e.g. with a dtoverlay such as `i2c-sensor`."
                : IIOCalls.advice(errno: code)
            throw IIOError(context: uri, problem: "could not create the context: \(IIOCalls.message(errno: code))", advice: advice)
        }
        self.handle = handle
    }

    deinit { iio_context_destroy(handle) }

    /// The devices with at least one motion channel, in the kernel's order.
    public func sensorDevices() -> [IIOSensorDevice] {
        (0..<iio_context_get_devices_count(handle)).compactMap { index in
            guard let device = iio_context_get_device(handle, index) else { return nil }
            let sensor = IIOSensorDevice(context: self, handle: device)
            return sensor.channels.isEmpty ? nil : sensor
        }
    }
}

/// One IIO device's motion channels, read through sysfs attributes: value = (raw + offset) ×
/// scale, or the driver's processed `input`, converted to OpenCoreMotion's units, vectors
/// turned into device axes with the channel type's `mount_matrix`.
public final class IIOSensorDevice {
    public struct Channel: Sendable {
        public var id: String
        public var kind: IIOChannelKind
        /// 0, 1, 2 for x, y, z; nil for scalars.
        public var axis: Int?
    }

    /// One measured value in OpenCoreMotion units (m/s², rad/s, µT, Pa, °C), device axes.
    public enum Value: Sendable, Equatable {
        case vector(IIOChannelKind, Double, Double, Double)
        case scalar(IIOChannelKind, Double)
    }

    public let context: IIOContext
    let handle: OpaquePointer
    /// "iio:device0".
    public let id: String
    /// The driver's name for the device, e.g. "lsm9ds1_accel", "lps25h".
    public let name: String
    public let channels: [Channel]
    /// libiio channel handles, parallel to `channels` (used by IIOBufferedCapture).
    let channelHandles: [OpaquePointer]

    init(context: IIOContext, handle: OpaquePointer) {
        self.context = context
        self.handle = handle
        id = iio_device_get_id(handle).map { String(cString: $0) } ?? "iio:device?"
        name = iio_device_get_name(handle).map { String(cString: $0) } ?? ""
        var channels: [Channel] = []
        var handles: [OpaquePointer] = []
        for index in 0..<iio_device_get_channels_count(handle) {
            guard let channel = iio_device_get_channel(handle, index), !iio_channel_is_output(channel),
                  let idPointer = iio_channel_get_id(channel) else { continue }
            let channelID = String(cString: idPointer)
            guard let (kind, axis) = IIOChannelKind.parse(channelID: channelID) else { continue }
            channels.append(Channel(id: channelID, kind: kind, axis: axis))
            handles.append(channel)
        }
        // x, y, z in order within each kind, whatever order the kernel listed them in.
        let order = channels.indices.sorted { (channels[$0].kind.rawValue, channels[$0].axis ?? 0) < (channels[$1].kind.rawValue, channels[$1].axis ?? 0) }
        self.channels = order.map { channels[$0] }
        channelHandles = order.map { handles[$0] }
    }

    /// "iio:device0 (bmi160)", for messages.
    var label: String { "\(id) (\(name))" }

    func failure(_ problem: String, _ code: Int32) -> IIOError {
        IIOError(context: context.uri, device: label, problem: "\(problem): \(IIOCalls.message(errno: code))",
                 advice: IIOCalls.advice(errno: code))
    }

    /// Reads every channel once and returns the values, vectors assembled and mounted.
    public func read() throws(IIOError) -> [Value] {
        var values: [Value] = []
        var vectors: [IIOChannelKind: [Double]] = [:]
        for (channel, pointer) in zip(channels, channelHandles) {
            let value = try readChannel(channel, pointer) * channel.kind.toSIFactor
            if let axis = channel.axis {
                vectors[channel.kind, default: [0, 0, 0]][axis] = value
            } else {
                values.append(.scalar(channel.kind, value))
            }
        }
        for kind in IIOChannelKind.allCases where kind.isVector {
            guard let vector = vectors[kind] else { continue }
            let mounted = try mountMatrix(for: kind).apply((vector[0], vector[1], vector[2]))
            values.insert(.vector(kind, mounted.0, mounted.1, mounted.2), at: 0)
        }
        return values
    }

    private func readChannel(_ channel: Channel, _ pointer: OpaquePointer) throws(IIOError) -> Double {
        switch IIOCalls.readDouble(pointer, "raw") {
        case .success(let raw):
            let (offset, scale) = try offsetAndScale(channel, pointer)
            return (raw + offset) * scale
        case .failure(let error) where error.code == ENOENT:
            switch IIOCalls.readDouble(pointer, "input") {
            case .success(let value): return value
            case .failure(let error): throw failure("reading \(channel.id) (neither raw nor input)", error.code)
            }
        case .failure(let error):
            throw failure("reading \(channel.id)", error.code)
        }
    }

    /// A channel's `offset` (0 when absent) and `scale` (1 when absent: the raw value is
    /// already in the channel type's unit), for value = (raw + offset) × scale.
    func offsetAndScale(_ channel: Channel, _ pointer: OpaquePointer) throws(IIOError) -> (offset: Double, scale: Double) {
        var offset = 0.0
        if case .success(let value) = IIOCalls.readDouble(pointer, "offset") { offset = value }
        switch IIOCalls.readDouble(pointer, "scale") {
        case .success(let scale): return (offset, scale)
        case .failure(let error) where error.code == ENOENT: return (offset, 1)
        case .failure(let error): throw failure("reading \(channel.id) scale", error.code)
        }
    }

    /// The kind's mounting matrix (`in_<type>_mount_matrix` or the device's `mount_matrix`);
    /// identity when the driver publishes none. A malformed one is an error, not ignored.
    public func mountMatrix(for kind: IIOChannelKind) throws(IIOError) -> MountMatrix {
        guard let pointer = zip(channels, channelHandles).first(where: { $0.0.kind == kind })?.1 else { return .identity }
        let text: String
        switch IIOCalls.readText(channel: pointer, "mount_matrix") {
        case .success(let value): text = value
        case .failure:
            guard case .success(let value) = IIOCalls.readText(device: handle, "mount_matrix") else { return .identity }
            text = value
        }
        guard let matrix = MountMatrix(text: text) else {
            throw IIOError(context: context.uri, device: label, problem: "its \(kind.rawValue) mount_matrix \"\(text)\" is not three rows of three numbers")
        }
        return matrix
    }

    /// The current `sampling_frequency` in Hz, if the device has one.
    public var samplingFrequency: Double? {
        guard case .success(let text) = IIOCalls.readText(device: handle, "sampling_frequency") else { return nil }
        return Double(text.trimmingWhitespace())
    }

    /// The rates `sampling_frequency_available` lists, in Hz; empty when the device has none.
    public var availableSamplingFrequencies: [Double] {
        guard case .success(let text) = IIOCalls.readText(device: handle, "sampling_frequency_available") else { return [] }
        return text.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Double($0) }
    }

    /// Sets `sampling_frequency` to the available rate nearest `hertz` (from
    /// `sampling_frequency_available`) and returns it.
    public func setSamplingFrequency(nearest hertz: Double) throws(IIOError) -> Double {
        guard let nearest = availableSamplingFrequencies.min(by: { abs($0 - hertz) < abs($1 - hertz) }) else {
            throw IIOError(context: context.uri, device: label, problem: "it lists no sampling_frequency_available: its rate cannot be chosen")
        }
        let formatted = nearest == nearest.rounded() ? String(Int(nearest)) : String(nearest)
        if case .failure(let error) = IIOCalls.writeText(device: handle, "sampling_frequency", formatted) {
            throw failure("setting sampling_frequency to \(formatted) Hz", error.code)
        }
        return nearest
    }
}
