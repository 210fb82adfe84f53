package import Foundation
import MotionManagerCore

/// Dates (the wall clock) to and from the engine's clock (CLOCK_MONOTONIC, ns), at today's
/// offset between the two (`WallClock`).
extension Date {
    package init(engineNanoseconds: Int64) {
        self.init(timeIntervalSince1970: Double(WallClock.unixTime(engineNanoseconds: engineNanoseconds)) / 1e9)
    }

    /// The engine time of this date, ns; dates beyond ±292 years of 1970 (`distantPast`,
    /// `distantFuture`) are held at the ends of Int64.
    package var engineNanoseconds: Int64 {
        let unix = (timeIntervalSince1970 * 1e9).rounded()
        let clamped = unix >= 9.2e18 ? Int64.max : unix <= -9.2e18 ? Int64.min : Int64(unix)
        return WallClock.engineTime(unixNanoseconds: clamped)
    }
}
