import Foundation
import OpenCoreMotion

/// Tilt steering from gravity, as in Apple's Core Motion talks (a phone held like a steering
/// wheel in landscape): the steering angle is how far gravity leans from the device's −x axis
/// towards y, and throttle how far the device leans towards or away from the player. Gravity
/// alone, no attitude: it needs no reference frame and no magnetometer, and does not drift.
struct TiltSteering {
    /// Tilt that gives full lock, rad (30°).
    var fullLock = Double.pi / 6
    /// Tilt below which the wheel is straight, rad (2°): the hands' tremor.
    var deadZone = Double.pi / 90

    /// Steering in [−1, 1] (right positive) and throttle in [−1, 1] from gravity in g.
    func controls(gravity: CMAcceleration) -> (steering: Double, throttle: Double) {
        // In landscape, "down" is along −x when held level; rolling the wheel right moves
        // gravity towards +y.
        let steering = atan2(gravity.y, -gravity.x)
        let throttle = atan2(-gravity.z, -gravity.x)
        return (shape(steering), shape(throttle))
    }

    private func shape(_ angle: Double) -> Double {
        guard abs(angle) > deadZone else { return 0 }
        return max(-1, min(1, (abs(angle) - deadZone) / (fullLock - deadZone))) * (angle < 0 ? -1 : 1)
    }
}
