public import Foundation
package import MotionAlgorithms

/// Core Motion's CMMotionActivityConfidence, with its raw values: how much evidence stands
/// behind an activity. It climbs low → medium → high while the same activity goes on (about
/// 2.5 s and 10 s for walking and stationary; vehicles start at medium, after 20–30 s).
public enum CMMotionActivityConfidence: Int, Sendable {
    case low = 0
    case medium = 1
    case high = 2
}

/// What the user is doing, as Core Motion's CMMotionActivity says it: any combination of the
/// flags, or none.
///
/// - `stationary`: the device is not moving (on a table); may be true with `automotive` (a car
///   waiting at a light).
/// - `unknown`: only right after classifying starts, before there are 2 s of data.
/// - No flag at all: enough data, but no activity it can name (a device being handled).
///
/// `startDate` is when the activity started: for walking and running the first step of the
/// bout, which is before the update announcing it. `timestamp` (CMLogItem, seconds on
/// CLOCK_MONOTONIC) is when the classifier decided it for a live update, and the start for an
/// activity from a query.
public final class CMMotionActivity: CMLogItem, @unchecked Sendable {
    public let stationary: Bool
    public let walking: Bool
    public let running: Bool
    public let automotive: Bool
    public let cycling: Bool
    public let unknown: Bool
    public let confidence: CMMotionActivityConfidence
    public let startDate: Date

    /// The classifier's estimate, decided at `timestampNanoseconds` (engine clock, ns).
    package init(_ estimate: MotionActivityEstimate, timestampNanoseconds: Int64) {
        let flags = estimate.flags
        stationary = flags.contains(.stationary)
        walking = flags.contains(.walking)
        running = flags.contains(.running)
        automotive = flags.contains(.automotive)
        cycling = flags.contains(.cycling)
        unknown = flags.contains(.unknown)
        confidence = CMMotionActivityConfidence(rawValue: Int(estimate.confidence.rawValue)) ?? .low
        startDate = Date(engineNanoseconds: estimate.startNanoseconds)
        super.init(timestampNanoseconds: timestampNanoseconds)
    }

    /// "walking", "stationary automotive", or "none" (enough data, no call).
    public var activityNames: String {
        let names = [(unknown, "unknown"), (stationary, "stationary"), (walking, "walking"), (running, "running"),
                     (automotive, "automotive"), (cycling, "cycling")].filter(\.0).map(\.1)
        return names.isEmpty ? "none" : names.joined(separator: " ")
    }

    public override var description: String {
        "CMMotionActivity(\(activityNames), confidence \(["low", "medium", "high"][confidence.rawValue]), since \(startDate))"
    }
}
