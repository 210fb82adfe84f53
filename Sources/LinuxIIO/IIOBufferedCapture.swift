import CLibIIO
import Glibc

/// One value from a buffered capture: a channel kind's reading in one scan, in OpenCoreMotion
/// units (m/s², rad/s, µT, Pa, °C), vectors in device axes.
public struct IIOSample: Sendable, Equatable {
    /// The kernel's timestamp of the scan, in nanoseconds of CLOCK_MONOTONIC when the device has
    /// `current_timestamp_clock` (set at capture start), else of the clock the driver uses.
    public var timestampNanoseconds: Int64
    public var value: IIOSensorDevice.Value

    public init(timestampNanoseconds: Int64, value: IIOSensorDevice.Value) {
        self.timestampNanoseconds = timestampNanoseconds
        self.value = value
    }
}

extension IIOSensorDevice {
    /// True when at least one motion channel is a scan element (the driver offers a buffer).
    public var supportsBufferedCapture: Bool { channelHandles.contains { iio_channel_is_scan_element($0) } }
}

/// Reads a device's IIO buffer (a triggered buffer or a hardware FIFO): every scan the driver
/// pushes, with the kernel's timestamp, instead of sampling sysfs attributes on our own clock.
/// Values are converted exactly as `IIOSensorDevice.read()` converts them; scale, offset and
/// mount matrix are read once here, not per sample. `read` neither allocates nor blocks longer
/// than its timeout, so an engine can call it from its loop or wait on `fileDescriptor`.
public final class IIOBufferedCapture {
    public let device: IIOSensorDevice
    /// The trigger driving the buffer ("t0", "bmi160-dev0"); nil when the device fills the
    /// buffer itself (a hardware FIFO, no `trigger/current_trigger`).
    public let triggerName: String?
    /// The channels captured, in `IIOSensorDevice.channels` order.
    public let channels: [IIOSensorDevice.Channel]
    /// Whether scans carry the kernel's timestamp (`in_timestamp`); without it each sample gets
    /// the CLOCK_MONOTONIC time of the read that returned it.
    public let hasTimestamps: Bool
    /// Samples each scan produces: one per vector kind plus one per scalar channel.
    public var samplesPerScan: Int { outputs.count }
    /// Scans one refill can return (the libiio buffer's size), also the kernel buffer's
    /// watermark: the file descriptor becomes readable once this many scans wait.
    public let scansPerRefill: Int
    public let layout: IIOScanLayout

    private var buffer: OpaquePointer?
    private let outputs: [IIOScanOutput]
    private let timestampElement: Int?
    /// Scans of the last refill not yet returned, and the byte offset of the first of them.
    private var pendingScans = 0
    private var pendingOffset = 0
    private var refillTime: Int64 = 0

