public import Chips
public import LinuxGPIO
public import LinuxIIO
public import Recordings

/// What went wrong in the engine, with what a person should do about it.
public enum EngineError: Error, Sendable, CustomStringConvertible {
    /// The recording could not be opened or has a malformed line (the reader's own message
    /// names the file, line and column).
    case recording(RecordingError)
    /// A chip of the board failed (the chip error says which bus, address and what to do).
    case chip(label: String, ChipError)
    /// A chip read through IIO failed (the IIO error names the context and device).
    case iio(label: String, IIOError)
    /// A chip's data-ready line could not be opened or read (the GPIO error names the line).
    case gpio(label: String, GPIOError)
    /// Waiting for data-ready edges failed (poll(2) returned this errno).
    case dataReadyWaitFailed(errno: Int32)
    /// The board names an IIO device the context does not have.
    case iioDeviceMissing(label: String, device: String, uri: String, present: [String])
    /// A stored calibration could not be read or written.
    case calibration(path: String, line: Int?, problem: String)
    /// A board file is malformed.
    case board(BoardError)
    /// A sample arrived earlier than the previous sample of the same sensor.
    case timestampWentBackwards(sensor: SensorKind, previousNanoseconds: Int64, nanoseconds: Int64)

    /// Whether this is a bus glitch worth retrying (no acknowledge, EIO, timeout, a short
    /// transfer) rather than a lasting condition (no bus, no permission, a kernel driver owns
    /// the address, the wrong chip).
    public var isTransientBusError: Bool {
        guard case .chip(_, .bus(let error)) = self else { return false }
        switch error.kind {
        case .noAcknowledge, .inputOutput, .timeout, .shortTransfer: return true
        case .busy, .permissionDenied, .noSuchBus, .notSupported: return false
        }
    }

    public var description: String {
        switch self {
        case .recording(let error):
            return error.description
        case .chip(let label, let error):
            return "Chip \"\(label)\": \(error)"
        case .iio(let label, let error):
            return "Chip \"\(label)\": \(error)"
        case .gpio(let label, let error):
            return "Chip \"\(label)\": \(error). Without a working line, remove `interrupt` from the chip's section of the board file: the chip is then polled."
        case .dataReadyWaitFailed(let code):
            return "Waiting for data-ready edges failed with errno \(code); the stream stopped. Restart it; if this repeats, report it with `motionctl stream --board FILE` output."
        case .iioDeviceMissing(let label, let device, let uri, let present):
            return "Chip \"\(label)\": IIO context \"\(uri)\" has no device named \"\(device)\""
                + (present.isEmpty ? " (it has no motion sensors)" : " (it has: \(present.joined(separator: ", ")))")
                + ". Is its kernel driver loaded? `motionctl iio` lists the devices."
        case .board(let error):
            return error.description
        case .calibration(let path, let line, let problem):
            return "\(path)\(line.map { ":\($0)" } ?? ""): \(problem). Run `motionctl calibrate` again to write a new one."
        case .timestampWentBackwards(let sensor, let previous, let now):
            return "The \(sensor.recordingName) sample at \(TimestampFormatting.format(now)) s is earlier than the one before it (\(TimestampFormatting.format(previous)) s): "
                + "the source's clock went backwards. Samples must be in time order; the pipeline stopped rather than fuse them out of order."
        }
    }
}
