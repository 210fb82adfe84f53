public import Foundation
package import MotionEngine

/// Core Motion's CMPedometerEventType, with its raw values.
public enum CMPedometerEventType: Int, Sendable {
    /// The user stopped walking.
    case pause = 0
    /// The user started walking again.
    case resume = 1
}

/// A pause or a resume of walking (Core Motion's CMPedometerEvent). `date` is when the user
/// actually stopped (their last step) or started (their first step), which is earlier than
/// when the event is delivered (within about a second).
public final class CMPedometerEvent: Sendable, CustomStringConvertible {
    public let date: Date
    public let type: CMPedometerEventType

    public init(date: Date, type: CMPedometerEventType) {
        self.date = date
        self.type = type
    }

    package convenience init(_ event: PedometerEvent) {
        self.init(date: Date(engineNanoseconds: event.timeNanoseconds), type: event.kind == .pause ? .pause : .resume)
    }

    public var description: String { "CMPedometerEvent(\(type == .pause ? "pause" : "resume") at \(date))" }
}
