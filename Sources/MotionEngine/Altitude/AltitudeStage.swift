public import MotionAlgorithms
public import FixedPoint

/// The altimeter stage: barometer and thermometer readings in, altitude out
/// (`BarometricAltimeter`: relative altitude since the first pressure reading, absolute
/// altitude with accuracy and precision). The pedometer's floors and `CMAltimeter` both run
/// one. No allocation per reading.
public struct AltitudeStage: Sendable {
    public private(set) var altimeter: BarometricAltimeter
    private var lastPressureTime: Int64?
    /// The altimeter's relative altitude at the first update, m: relative altitude's zero.
    private var origin: Q32_32?

    public init(reference: AltitudeReference = .standardAtmosphere) {
        altimeter = BarometricAltimeter(reference: reference)
    }

    /// Takes one reading. For a pressure reading the altimeter took, returns the seconds since
    /// the previous one (0 for the first); nil for anything else (temperature, other sensors, a
    /// broken pressure reading).
    public mutating func process(_ reading: SensorReading) -> Q32_32? {
        switch reading.value {
        case .pressure(let pressure):
            let time = reading.timestampNanoseconds
            let dt = lastPressureTime.map { Q32_32(nanoseconds: time - $0) } ?? .zero
            guard altimeter.update(pressure: Q32_32(pressure), dt: dt) else { return nil }
            lastPressureTime = time
            return dt
        case .temperature(let temperature):
            altimeter.update(temperatureCelsius: Q32_32(temperature))
            return nil
        default:
            return nil
        }
    }

    /// The altitude now, as CMAltitudeData and CMAbsoluteAltitudeData give it, stamped `time`
    /// (ns), for an update; nil before the first pressure reading. The first update sets
    /// relative altitude's zero ("metres since the first update", as Core Motion's).
    public mutating func update(at time: Int64) -> AltitudeValues? {
        guard altimeter.hasStarted else { return nil }
        let relative = altimeter.relativeAltitude
        if origin == nil { origin = relative }
        return AltitudeValues(timestampNanoseconds: time,
                              relativeAltitude: (relative - (origin ?? relative)).doubleValue,
                              pressureKilopascals: altimeter.pressure.doubleValue / 1000,
                              absoluteAltitude: altimeter.absoluteAltitude.doubleValue,
                              accuracy: altimeter.accuracy.doubleValue,
                              precision: altimeter.precision.doubleValue)
    }
}

/// One altitude update: what CMAltitudeData (relative altitude, pressure) and
/// CMAbsoluteAltitudeData (altitude, accuracy, precision) hold.
public struct AltitudeValues: Sendable, Equatable {
    /// The pressure reading's time, ns (the engine's clock).
    public var timestampNanoseconds: Int64
    /// m since the first update, up positive.
    public var relativeAltitude: Double
    /// kPa, low-passed.
    public var pressureKilopascals: Double
    /// m above the reference's sea level.
    public var absoluteAltitude: Double
    /// m, one standard deviation of the absolute altitude's error (the reference's uncertainty).
    public var accuracy: Double
    /// m, one standard deviation of the altitude's noise.
    public var precision: Double

    public init(timestampNanoseconds: Int64, relativeAltitude: Double, pressureKilopascals: Double,
                absoluteAltitude: Double, accuracy: Double, precision: Double) {
        self.timestampNanoseconds = timestampNanoseconds
        self.relativeAltitude = relativeAltitude
        self.pressureKilopascals = pressureKilopascals
        self.absoluteAltitude = absoluteAltitude
        self.accuracy = accuracy
        self.precision = precision
    }
}

/// Core Motion's altimeter pace: the first update once the low-pass has had a second of
/// readings (an iPhone's first relative altitude also comes about a second after the start),
/// then one with the first reading at least `intervalNanoseconds` (1 s, as an iPhone's
/// relative altitude handler is called) after the last update.
public struct AltitudeUpdateSchedule: Sendable {
    public var intervalNanoseconds: Int64 = 1_000_000_000
    /// The last update's time, or before the first, the first reading's.
    private var lastUpdate: Int64?

    public init() {}

    /// Whether an update is due at `time` (ns, a pressure reading's); marks it sent.
    public mutating func isDue(at time: Int64) -> Bool {
        guard let lastUpdate else {
            lastUpdate = time
            return false
        }
        guard time - lastUpdate >= intervalNanoseconds else { return false }
        self.lastUpdate = time
        return true
    }
}
