public import FixedPoint

/// Altitude from a barometer, as Core Motion's altimeter reports it: the pressure low-passed,
/// the altitude since the first sample (`relativeAltitude`, CMAltitudeData) and the altitude
/// above sea level (`absoluteAltitude`, CMAbsoluteAltitudeData) with its `accuracy` and
/// `precision`. Q32.32, no allocation; one pressure → altitude conversion (`StandardAtmosphere`)
/// for the altimeter and the floor counter.
///
/// - Low-pass: first order on the pressure, time constant 1 s, discretised exactly (α = 1 −
///   e^(−dt/τ), so the response does not depend on the sample rate; the first samples are
///   averaged, α = 1/k, until 1/k < α, so a start is not one noisy sample): cut-off 0.16 Hz,
///   a lag of 1 s behind a steady climb (0.3…0.5 m on stairs) that settles within 1 % 4.6 s
///   after the climb ends. White barometer noise falls by √(α/(2 − α)): a BMP280 at ×16
///   oversampling without its own IIR filter (1.3 Pa ≈ 11 cm rms per sample,
///   BST-BMP280-DS001) read at 25 Hz gives 0.18 Pa ≈ 1.5 cm. A floor (3 m) stands out within
///   a second; a hand moving the device up and down once a second is reduced sixfold (gain
///   1/√(1 + (2π)²)).
/// - Relative altitude: the sum of the standard atmosphere's height changes, each scaled by
///   T / T_std(h) for the air's temperature T (the hypsometric equation: dh = −29.27 m/K × T
///   dp/p; 1 % of the height per 3 K). T is the thermometer's when the board has one, else
///   15 °C (the standard's sea-level temperature, and closer to the indoor air stairs are
///   climbed in than the standard's 12 °C at 500 m). Like Core Motion's it follows the
///   weather too: a pressure change of 1 hPa per hour (a passing front) is 8 m per hour of
///   drift, which nothing in a barometer alone can tell from a climb.
/// - Absolute altitude: the standard atmosphere's formula against `reference`. `accuracy` is
///   one standard deviation of the reference's error as height (∂h/∂p₀ × uncertainty: 83 m
///   for the standard atmosphere at sea level, 8 m for a QNH); `precision` is one standard
///   deviation of the filtered altitude's noise, from the raw pressure's second differences
///   (white noise of variance σ² gives them variance 6σ²; a steady climb gives none),
///   averaged over 10 s (over all of them in the first 10 s).
public struct BarometricAltimeter: Sendable {
    public let reference: AltitudeReference

    /// Pa, low-passed.
    public private(set) var pressure = Q32_32.zero
    /// m since the first sample, low-passed.
    public private(set) var relativeAltitude = Q32_32.zero
    /// m above the reference's sea level, low-passed.
    public private(set) var absoluteAltitude = Q32_32.zero
    /// m, one standard deviation (see the type's notes).
    public private(set) var accuracy = Q32_32.zero
    /// m, one standard deviation of `absoluteAltitude`'s (and `relativeAltitude`'s) noise.
    public private(set) var precision = Q32_32.zero
    /// Whether a pressure sample has been taken (before it, every output is 0).
    public private(set) var hasStarted = false

    /// The air's temperature, K: the thermometer's, or 15 °C until it gives one.
    private var temperatureKelvin = StandardAtmosphere.seaLevelTemperature
    /// The last two raw pressures, Pa (for the noise's second differences) and how many of
    /// the three a second difference needs have been seen.
    private var rawPressures = (Q32_32.zero, Q32_32.zero)
    private var rawCount = 0
    /// Mean square second difference / 6: the raw pressure's noise variance, Pa².
    private var noiseVariance = Q32_32.zero
    /// Pressure samples taken after the first, up to `warmUpSamples`: the first ones are
    /// averaged (α = 1/k) until the low-pass's own α is larger, and so are the first noise
    /// estimates, so that neither starts from one noisy sample.
    private var sampleCount = 0
    private static let warmUpSamples = 1 << 20
    /// The last dt and its α, so a steady rate computes the exponential once.
    private var lastDt = Q32_32(rawValue: -1)
    private var lastAlpha = Q32_32.one

