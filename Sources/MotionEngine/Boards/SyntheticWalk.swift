import FixedPoint
import Recordings

/// `motion = synthetic:walk`: a device held flat, face up, by someone who walks and stands in
/// turns, without end, so that pedometer tests know the answer (`boards/sim-walker.board`).
///
/// One cycle of `cycleSeconds` (18 s): still for 2 s, walking for 10 s at 1.8 steps/s (exactly
/// 18 steps: one vertical bounce per step), still for 6 s (long enough for a pause event and a
/// gap in live updates longer than their 2.5 s interval). While walking the specific force is
/// (0.4 sin πft, 0.3 + 0.8 cos 2πft, g + 2.5 sin 2πft) m/s², f = 1.8 Hz: the vertical bounce of
/// each step (2.5 m/s², a brisk walk's), a fore-aft surge at the step rate and a lateral sway at
/// half of it (one sway per stride of two steps). Step k of a bout peaks at (k + ¼) / f after
/// the bout starts. No rotation: the gyroscope reads zero, the magnetometer a constant field
/// (19 µT north along the device's y, 46 µT down), the barometer sea level (no floors). The
/// emulated chips add their datasheet noise on top.
final class SyntheticWalk: MotionSource {
    static let stillBeforeSeconds = 2.0
    static let walkSeconds = 10.0
    static let stillAfterSeconds = 6.0
    static let cycleSeconds = stillBeforeSeconds + walkSeconds + stillAfterSeconds
    /// Steps per second while walking.
    static let stepFrequency = 1.8
    /// Vertical bounce of a step, m/s².
    static let bounceAmplitude = 2.5
    private static let gravity = 9.80665

    private(set) var acceleration = (0.0, 0.3, SyntheticWalk.gravity)
    let angularVelocity = (0.0, 0.0, 0.0)
    let magneticField = (0.0, 19.0, -46.0)
    let pressure = 101_325.0
    let isFinished = false
    let failure: RecordingError? = nil

    /// Steps taken so far: 18 per finished cycle, and in a bout each step once it has peaked.
    private(set) var steps: Int? = 0

    func advance(to nanoseconds: Int64) {
        let cycle = Double(nanoseconds % Int64(Self.cycleSeconds * 1e9)) / 1e9
        let walking = cycle - Self.stillBeforeSeconds
        let stepsPerBout = Int(Self.walkSeconds * Self.stepFrequency)
        let peaked = Self.stepFrequency * min(max(walking, 0), Self.walkSeconds) - 0.25  // step k peaks when this reaches k
        steps = Int(nanoseconds / Int64(Self.cycleSeconds * 1e9)) * stepsPerBout + (peaked >= 0 ? min(stepsPerBout, Int(peaked) + 1) : 0)
        guard walking >= 0, walking < Self.walkSeconds else {
            acceleration = (0, 0.3, Self.gravity)
            return
        }
        let phase = Self.stepFrequency * walking  // steps since the bout started
        acceleration = (0.4 * Self.sine(turns: phase / 2), 0.3 + 0.8 * Self.sine(turns: phase + 0.25),
                        Self.gravity + Self.bounceAmplitude * Self.sine(turns: phase))
    }

    /// sin(2π · turns), with FixedPoint's sine (as `SyntheticTumble`): the fraction of a turn is
    /// taken first so the argument stays small however long the board runs.
    private static func sine(turns: Double) -> Double {
        let fraction = turns - turns.rounded(.down)
        return Angle.sineCosine(of: Q16_16(2 * Double.pi * fraction)).sine.doubleValue
    }
}
