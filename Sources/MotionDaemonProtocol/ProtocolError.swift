/// What went wrong with the bytes on a daemon connection, for people: the connection is then
/// unusable (a frame boundary can no longer be trusted) and is closed.
public struct ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A frame's length is 0 or above `Framing.maximumFrameLength`: not this protocol.
        case badLength
        /// A frame's type byte is not a message this side receives.
        case unknownMessage
        /// A field ran past the frame's end, a count lies, a value is out of range, or bytes
        /// are left over.
        case malformed
        /// The first frame was not a hello/welcome starting with the magic "OCMD".
        case notThisProtocol
        /// The peer speaks a protocol version this side does not.
        case unsupportedVersion
        /// The peer closed the connection (mid-frame if `bufferedBytes` > 0).
        case closed
        /// read(2) failed (`code` is its errno).
        case readFailed
    }

    public var kind: Kind
    public var message: String
    /// errno for `readFailed`; bytes of an unfinished frame for `closed`.
    public var code: Int

    public init(_ kind: Kind, _ message: String, code: Int = 0) {
        self.kind = kind
        self.message = message
        self.code = code
    }

    public var description: String { message }

    static func truncated(message: String, field: String) -> ProtocolError {
        ProtocolError(.malformed, "\(message): the frame ends inside \(field)")
    }
}
