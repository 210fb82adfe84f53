import FixedPoint

/// Running statistics of one sensor channel's values: count, per-axis mean, and the mean,
/// minimum and maximum "level" — the vector's length for acc/gyro/mag (|a|, |ω|, |B|), the value
/// itself for pressure and temperature. All in the channel's own fixed-point format
/// (``SensorValue``); integer sums, so the result does not depend on the order of rounding.
///
/// `motionctl replay` and `info` print these per channel; they are also a quick check
/// that a recording or a board is sane (|a| ≈ 9.81 m/s² at rest, |B| 25–65 µT on Earth).
public struct ChannelStatistics: Sendable, BitwiseCopyable {
    public private(set) var count: Int64 = 0
    /// Sums of raw x, y, z (scalar channels fill x). |raw| < 2³¹, so 2³² samples fit in Int64.
    public private(set) var sumX: Int64 = 0
    public private(set) var sumY: Int64 = 0
    public private(set) var sumZ: Int64 = 0
    /// Sum, minimum and maximum of the raw level.
    public private(set) var levelSum: Int64 = 0
    public private(set) var levelMinimum: Int32 = .max
    public private(set) var levelMaximum: Int32 = .min

    @inlinable
    public init() {}

    public mutating func add(_ value: SensorValue) {
        let x: Int32, y: Int32, z: Int32, level: Int32
        switch value {
        case .acceleration(let vector), .angularVelocity(let vector), .magneticField(let vector):
            (x, y, z) = (vector.x.rawValue, vector.y.rawValue, vector.z.rawValue)
            level = vector.length.rawValue
        case .pressure(let pressure):
            (x, y, z, level) = (pressure.rawValue, 0, 0, pressure.rawValue)
        case .temperature(let temperature):
            (x, y, z, level) = (temperature.rawValue, 0, 0, temperature.rawValue)
        }
        count += 1
        sumX += Int64(x)
        sumY += Int64(y)
        sumZ += Int64(z)
        levelSum += Int64(level)
        levelMinimum = min(levelMinimum, level)
        levelMaximum = max(levelMaximum, level)
    }

    /// Mean raw value of x, y, z and of the level, rounded to nearest (ties away from zero);
    /// zeros when empty.
    public var meanRaw: (x: Int32, y: Int32, z: Int32, level: Int32) {
        guard count > 0 else { return (0, 0, 0, 0) }
        return (Self.roundedMean(sumX, count), Self.roundedMean(sumY, count),
                Self.roundedMean(sumZ, count), Self.roundedMean(levelSum, count))
    }

    @inlinable
    static func roundedMean(_ sum: Int64, _ count: Int64) -> Int32 {
        // The mean of Int32 values is an Int32 value: the conversion cannot trap.
        let half = count / 2
        return Int32(sum >= 0 ? (sum + half) / count : (sum - half) / count)
    }
}
