/// Why the core could not start a stream, or why a running board stopped: a Core Motion error
/// code (`CMErrorDomain`'s raw values) with a message for a person that says what is missing or
/// wrong and what to do. The Swift API turns it into `CMError`, the C API into an `ocm_status`.
package struct MotionManagerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The Core Motion codes the core reports (`CMError.Code`'s raw values).
    package enum Code: Int, Sendable {
        /// True north was asked for where the board's place is not known.
        case trueNorthNotAvailable = 102
        /// The engine failed (a chip stopped answering, a bus error persisted): see the message.
        case unknown = 103
        /// An argument is out of range (a reference frame that is not exactly one frame).
        case invalidParameter = 107
        /// The board has no such sensor, or the board file could not be loaded.
        case notAvailable = 109
        /// motiond does not let this user have motion data: the message says what to do.
        case notAuthorized = 111
    }

    package let code: Code
    package let message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { message }
}
