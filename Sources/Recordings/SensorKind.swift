/// The kinds of sensor a recording holds (recording format v1, "Columns").
/// The raw values are also the pipeline's `SensorChannel` and the C API's `ocm_sensor`.
public enum SensorKind: UInt8, Sendable, CaseIterable, Equatable {
    /// Specific force (gravity included) in m/s²; x, y, z.
    case accelerometer = 0
    /// Angular rate in rad/s, right-handed about the device axes; x, y, z.
    case gyroscope = 1
    /// Magnetic flux density in µT, as measured (hard and soft iron not removed); x, y, z.
    case magnetometer = 2
    /// Static pressure in Pa; x only.
    case barometer = 3
    /// Temperature in °C; x only.
    case thermometer = 4

    /// The name in a recording's `sensor` column.
    public var recordingName: String {
        switch self {
        case .accelerometer: "acc"
        case .gyroscope: "gyr"
        case .magnetometer: "mag"
        case .barometer: "baro"
        case .thermometer: "temp"
        }
    }

    public init?(recordingName: some StringProtocol) {
        guard let kind = Self.allCases.first(where: { $0.recordingName == recordingName }) else { return nil }
        self = kind
    }

    /// Whether the kind has three components (x, y, z) rather than one (x).
    public var isVector: Bool { self.rawValue <= SensorKind.magnetometer.rawValue }

    /// The unit of the values, as the format defines it.
    public var unit: String {
        switch self {
        case .accelerometer: "m/s²"
        case .gyroscope: "rad/s"
        case .magnetometer: "µT"
        case .barometer: "Pa"
        case .thermometer: "°C"
        }
    }
}
