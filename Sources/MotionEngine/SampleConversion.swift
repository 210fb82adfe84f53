import FixedPoint
public import MotionAlgorithms
public import Recordings

extension SensorReading {
    /// Converts a recorded sample (SI units, Double) to the pipeline's fixed-point formats
    /// (``SensorValue``), rounding to the nearest LSB. Values beyond a format's range saturate;
    /// `isSaturated(_:)` says when that happened so the caller can count it.
    public init(_ recorded: RecordedSample) {
        let vector = Vector3(x: Q16_16(recorded.x), y: Q16_16(recorded.y), z: Q16_16(recorded.z))
        let value: SensorValue
        switch recorded.sensor {
        case .accelerometer: value = .acceleration(vector)
        case .gyroscope: value = .angularVelocity(vector)
        case .magnetometer: value = .magneticField(vector)
        case .barometer: value = .pressure(Q24_8(recorded.x))
        case .thermometer: value = .temperature(Q16_16(recorded.x))
        }
        self.init(timestampNanoseconds: recorded.timestampNanoseconds, value: value)
    }

    /// Whether converting `recorded` saturates: a component outside ±32768 (Q16.16: m/s², rad/s,
    /// µT, °C) or ±8 388 608 Pa (Q24.8). No real sensor reading gets there (±16 g is 157 m/s²),
    /// so a saturated value means a corrupt recording or a unit mistake, and is reported.
    public static func isSaturated(_ recorded: RecordedSample) -> Bool {
        let limit = recorded.sensor == .barometer ? 8_388_608.0 : 32_768.0
        return !(abs(recorded.x) < limit && abs(recorded.y) < limit && abs(recorded.z) < limit)
    }
}
