import FixedPoint
import Recordings

/// What an emulated board feels: a real recording (`RecordedMotion`) or a synthetic trajectory.
protocol MotionSource: AnyObject {
    /// Advances to board time `nanoseconds` (never backwards).
    func advance(to nanoseconds: Int64)
    /// Specific force, m/s²; angular velocity, rad/s; magnetic field, µT; all device axes.
    var acceleration: (Double, Double, Double) { get }
    var angularVelocity: (Double, Double, Double) { get }
    var magneticField: (Double, Double, Double) { get }
    /// Static pressure, Pa.
    var pressure: Double { get }
    /// The surroundings' temperature, °C, where the source says (a dive's water); nil: the
    /// emulators keep their own.
    var temperature: Double? { get }
    /// The true attitude, device axes → world (x north, y west, z up), a unit quaternion
    /// (w, x, y, z), where the source knows it (a synthetic trajectory); nil for a recording,
    /// which measured motion but not the attitude.
    var attitude: (w: Double, x: Double, y: Double, z: Double)? { get }
    /// Steps walked so far, where the source knows them (`synthetic:walk`); nil otherwise.
    var steps: Int? { get }
    var isFinished: Bool { get }
    var failure: RecordingError? { get }
    /// Plays the source again from its beginning, its first moment at board time `nanoseconds`
    /// (a finished recording, looped by a live engine).
    func startOver(at nanoseconds: Int64) throws(EngineError)
}

extension MotionSource {
    var temperature: Double? { nil }
    var attitude: (w: Double, x: Double, y: Double, z: Double)? { nil }
    var steps: Int? { nil }
    /// The synthetic trajectories never finish: nothing to start over.
    func startOver(at nanoseconds: Int64) throws(EngineError) {}
}

extension RecordedMotion: MotionSource {}

/// The synthetic trajectory a board file's `motion = synthetic:NAME` names, or nil for a
/// recording's path: `synthetic:tumble` (`SyntheticTumble`), `synthetic:walk` (`SyntheticWalk`),
/// `synthetic:dive` and `synthetic:dive-salt` (`SyntheticDive` in fresh and salt water).
func syntheticMotion(named name: String) -> (any MotionSource)? {
    switch name {
    case "synthetic:tumble": SyntheticTumble()
    case "synthetic:walk": SyntheticWalk()
    case "synthetic:dive": SyntheticDive(density: 1000)
    case "synthetic:dive-salt": SyntheticDive(density: 1025)
    default: nil
    }
}

/// `motion = synthetic:tumble`: a device tumbling through every orientation, without end:
/// angular velocity (0.6 sin 0.31t, 0.5 cos 0.23t, 0.8) rad/s in device axes, integrated
/// exactly enough (1 ms steps, renormalised) that the accelerometer (gravity only: no linear
/// acceleration) and magnetometer (19 µT north, 46 µT down) it implies agree with it. For
/// calibration and fusion tests that need the field seen from every side, which a recording of
/// a real hand rarely gives in a few seconds.
final class SyntheticTumble: MotionSource {
    private var time = 0.0
    private var q = (w: 1.0, x: 0.0, y: 0.0, z: 0.0)  // device → world (x north, y west, z up)
    private(set) var acceleration = (0.0, 0.0, 9.80665)
    private(set) var angularVelocity = (0.0, 0.5, 0.8)
    private(set) var magneticField = (19.0, 0.0, -46.0)
    let pressure = 101_325.0
    let isFinished = false
    let failure: RecordingError? = nil
    /// The trajectory's own attitude: the truth its sensors are made from.
    var attitude: (w: Double, x: Double, y: Double, z: Double)? { q }

    func advance(to nanoseconds: Int64) {
        let target = Double(nanoseconds) / 1e9
        while time + 0.001 <= target {
            let w = rate(at: time + 0.0005)
            // q ← q ⊗ (1, ω dt/2), renormalised: second order in 1 ms steps.
            let h = (w.0 * 0.0005, w.1 * 0.0005, w.2 * 0.0005)
            q = (q.w - q.x * h.0 - q.y * h.1 - q.z * h.2, q.x + q.w * h.0 + q.y * h.2 - q.z * h.1,
                 q.y + q.w * h.1 - q.x * h.2 + q.z * h.0, q.z + q.w * h.2 + q.x * h.1 - q.y * h.0)
            let n = (q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z).squareRoot()
            q = (q.w / n, q.x / n, q.y / n, q.z / n)
            time += 0.001
        }
        angularVelocity = rate(at: time)
        acceleration = toDevice((0, 0, 9.80665))
        magneticField = toDevice((19, 0, -46))
    }

    /// The angular velocity at `t`, rad/s (sines from FixedPoint's, exact to 10⁻⁵ rad of
    /// argument: the trajectory only has to agree with itself, which it does by construction).
    private func rate(at t: Double) -> (Double, Double, Double) {
        (0.6 * Angle.sineCosine(of: Q16_16(0.31 * t)).sine.doubleValue, 0.5 * Angle.sineCosine(of: Q16_16(0.23 * t)).cosine.doubleValue, 0.8)
    }

    /// A world vector in device axes: q* ⊗ v ⊗ q.
    private func toDevice(_ v: (Double, Double, Double)) -> (Double, Double, Double) {
        let u = (-q.x, -q.y, -q.z)
        let t = (2 * (u.1 * v.2 - u.2 * v.1), 2 * (u.2 * v.0 - u.0 * v.2), 2 * (u.0 * v.1 - u.1 * v.0))
        return (v.0 + q.w * t.0 + u.1 * t.2 - u.2 * t.1, v.1 + q.w * t.1 + u.2 * t.0 - u.0 * t.2, v.2 + q.w * t.2 + u.0 * t.1 - u.1 * t.0)
    }
}