    private static let lowestPressure = Q32_32(1000.0)  // Pa: below, not air pressure but a broken reading
    private static let zeroCelsius = Q32_32(273.15)     // K
    private static let timeConstant = Q32_32.one        // s: the low-pass (τ = 1 s: α = 1 − e^(−dt))
    private static let noiseTimeConstant = Q32_32(0.1)  // 1/s: the noise average's rate (10 s)
    private static let oneSixth = Q32_32(1.0 / 6)

    public init(reference: AltitudeReference = .standardAtmosphere) {
        self.reference = reference
    }

    /// The air's temperature, °C (a barometer's own die temperature is close enough: it sits
    /// beside the pressure cell).
    public mutating func update(temperatureCelsius: Q32_32) {
        temperatureKelvin = temperatureCelsius + Self.zeroCelsius
    }

    /// One pressure sample, Pa, `dt` s after the previous one (ignored for the first). Returns
    /// false, changing nothing, for a reading that is not air pressure (≤ 1000 Pa).
    @discardableResult
    public mutating func update(pressure raw: Q32_32, dt: Q32_32) -> Bool {
        guard raw > Self.lowestPressure else { return false }
        guard hasStarted else {
            hasStarted = true
            pressure = raw
            absoluteAltitude = StandardAtmosphere.altitude(pressure: raw, seaLevelPressure: reference.seaLevelPressure)
            rawPressures = (raw, raw)
            rawCount = 1
            updateAccuracy()
            return true
        }
        let alpha = smoothing(dt: dt)
        // Warm-up: the running mean of the k samples so far while 1/k > α (the first second).
        sampleCount = min(sampleCount + 1, Self.warmUpSamples)
        let mean = Q32_32(rawValue: Q32_32.one.rawValue / Int64(sampleCount + 1))
        pressure = pressure + (raw - pressure) * (mean > alpha ? mean : alpha)
        let ratio = StandardAtmosphere.temperatureRatio(pressure: pressure, seaLevelPressure: reference.seaLevelPressure)
        let altitude = StandardAtmosphere.scaleHeight * (.one - ratio)
        // dh_hypsometric / dh_standard = T / T_std(h), T_std = T₀ × ratio.
        let standardRoot = (StandardAtmosphere.seaLevelTemperature * ratio).reciprocalSquareRoot
        relativeAltitude = relativeAltitude + (altitude - absoluteAltitude) * temperatureKelvin * standardRoot * standardRoot
        absoluteAltitude = altitude
        updateNoise(raw: raw, dt: dt, alpha: alpha)
        updateAccuracy()
        return true
    }

    /// α = 1 − e^(−dt/τ) for the low-pass (1 for dt ≤ 0: a repeated time stamp takes the sample
    /// as it is; that happens only on broken clocks).
    private mutating func smoothing(dt: Q32_32) -> Q32_32 {
        if dt != lastDt {
            lastDt = dt
            lastAlpha = dt > .zero ? .one - (-dt).exponential : .one
        }
        return lastAlpha
    }

    private mutating func updateNoise(raw: Q32_32, dt: Q32_32, alpha: Q32_32) {
        defer { rawPressures = (rawPressures.1, raw) }
        rawCount = min(rawCount + 1, 3)
        guard rawCount == 3 else { return }
        let second = raw - rawPressures.1.timesPowerOfTwo(1) + rawPressures.0
        // 10 s of average, or the mean of all second differences so far while they are fewer.
        let decay = dt * Self.noiseTimeConstant > .one ? Q32_32.one : dt * Self.noiseTimeConstant
        let mean = Q32_32(rawValue: Q32_32.one.rawValue / Int64(max(sampleCount - 1, 1)))
        let weight = mean > decay ? mean : decay
        noiseVariance = noiseVariance + (second * second * Self.oneSixth - noiseVariance) * weight
        // The filtered noise: σ² α / (2 − α) for white noise through the first-order low-pass.
        let filteredRoot = (alpha * noiseVariance).squareRoot * (Q32_32(2.0) - alpha).reciprocalSquareRoot
        precision = filteredRoot * StandardAtmosphere.metresPerPascal(pressure: pressure, temperatureKelvin: temperatureKelvin)
    }

    private mutating func updateAccuracy() {
        accuracy = reference.uncertainty
            * StandardAtmosphere.metresPerSeaLevelPascal(altitude: absoluteAltitude, seaLevelPressure: reference.seaLevelPressure)
    }
}
