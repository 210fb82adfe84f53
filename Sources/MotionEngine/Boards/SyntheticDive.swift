import Recordings

/// `motion = synthetic:dive` (fresh water) or `synthetic:dive-salt`: a depth sensor carried on
/// a scripted dive, without end, so that water-submersion tests know the answer
/// (`boards/sim-ms5837.board`). Depth d gives the static pressure p = p_air + ρ g d, with
/// ρ = 1000 or 1025 kg/m³ and g = 9.80665 m/s², the density the tracker must be told.
///
/// One cycle of `cycleSeconds` (28 s):
/// - 0–6 s in air at the surface (100 800 Pa, not sea level: the surface must be learned), 20 °C;
/// - 6–8 s splashing at the surface: waves of 5 cm with a splash to 0.15 m (no dive);
/// - 8–15 s descending at 1 m/s to `bottomDepth` (7 m), 15–18 s holding there;
/// - 18–25 s ascending at 1 m/s, 25–28 s floating with ±3 cm chop, then out of the water.
/// The water is 14 °C at every depth (the emulator's die follows it at once: no housing lag).
/// Descent and ascent are fast for a diver (dive computers allow 9–18 m/min up) so that a live
/// test sees a whole dive in half a minute; the depth they imply is exact whatever the speed.
/// No motion: the IMU-less board's other senses stay at rest.
final class SyntheticDive: MotionSource {
    static let cycleSeconds = 28.0
    static let bottomDepth = 7.0
    static let airPressure = 100_800.0
    static let airCelsius = 20.0
    static let waterCelsius = 14.0
    static let gravity = 9.80665

    let density: Double
    let acceleration = (0.0, 0.0, 9.80665)
    let angularVelocity = (0.0, 0.0, 0.0)
    let magneticField = (19.0, 0.0, -46.0)
    private(set) var pressure = SyntheticDive.airPressure
    private(set) var temperature: Double? = SyntheticDive.airCelsius
    let isFinished = false
    let failure: RecordingError? = nil

    init(density: Double) { self.density = density }

    func advance(to nanoseconds: Int64) {
        let depth = Self.depth(atNanoseconds: nanoseconds)
        pressure = Self.airPressure + density * Self.gravity * max(0, depth)
        temperature = depth > 0 ? Self.waterCelsius : Self.airCelsius
    }

    /// The sensor's depth at board time `nanoseconds`, m (0 or less: out of the water).
    static func depth(atNanoseconds nanoseconds: Int64) -> Double {
        let t = Double(nanoseconds % Int64(cycleSeconds * 1e9)) / 1e9
        switch t {
        case ..<6: return 0
        case ..<8: return 0.05 + 0.05 * triangle(t - 6, period: 0.8) + (t >= 7.2 && t < 7.4 ? 0.05 : 0)  // chop and a splash
        case ..<15: return t - 8
        case ..<18: return bottomDepth
        case ..<25: return bottomDepth - (t - 18)
        default: return 0.03 * triangle(t - 25, period: 1.0)  // floating, ±3 cm
        }
    }

    /// A triangle wave between −1 and 1.
    private static func triangle(_ t: Double, period: Double) -> Double {
        let phase = t / period - (t / period).rounded(.down)
        return phase < 0.5 ? 4 * phase - 1 : 3 - 4 * phase
    }
}
