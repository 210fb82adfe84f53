public import FixedPoint

/// Pressure to altitude by the standard atmosphere's troposphere (ICAO Doc 7488/3, Manual of the
/// ICAO Standard Atmosphere, 1993; identical to the U.S. Standard Atmosphere 1976 below 11 km):
///
///     h = (T₀ / L) (1 − (p / p₀)^(R* L / g₀ M₀)) = 44330.77 m × (1 − (p / p₀)^0.190263)
///
/// with T₀ = 288.15 K, L = 0.0065 K/m, R* = 8.31432 J/(mol K), g₀ = 9.80665 m/s², M₀ =
/// 0.0289644 kg/mol, and p₀ the sea-level pressure (101 325 Pa, or a configured one such as an
/// airfield's QNH). It is the formula of the Bosch BMP180 datasheet (BST-BMP180-DS000-09,
/// §3.6). Valid from about −500 m to 11 km (p above 22 632 Pa). The air's temperature in it is
/// the standard one, T(h) = T₀ − L h = T₀ (p/p₀)^0.190263; `BarometricAltimeter` scales
/// height *changes* by the air's temperature over it (the hypsometric equation).
///
/// Q32.32 throughout, no allocation: the power is exp(0.190263 ln(p/p₀)) with FixedPoint's
/// logarithm and exponential, so ln p − ln p₀ carries ≈ 10⁻⁹ and the altitude ≈ 0.1 mm of
/// rounding (StandardAtmosphereTests: within 1 mm of Double's formula from 30 to 110 kPa).
public enum StandardAtmosphere {
    /// p₀ of the standard atmosphere, Pa.
    public static let seaLevelPressure = Q32_32(101_325.0)
    /// T₀, K.
    public static let seaLevelTemperature = Q32_32(288.15)
    /// T₀ / L, m.
    public static let scaleHeight = Q32_32(44_330.77)
    /// R* L / (g₀ M₀), dimensionless.
    public static let exponent = Q32_32(0.190263)
    /// R* / (g₀ M₀), m/K: the hypsometric equation's dh = −(R*/g₀M₀) T dp/p.
    public static let metresPerKelvin = Q32_32(29.27124)

    /// (p / p₀)^0.190263 = T(h) / T₀ for pressure `pressure` and sea-level pressure
    /// `seaLevelPressure`, Pa (both > 0).
    public static func temperatureRatio(pressure: Q32_32, seaLevelPressure: Q32_32) -> Q32_32 {
        (exponent * (pressure.naturalLogarithm - seaLevelPressure.naturalLogarithm)).exponential
    }

    /// The altitude, m above the level where the pressure is `seaLevelPressure`, of pressure
    /// `pressure` (Pa).
    public static func altitude(pressure: Q32_32, seaLevelPressure: Q32_32 = seaLevelPressure) -> Q32_32 {
        scaleHeight * (.one - temperatureRatio(pressure: pressure, seaLevelPressure: seaLevelPressure))
    }

    /// The altitude's change per pascal of `seaLevelPressure` at `altitude`, m/Pa: ∂h/∂p₀ =
    /// (R*/g₀M₀) T(h) / p₀ (≈ 0.0832 m/Pa, 8.3 m per hPa, at sea level), for the accuracy a
    /// reference's uncertainty allows.
    public static func metresPerSeaLevelPascal(altitude: Q32_32, seaLevelPressure: Q32_32) -> Q32_32 {
        let temperature = seaLevelTemperature - altitude * Q32_32(0.0065)
        let inverseRoot = seaLevelPressure.reciprocalSquareRoot
        return metresPerKelvin * temperature * inverseRoot * inverseRoot
    }

    /// The height change per pascal of pressure at `pressure` (Pa) in air at
    /// `temperatureKelvin`, m/Pa (positive: height falls as pressure rises): (R*/g₀M₀) T / p,
    /// ≈ 0.083 m/Pa at sea level and 15 °C. For turning pressure noise into metres.
    public static func metresPerPascal(pressure: Q32_32, temperatureKelvin: Q32_32) -> Q32_32 {
        let inverseRoot = pressure.reciprocalSquareRoot
        return metresPerKelvin * temperatureKelvin * inverseRoot * inverseRoot
    }
}

/// The sea-level pressure absolute altitude is measured against, and how well it is known.
public struct AltitudeReference: Sendable, Equatable {
    /// Pa.
    public var seaLevelPressure: Q32_32
    /// One standard deviation of `seaLevelPressure`'s error here and now, Pa: what makes
    /// `BarometricAltimeter.accuracy`.
    public var uncertainty: Q32_32

    public init(seaLevelPressure: Q32_32, uncertainty: Q32_32) {
        self.seaLevelPressure = seaLevelPressure
        self.uncertainty = uncertainty
    }

    /// The standard atmosphere's 1013.25 hPa, with 10 hPa of uncertainty: the spread of the
    /// actual sea-level pressure about it (weather: mostly 990…1035 hPa at mid-latitudes), so an
    /// accuracy of ≈ 83 m at sea level. The sensor's own absolute error (BMP280: ±1 hPa,
    /// BST-BMP280-DS001) is ten times smaller and left out.
    public static let standardAtmosphere = AltitudeReference(seaLevelPressure: StandardAtmosphere.seaLevelPressure,
                                                             uncertainty: Q32_32(1000.0))

    /// A measured sea-level pressure (Pa; a QNH from a nearby airfield's METAR, given to 1 hPa)
    /// with 1 hPa of uncertainty by default (its rounding, the distance to the airfield and the
    /// hour since it was issued): ≈ 8 m of accuracy.
    public static func measured(seaLevelPressure: Q32_32, uncertainty: Q32_32 = Q32_32(100.0)) -> AltitudeReference {
        AltitudeReference(seaLevelPressure: seaLevelPressure, uncertainty: uncertainty)
    }
}
