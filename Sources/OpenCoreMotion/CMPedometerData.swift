public import Foundation
package import MotionManagerCore

/// What the pedometer counted over a span of time (Core Motion's CMPedometerData): from a live
/// update (cumulative from the date updates started from) or a query.
///
/// Units as Core Motion's: distance in metres, pace in seconds per metre, cadence in steps per
/// second. A value the board cannot give is nil: floors without a barometer; `currentPace` and
/// `currentCadence` in queries and while the user is not walking; `averageActivePace` before
/// any stepping in the span.
public final class CMPedometerData: Sendable, CustomStringConvertible {
    public let startDate: Date
    public let endDate: Date
    public let numberOfSteps: NSNumber
    /// Metres, from the stride model (the default height 1.70 m).
    public let distance: NSNumber?
    public let floorsAscended: NSNumber?
    public let floorsDescended: NSNumber?
    /// Seconds per metre now (live updates only).
    public let currentPace: NSNumber?
    /// Steps per second now (live updates only).
    public let currentCadence: NSNumber?
    /// Seconds per metre while stepping, over the span.
    public let averageActivePace: NSNumber?

    package init(_ values: PedometerValues) {
        startDate = Date(engineNanoseconds: values.startNanoseconds)
        endDate = Date(engineNanoseconds: values.endNanoseconds)
        numberOfSteps = NSNumber(value: values.numberOfSteps)
        distance = NSNumber(value: values.distanceMeters)
        floorsAscended = values.floorsAscended.map { NSNumber(value: $0) }
        floorsDescended = values.floorsDescended.map { NSNumber(value: $0) }
        currentPace = values.currentPace.map { NSNumber(value: $0) }
        currentCadence = values.currentCadence.map { NSNumber(value: $0) }
        averageActivePace = values.averageActivePace.map { NSNumber(value: $0) }
    }

    public var description: String {
        func text(_ number: NSNumber?) -> String { number.map { String(format: "%.3f", $0.doubleValue) } ?? "nil" }
        return "CMPedometerData(\(startDate) – \(endDate): \(numberOfSteps) steps, \(text(distance)) m, "
            + "floors +\(floorsAscended?.stringValue ?? "nil")/−\(floorsDescended?.stringValue ?? "nil"), "
            + "pace \(text(currentPace)) s/m, cadence \(text(currentCadence)) steps/s, average active pace \(text(averageActivePace)) s/m)"
    }
}