    /// Starts capturing.
    /// - Parameters:
    ///   - trigger: a trigger's name (e.g. an hrtimer trigger "t0") to write to the device's
    ///     `trigger/current_trigger`; nil keeps the device's current trigger.
    ///   - scansPerRefill: the libiio buffer size in scans (libiio makes the kernel's buffer
    ///     4 × this) and the watermark: the kernel wakes a waiting reader once this many scans
    ///     wait, and drivers with a hardware FIFO (`hwfifo_set_watermark`) set their FIFO
    ///     threshold from it. libiio 0.24 writes
    ///     `buffer/watermark` = this when it opens the buffer, so the two cannot differ. Small
    ///     means low latency (4 scans = 20 ms at 200 Hz), large means fewer wake-ups.
    public init(device: IIOSensorDevice, trigger: String? = nil, scansPerRefill: Int = 4) throws(IIOError) {
        precondition(scansPerRefill >= 1, "scansPerRefill must be 1 or more")
        self.device = device
        self.scansPerRefill = scansPerRefill
        let handle = device.handle
        let context = device.context
        func error(_ problem: String, _ advice: String? = nil) -> IIOError {
            IIOError(context: context.uri, device: device.label, problem: problem, advice: advice)
        }

        // The channels: motion scan elements, whole vectors only, then the timestamp.
        var scanChannels: [(channel: IIOSensorDevice.Channel, handle: OpaquePointer)] = []
        for (channel, pointer) in zip(device.channels, device.channelHandles) where iio_channel_is_scan_element(pointer) {
            scanChannels.append((channel, pointer))
        }
        let axesPerKind = Dictionary(scanChannels.map { ($0.channel.kind, 1) }, uniquingKeysWith: +)
        scanChannels.removeAll { $0.channel.axis != nil && axesPerKind[$0.channel.kind] != 3 }
        guard !scanChannels.isEmpty else {
            throw error("it has no buffer support (no motion channel in scan_elements/)",
                        "Its driver offers no triggered buffer or FIFO: read it with IIOSensorDevice.read() instead, or use a driver with buffer support")
        }
        let timestamp = iio_device_find_channel(handle, "timestamp", false).flatMap { iio_channel_is_scan_element($0) ? $0 : nil }
        channels = scanChannels.map(\.channel)
        hasTimestamps = timestamp != nil

        // Layout from scan_elements/*_index and *_type.
        var elements: [(scanIndex: Int, format: IIOScanFormat)] = []
        for (id, pointer) in scanChannels.map({ ($0.channel.id, $0.handle) }) + (timestamp.map { [("timestamp", $0)] } ?? []) {
            do throws(IIOScanFormatError) {
                elements.append((Int(iio_channel_get_index(pointer)), try IIOScanFormat(libiio: iio_channel_get_data_format(pointer).pointee)))
            } catch let formatError {
                throw error("its \(id) scan element cannot be decoded: \(formatError.problem)")
            }
        }
        do throws(IIOScanFormatError) { layout = try IIOScanLayout(elements) } catch let formatError { throw error(formatError.problem) }
        timestampElement = timestamp == nil ? nil : elements.count - 1

        // Conversion constants, read once.
        var outputs: [IIOScanOutput] = []
        for kind in IIOChannelKind.allCases where kind.isVector {
            let axes = scanChannels.indices.filter { scanChannels[$0].channel.kind == kind }
                .sorted { scanChannels[$0].channel.axis! < scanChannels[$1].channel.axis! }
            guard axes.count == 3 else { continue }
            var constants: [(Double, Double)] = []
            for position in axes { constants.append(try device.offsetAndScale(scanChannels[position].channel, scanChannels[position].handle)) }
            let rows = try device.mountMatrix(for: kind).rows
            outputs.append(IIOScanOutput(kind: kind, isVector: true, elements: (axes[0], axes[1], axes[2]),
                                  offsets: (constants[0].0, constants[1].0, constants[2].0),
                                  scales: (constants[0].1, constants[1].1, constants[2].1),
                                  matrix: (rows[0][0], rows[0][1], rows[0][2], rows[1][0], rows[1][1], rows[1][2], rows[2][0], rows[2][1], rows[2][2])))
        }
        for (position, entry) in scanChannels.enumerated() where entry.channel.axis == nil {
            let (offset, scale) = try device.offsetAndScale(entry.channel, entry.handle)
            outputs.append(IIOScanOutput(kind: entry.channel.kind, isVector: false, elements: (position, position, position),
                                  offsets: (offset, 0, 0), scales: (scale, 0, 0), matrix: (1, 0, 0, 0, 1, 0, 0, 0, 1)))
        }
        self.outputs = outputs

        // The trigger.
        triggerName = try Self.selectTrigger(trigger, device: device, error)

        // Timestamps on CLOCK_MONOTONIC (IIO's default is CLOCK_REALTIME, which jumps with NTP).
        if iio_device_find_attr(handle, "current_timestamp_clock") != nil,
           case .failure(let failure) = IIOCalls.writeText(device: handle, "current_timestamp_clock", "monotonic") {
            throw device.failure("setting current_timestamp_clock to monotonic", failure.code)
        }
        if iio_device_find_buffer_attr(handle, "watermark") != nil {
            // Also what libiio 0.24 writes at open; done here too so a refusal is reported.
            // The kernel refuses a watermark above buffer/length: set the length libiio will
            // set anyway (4 × scansPerRefill) first.
            _ = iio_device_buffer_attr_write(handle, "length", String(4 * scansPerRefill))
            let status = iio_device_buffer_attr_write(handle, "watermark", String(scansPerRefill))
            if status < 0 { throw device.failure("setting the buffer watermark to \(scansPerRefill) scans", Int32(-status)) }
        }

        // Enable exactly our channels, then open the buffer.
        for index in 0..<iio_device_get_channels_count(handle) {
            if let channel = iio_device_get_channel(handle, index), iio_channel_is_scan_element(channel) { iio_channel_disable(channel) }
        }
        for entry in scanChannels { iio_channel_enable(entry.handle) }
        if let timestamp { iio_channel_enable(timestamp) }
        errno = 0
        guard let buffer = iio_device_create_buffer(handle, scansPerRefill, false) else {
            let code = errno
            throw error("could not start its buffer: \(IIOCalls.message(errno: code))",
                        code == EBUSY ? "Another program (iio_readdev, iiod, another motionctl) has its buffer open: stop it" : IIOCalls.advice(errno: code))
        }
        let status = iio_buffer_set_blocking_mode(buffer, false)
        guard status == 0 else {
            iio_buffer_destroy(buffer)
            throw device.failure("making its buffer non-blocking", -status)
        }
        self.buffer = buffer
    }

    deinit { stop() }

    /// Destroys the buffer, which disables it (`buffer/enable` = 0) and its channels. Further
    /// reads throw.
    public func stop() {
        if let buffer { iio_buffer_destroy(buffer) }
        buffer = nil
        pendingScans = 0
    }

    /// The buffer's file descriptor, readable when scans are waiting (to poll several devices
    /// at once); -1 after `stop()`.
    public var fileDescriptor: Int32 {
        guard let buffer else { return -1 }
        let fd = iio_buffer_get_poll_fd(buffer)
        return fd < 0 ? -1 : fd
    }

