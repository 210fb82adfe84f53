public import MotionDaemonProtocol

/// Why a request to motiond failed, for people: what happened (`message`) and what to do
/// (`advice`), with a kind a program can switch on.
public struct DaemonClientError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Nothing listens on the socket (no file, or a stale one): motiond does not run.
        case notRunning
        /// The daemon does not let this user have motion data (`authorization` says why:
        /// `denied` — not in group motion; `restricted` — the policy file denies the user, or
        /// restricts it to live data and this was a history query).
        case unauthorized(WireAuthorization)
        /// The daemon refused this request (a bad range, a missing sensor, a busy query).
        case rejected(WireErrorCode)
        /// The connection broke (the daemon stopped or restarts): the client reconnects by
        /// itself; requests made meanwhile fail with this.
        case disconnected
        /// The client gave up reconnecting (`DaemonClient.reconnectLimitSeconds` passed), or was closed.
        case closed
        /// The daemon did not answer within the client's timeout.
        case timedOut
        /// The bytes on the socket were not the protocol (another program listens there, or
        /// another release of motiond).
        case protocolViolation
    }

    public var kind: Kind
    public var message: String
    public var advice: String

    public init(_ kind: Kind, _ message: String, advice: String) {
        (self.kind, self.message, self.advice) = (kind, message, advice)
    }

    public var description: String { advice.isEmpty ? message : "\(message). \(advice)" }

    /// The error a daemon's `error` message carries.
    static func answer(code: WireErrorCode, message: String, advice: String, authorization: WireAuthorization) -> DaemonClientError {
        DaemonClientError(code == .unauthorized ? .unauthorized(authorization == .authorized ? .restricted : authorization) : .rejected(code),
                          "motiond: \(message)", advice: advice)
    }

    static func disconnected(_ path: String, _ why: String) -> DaemonClientError {
        DaemonClientError(.disconnected, "the connection to motiond at \(path) broke (\(why))",
                          advice: "The client reconnects by itself; if motiond stays down, see its log (journalctl -u motiond)")
    }
}
