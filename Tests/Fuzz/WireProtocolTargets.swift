// motiond's wire protocol, both ends: the bytes a client may send the daemon (a local user
// who may be hostile), and the bytes the daemon sends a client (a daemon impersonated on the
// socket path, or a corrupted stream).
internal import MotionDaemonProtocol

enum WireProtocolTargets {
    /// The daemon's reader: frames cut from the stream at the client frame limit (as
    /// ClientSession does), each decoded as a ClientMessage. The first byte sets how the stream
    /// is chopped into reads (1…256 bytes each), so frame boundaries straddle reads.
    static func daemonSide(_ bytes: UnsafeRawBufferPointer) {
        var reader = FrameReader(maximumFrameLength: Framing.longestClientFrameLength)
        feed(bytes, into: &reader) { frame in
            guard let message = try? ClientMessage(frame) else { return }
            // Re-encoding is stable: decode(encode(m)) encodes to the same bytes.
            let encoded = message.frame
            guard let again = try? ClientMessage(encoded) else {
                return fuzzCheck(false, "a decoded client message does not decode after re-encoding: \(message)")
            }
            fuzzCheck(again.frame == encoded, "client message re-encoding is not stable: \(message) vs \(again)")
        }
    }

    /// A client's reader: frames at the default limit, each decoded as a DaemonMessage
    /// (welcome, answers, samples, batches, errors).
    static func clientSide(_ bytes: UnsafeRawBufferPointer) {
        var reader = FrameReader()
        feed(bytes, into: &reader) { frame in
            guard let message = try? DaemonMessage(frame) else { return }
            let encoded = message.frame
            guard let again = try? DaemonMessage(encoded) else {
                return fuzzCheck(false, "a decoded daemon message does not decode after re-encoding: \(message)")
            }
            fuzzCheck(again.frame == encoded, "daemon message re-encoding is not stable: \(message) vs \(again)")
        }
    }

    private static func feed(_ bytes: UnsafeRawBufferPointer, into reader: inout FrameReader, _ take: (Frame) -> Void) {
        guard let first = bytes.first else { return }
        let chunk = Int(first) + 1
        var offset = 1
        while offset < bytes.count {
            let end = min(bytes.count, offset + chunk)
            reader.append(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
            offset = end
            while true {
                do throws(ProtocolError) {
                    guard let frame = try reader.nextFrame() else { break }
                    take(frame)
                } catch {
                    return  // the stream is unusable from here, as the daemon and client treat it
                }
            }
        }
    }
}
