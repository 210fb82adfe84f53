public import COpenCoreMotion
import Glibc
import Recordings

/// What an `ocm_recording *` points to: the reader plus the C strings handed out for it, which
/// live until the recording is closed (as the header promises).
final class RecordingHandle {
    let reader: RecordingReader
    /// strdup'ed metadata values, by key, created on first request.
    var metadataStrings: [String: UnsafeMutablePointer<CChar>] = [:]
    var errorMessage: UnsafeMutablePointer<CChar>?
    var failureStatus: ocm_status?

    init(reader: RecordingReader) { self.reader = reader }

    deinit {
        for pointer in metadataStrings.values { free(pointer) }
        free(errorMessage)
    }

    static let registry = HandleRegistry<RecordingHandle>()
}

/// The status for a recording error: files that cannot be opened or read are I/O errors,
/// everything about their content is a malformed recording.
private func status(for error: RecordingError) -> ocm_status {
    error.line == nil ? OCM_STATUS_IO_ERROR : OCM_STATUS_MALFORMED_RECORDING
}

@c @implementation
public func ocm_recording_open(_ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> ocm_status {
    guard let out else { return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_recording_open: out is NULL") }
    out.pointee = nil
    guard let path else { return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_recording_open: path is NULL") }
    do {
        let reader = try RecordingReader(path: String(cString: path))
        out.pointee = OpaquePointer(RecordingHandle.registry.register(RecordingHandle(reader: reader)))
        return OCM_STATUS_OK
    } catch {
        return fail(status(for: error), error.description)
    }
}

@c @implementation
public func ocm_recording_next(_ recording: OpaquePointer?, _ out: UnsafeMutablePointer<ocm_sample>?) -> ocm_status {
    guard let handle = RecordingHandle.registry.object(for: UnsafeRawPointer(recording)) else {
        return fail(OCM_STATUS_INVALID_HANDLE, "ocm_recording_next: not an open recording")
    }
    guard let out else { return fail(OCM_STATUS_INVALID_ARGUMENT, "ocm_recording_next: out is NULL") }
    do {
        guard let sample = try handle.reader.next() else { return OCM_STATUS_END }
        out.pointee = ocm_sample(
            timestamp_ns: sample.timestampNanoseconds, sensor: ocm_sensor(UInt32(sample.sensor.rawValue)),
            x: sample.x, y: sample.y, z: sample.z)
        return OCM_STATUS_OK
    } catch {
        // The reader repeats its first error on every later call; keep one copy of the text.
        if handle.errorMessage == nil {
            handle.errorMessage = CString.duplicate(error.description)
            handle.failureStatus = status(for: error)
        }
        return fail(handle.failureStatus ?? OCM_STATUS_MALFORMED_RECORDING, error.description)
    }
}

@c @implementation
public func ocm_recording_metadata(_ recording: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> UnsafePointer<CChar>? {
    guard let handle = RecordingHandle.registry.object(for: UnsafeRawPointer(recording)), let key else { return nil }
    let keyText = String(cString: key)
    if let existing = handle.metadataStrings[keyText] { return UnsafePointer(existing) }
    guard let value = handle.reader.metadata[keyText], let copy = CString.duplicate(value) else { return nil }
    handle.metadataStrings[keyText] = copy
    return UnsafePointer(copy)
}

@c @implementation
public func ocm_recording_error_message(_ recording: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let handle = RecordingHandle.registry.object(for: UnsafeRawPointer(recording)) else { return nil }
    return handle.errorMessage.map { UnsafePointer($0) }
}

@c @implementation
public func ocm_recording_line_number(_ recording: OpaquePointer?) -> Int64 {
    guard let handle = RecordingHandle.registry.object(for: UnsafeRawPointer(recording)) else { return 0 }
    return Int64(handle.reader.lineNumber)
}

@c @implementation
public func ocm_recording_close(_ recording: OpaquePointer?) {
    RecordingHandle.registry.close(UnsafeRawPointer(recording))
}
