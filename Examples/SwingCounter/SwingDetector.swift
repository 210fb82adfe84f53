import OpenCoreMotion

/// Forehand / backhand swings from device motion, as in Apple's WWDC 2016 "What's New in Core
/// Motion" tennis example: the rotation rate's component along gravity says which way the arm
/// turns about the vertical (a watch or board on the wrist), so its sign tells a forehand from a
/// backhand. A swing is counted when that component stays beyond a threshold for long enough,
/// and the next one only after it has fallen back (hysteresis), so one swing counts once.
struct SwingDetector {
    enum Swing: Equatable { case forehand, backhand }

    /// rad/s about the vertical a swing must exceed (about 170 °/s: a real swing, not a turn).
    var threshold = 3.0
    /// It must fall below this to re-arm.
    var rearm = 1.0
    /// And last at least this long, s.
    var minimumDuration = 0.05

    private(set) var forehands = 0
    private(set) var backhands = 0
    private var candidate: (swing: Swing, since: Double)?
    private var armed = true

    /// Feeds one update; returns the swing it completed, if any.
    mutating func update(rotationRate: CMRotationRate, gravity: CMAcceleration, timestamp: Double) -> Swing? {
        // The rotation rate along "up" (gravity points down, so up is −gravity, in g ≈ unit).
        let aboutVertical = -(rotationRate.x * gravity.x + rotationRate.y * gravity.y + rotationRate.z * gravity.z)
        if abs(aboutVertical) < rearm {
            armed = true
            candidate = nil
            return nil
        }
        guard armed, abs(aboutVertical) >= threshold else { return nil }
        let swing: Swing = aboutVertical > 0 ? .forehand : .backhand
        guard let current = candidate, current.swing == swing else {
            candidate = (swing, timestamp)
            return nil
        }
        guard timestamp - current.since >= minimumDuration else { return nil }
        armed = false
        candidate = nil
        if swing == .forehand { forehands += 1 } else { backhands += 1 }
        return swing
    }
}