    /// Decodes waiting scans into `samples` (`samplesPerScan` samples per scan, scans in order)
    /// and returns how many samples it wrote; refills from the kernel when nothing is pending,
    /// waiting at most `timeoutNanoseconds` (≤ 0: do not wait). Returns 0 on timeout.
    /// `samples` must hold at least `samplesPerScan` samples. No heap allocation.
    public func read(into samples: UnsafeMutableBufferPointer<IIOSample>, timeoutNanoseconds: Int64) throws(IIOError) -> Int {
        guard let buffer else {
            throw IIOError(context: device.context.uri, device: device.label, problem: "its buffered capture was stopped")
        }
        precondition(samples.count >= outputs.count, "read(into:) needs room for one scan (samplesPerScan samples)")
        if pendingScans == 0 {
            guard try refill(buffer, timeoutNanoseconds: timeoutNanoseconds) else { return 0 }
        }
        guard let start = iio_buffer_start(buffer) else { return 0 }
        let scanBytes = layout.scanBytes
        let scans = min(pendingScans, samples.count / outputs.count)
        var written = 0
        for _ in 0..<scans {
            let scan = UnsafeRawBufferPointer(start: start + pendingOffset, count: scanBytes)
            var timestamp = refillTime
            if let timestampElement { timestamp = layout.rawValue(timestampElement, in: scan) }
            // Indexing, not `for output in outputs`: an unspecialized IndexingIterator (debug
            // builds) boxes an element this large on the heap for every scan.
            var index = 0
            while index < outputs.count {
                samples[written] = IIOSample(timestampNanoseconds: timestamp, value: outputs[index].value(in: scan, layout))
                written += 1
                index += 1
            }
            pendingOffset += scanBytes
            pendingScans -= 1
        }
        return written
    }

    /// Refills the libiio buffer: non-blocking read, then poll(2) until data, the deadline, or
    /// an error. False on timeout. EINTR and EAGAIN are retried against the same deadline.
    private func refill(_ buffer: OpaquePointer, timeoutNanoseconds: Int64) throws(IIOError) -> Bool {
        let deadline = Self.monotonicNanoseconds() + max(0, timeoutNanoseconds)
        while true {
            let count = iio_buffer_refill(buffer)
            if count > 0 {
                guard count % layout.scanBytes == 0 else {
                    throw IIOError(context: device.context.uri, device: device.label,
                                   problem: "its buffer returned \(count) bytes, not whole \(layout.scanBytes)-byte scans: the layout from scan_elements/ does not match the driver's",
                                   advice: "Report the device's scan_elements/*_type and *_index files")
                }
                pendingScans = count / layout.scanBytes
                pendingOffset = 0
                refillTime = Self.monotonicNanoseconds()
                return true
            }
            let code = count == 0 ? EAGAIN : Int32(-count)
            switch code {
            case EINTR: continue
            case EAGAIN, ETIMEDOUT: break
            case ENODEV, EIO, EBADF: throw gone("reading its buffer failed: \(IIOCalls.message(errno: code))")
            default: throw device.failure("reading its buffer", code)
            }
            let remaining = deadline - Self.monotonicNanoseconds()
            guard remaining > 0 else { return false }
            var descriptor = pollfd(fd: iio_buffer_get_poll_fd(buffer), events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(clamping: (remaining + 999_999) / 1_000_000))
            if ready < 0 {
                let code = errno
                if code == EINTR { continue }
                throw device.failure("waiting for its buffer (poll)", code)
            }
            // Data first: a device that hangs up after its last scans still delivers them.
            if ready > 0, descriptor.revents & Int16(POLLIN) == 0,
               descriptor.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
                let what = descriptor.revents & Int16(POLLNVAL) != 0 ? "POLLNVAL" : descriptor.revents & Int16(POLLHUP) != 0 ? "POLLHUP" : "POLLERR"
                throw gone("its buffer's file descriptor reported \(what)")
            }
            // Timed out (ready == 0): loop once more; the refill reports a device that went away
            // while we waited (the kernel's poll shows nothing for it, read gives ENODEV).
        }
    }

    private func gone(_ what: String) -> IIOError {
        IIOError(context: device.context.uri, device: device.label, problem: "stopped delivering scans: \(what); the device disappeared",
                 advice: "It was unplugged, its driver unbound, or the board powered off. Check `iio_info`, then restart the capture")
    }

    private static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }


}

extension IIOScanFormat {
    /// From libiio's parse of `scan_elements/<channel>_type`.
    init(libiio format: iio_data_format) throws(IIOScanFormatError) {
        try self.init(storageBits: Int(format.length), realBits: Int(format.bits), shift: Int(format.shift),
                      isSigned: format.is_signed, isBigEndian: format.is_be, repeatCount: Int(max(1, format.`repeat`)))
    }
}
