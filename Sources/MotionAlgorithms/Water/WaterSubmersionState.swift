/// Where a depth sensor is, as Core Motion's `CMWaterSubmersionMeasurement.DepthState` says it
/// (raw values are Core Motion's).
public enum WaterSubmersionState: Int, Sendable, BitwiseCopyable, CaseIterable {
    /// The surface pressure is not known yet: no depth can be given.
    case unknown = 0
    case notSubmerged = 100
    /// Submerged, shallower than `WaterSubmersionSettings.deepDepth`.
    case submergedShallow = 200
    case submergedDeep = 300
    /// Within `approachingMargin` of the maximum depth.
    case approachingMaxDepth = 400
    /// Deeper than the maximum depth the device (its housing, its sensor) is rated for.
    case pastMaxDepth = 500
    /// The sensor's pressure cannot be a depth: beyond its range, or far below the surface's.
    case sensorDepthError = 600
}

/// The thresholds of the submersion state machine, all in metres of depth.
///
/// Core Motion documents no numbers for these states. Apple's watches measure depth to 6 m
/// (40 m on Apple Watch Ultra, whose `maximumDepth` says so), and 1 m is the depth usually
/// given for Apple's shallow/deep split (unconfirmed: not in Apple's API reference). We take
/// 1 m as the shallow/deep boundary and a lower depth for being submerged at all, because a
/// board on a tether or a float is "in the water" well before 1 m:
/// - submerged from 0.25 m for two readings in a row, surfaced below 0.10 m: surface chop and
///   a splash move a sensor at the surface by a few centimetres to ~0.2 m (one reading is 40 ms
///   on an MS5837 at OSR 8192), and the 15 cm gap keeps the events from chattering;
/// - every deeper boundary (deep, approaching, past) is crossed downward at its depth and
///   upward `hysteresis` (0.10 m) above it, for the same reason;
/// - approaching the maximum depth within 10 % of it (0.6 m of a 6 m rating).
public struct WaterSubmersionSettings: Sendable, Equatable {
    /// Water density, kg/m³: `fresh` (1000) or `salt` (1025, mean sea-surface seawater), or a
    /// measured value. Depth scales as 1/density.
    public var waterDensity: Double
    /// The deepest the device may go, m: its housing's rating or its sensor's range.
    public var maximumDepth: Double
    /// The sensor's highest valid pressure, Pa (beyond it the reading is not a depth).
    public var sensorFullScalePascals: Double
    public var submergedDepth = 0.25
    public var surfacedDepth = 0.10
    public var deepDepth = 1.0
    public var hysteresis = 0.10
    public var approachingFraction = 0.9

    public static let freshWaterDensity = 1000.0
    public static let saltWaterDensity = 1025.0
    /// Standard gravity, m/s² (depth gauges use it; local g differs by < 0.3 %).
    public static let gravity = 9.80665

    public init(waterDensity: Double = freshWaterDensity, maximumDepth: Double, sensorFullScalePascals: Double) {
        self.waterDensity = waterDensity
        self.maximumDepth = maximumDepth
        self.sensorFullScalePascals = sensorFullScalePascals
    }

    /// Pa per metre of this water.
    public var pascalsPerMetre: Double { waterDensity * Self.gravity }
}
