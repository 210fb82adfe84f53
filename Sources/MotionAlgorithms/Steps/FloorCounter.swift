public import FixedPoint

/// Floors climbed and descended from a barometer, Core Motion's way: about 3 m per floor,
/// counted only while the user is stepping, so lifts and escalators count nothing, and only
/// while the height changes at a climbing pace, so weather drift (≈ 1 hPa per hour, 8 m per
/// hour) never adds up to a floor. Q32.32, no allocation.
///
/// Height from pressure by the hypsometric equation, h = (R T / g M) ln(p₀ / p) (29.27 m/K × T
/// for dry air), against a reference pressure p₀ that is re-anchored whenever counting is idle,
/// so ln(p₀/p) stays small: ln(1 + u) = u − u²/2 + u³/3 with u = (p₀ − p)/p, under 10⁻⁷ relative
/// for the 0.5 % of a 40 m climb.
public struct FloorCounter: Sendable {
    public private(set) var floorsAscended = 0
    public private(set) var floorsDescended = 0
    /// Height above the reference, m (smoothed), for `altitude.csv`.
    public private(set) var relativeAltitude = Q32_32.zero

    private var started = false
    private var referencePressure = Q32_32.zero
    /// Height of the reference pressure's point above the first sample, m.
    private var referenceAltitude = Q32_32.zero
    private var smoothed = Q32_32.zero
    private var climbRate = Q32_32.zero
    private var anchor = Q32_32.zero
    private var idleTime = Q32_32.zero
    private var temperatureKelvin = Q32_32(288.15)

    private let floorHeight = Q32_32(3.0)
    private let minimumClimbRate = Q32_32(0.05)  // m/s: stairs 0.2…0.5, weather 0.002
    private let idleLimit = Q32_32(10.0)         // s without stepping or climbing: re-anchor
    private let metresPerKelvin = Q32_32(29.27)
    private let oneThird = Q32_32(1.0 / 3)
    private let zeroCelsius = Q32_32(273.15)     // K
    private let lowestPressure = Q32_32(1000.0)  // Pa

    public init() {}

    /// The air's temperature, °C (the barometer's own die temperature is close enough).
    public mutating func update(temperatureCelsius: Q32_32) {
        temperatureKelvin = temperatureCelsius + zeroCelsius
    }

    /// One pressure sample, Pa, `dt` s after the previous; `stepping` says whether the user is
    /// taking steps now (without an accelerometer, pass true: then lifts cannot be told apart).
    public mutating func update(pressure: Q32_32, dt: Q32_32, stepping: Bool) {
        guard pressure > lowestPressure else { return }  // not air pressure: a broken reading
        if !started {
            started = true
            referencePressure = pressure
            return
        }
        // u = (p₀ − p) / p, 1/p as (1/√p)².
        let inverseRoot = pressure.reciprocalSquareRoot
        let u = (referencePressure - pressure) * inverseRoot * inverseRoot
        let logarithm = u - (u * u).timesPowerOfTwo(-1) + u * u * u * oneThird
        let height = referenceAltitude + metresPerKelvin * temperatureKelvin * logarithm
        // Smooth with a 1 s time constant (barometer noise: 0.1…0.3 m), rate with 3 s.
        let previous = smoothed
        smoothed = smoothed + (height - smoothed) * (dt > .one ? .one : dt)
        if dt > .zero {
            let inverseRootDt = dt.reciprocalSquareRoot
            let rate = (smoothed - previous) * inverseRootDt * inverseRootDt
            climbRate = climbRate + (rate - climbRate) * (dt * oneThird)
        }
        relativeAltitude = smoothed
        let climbing = climbRate > minimumClimbRate || -climbRate > minimumClimbRate
        idleTime = stepping && climbing ? .zero : idleTime + dt
        if idleTime >= idleLimit || !stepping {
            // Idle, or not on foot: what changes now (weather, a lift) is not climbing.
            if !stepping { idleTime = idleLimit }
            anchor = smoothed
            // Re-base the logarithm's reference here, keeping the height continuous.
            referencePressure = pressure
            referenceAltitude = height
            return
        }
        while smoothed - anchor >= floorHeight {
            floorsAscended += 1
            anchor = anchor + floorHeight
        }
        while anchor - smoothed >= floorHeight {
            floorsDescended += 1
            anchor = anchor - floorHeight
        }
    }
}
