public import Foundation
package import MotionManagerCore

/// An error as Core Motion reports it: a `CMErrorDomain` code with a message for a person that
/// says what is missing or wrong and what to do.
public struct CMError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Core Motion's `CMError` codes (`CMErrorNULL` = 100 onwards).
    public enum Code: Int, Sendable {
        case nullPointer = 100
        case deviceRequiresMovement = 101
        case trueNorthNotAvailable = 102
        /// The engine failed (a chip stopped answering, a bus error persisted): see the message.
        case unknown = 103
        case motionActivityNotAvailable = 104
        case motionActivityNotAuthorized = 105
        case motionActivityNotEntitled = 106
        /// An argument is out of range (a reference frame that is not exactly one frame).
        case invalidParameter = 107
        case invalidAction = 108
        /// The board has no such sensor, or the board file could not be loaded.
        case notAvailable = 109
        case notEntitled = 110
        case notAuthorized = 111
        case nilData = 112
        case size = 113
    }

    public static let errorDomain = "CMErrorDomain"

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}

extension CMError {
    /// The core's error (MotionManagerCore has no Foundation, hence its own type) as Core Motion's.
    package init(_ error: MotionManagerError) {
        self.init(Code(rawValue: error.code.rawValue) ?? .unknown, error.message)
    }
}

extension CMError: LocalizedError {
    public var errorDescription: String? { message }
}

extension CMError: CustomNSError {
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
}

// Core Motion's C names, for the comparisons iOS code makes
// (`error.domain == CMErrorDomain && error.code == Int(CMErrorMotionActivityNotAuthorized.rawValue)`).
// Apple's `CMError` is the C enum these belong to; here it is the thrown error, and its codes
// are `CMError.Code`.
public let CMErrorDomain = CMError.errorDomain
public let CMErrorNULL = CMError.Code.nullPointer
public let CMErrorDeviceRequiresMovement = CMError.Code.deviceRequiresMovement
public let CMErrorTrueNorthNotAvailable = CMError.Code.trueNorthNotAvailable
public let CMErrorUnknown = CMError.Code.unknown
public let CMErrorMotionActivityNotAvailable = CMError.Code.motionActivityNotAvailable
public let CMErrorMotionActivityNotAuthorized = CMError.Code.motionActivityNotAuthorized
public let CMErrorMotionActivityNotEntitled = CMError.Code.motionActivityNotEntitled
public let CMErrorInvalidParameter = CMError.Code.invalidParameter
public let CMErrorInvalidAction = CMError.Code.invalidAction
public let CMErrorNotAvailable = CMError.Code.notAvailable
public let CMErrorNotEntitled = CMError.Code.notEntitled
public let CMErrorNotAuthorized = CMError.Code.notAuthorized
public let CMErrorNilData = CMError.Code.nilData
public let CMErrorSize = CMError.Code.size
