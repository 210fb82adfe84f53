public import FixedPoint

/// One measurement as the algorithms take it: a timestamp and a fixed-point value in SI units.
/// Device axes throughout (x right, y up the screen, z out of the screen), as in a recording.
public struct SensorReading: Sendable, BitwiseCopyable, Equatable {
    /// Nanoseconds on a monotonic clock (CLOCK_MONOTONIC live; the recording's clock in replay).
    public var timestampNanoseconds: Int64
    public var value: SensorValue

    @inlinable
    public init(timestampNanoseconds: Int64, value: SensorValue) {
        self.timestampNanoseconds = timestampNanoseconds
        self.value = value
    }
}

/// A measured quantity with its unit and fixed-point format.
public enum SensorValue: Sendable, BitwiseCopyable, Equatable {
    /// Specific force (gravity included, +9.81 on z lying face up) in m/s², Q16.16
    /// (1 LSB ≈ 1.5 × 10⁻⁵ m/s², range ±32768 m/s² ≈ ±3341 g).
    case acceleration(Vector3)
    /// Angular velocity in rad/s, Q16.16 (1 LSB ≈ 0.00087 °/s), right-handed about device axes.
    case angularVelocity(Vector3)
    /// Magnetic flux density as measured (hard/soft iron included) in µT, Q16.16.
    case magneticField(Vector3)
    /// Static pressure in Pa, Q24.8 (1 LSB = 1/256 Pa ≈ 0.3 mm of altitude, range ±8.4 MPa).
    case pressure(Q24_8)
    /// Temperature in °C, Q16.16.
    case temperature(Q16_16)

    /// Which of the five sensor channels this value came from.
    @inlinable
    public var channel: SensorChannel {
        switch self {
        case .acceleration: return .accelerometer
        case .angularVelocity: return .gyroscope
        case .magneticField: return .magnetometer
        case .pressure: return .barometer
        case .temperature: return .thermometer
        }
    }
}

/// The five kinds of sensor a board or recording can have; raw values are the recording
/// reader's `SensorKind` and the C API's `ocm_sensor`.
public enum SensorChannel: UInt8, Sendable, BitwiseCopyable, CaseIterable {
    case accelerometer = 0, gyroscope = 1, magnetometer = 2, barometer = 3, thermometer = 4
}
