/// One row of a recording: a timestamp, a sensor kind and its value in SI units.
public struct RecordedSample: Sendable, Equatable {
    /// The `t` column in nanoseconds, parsed exactly from its decimal text (no floating-point
    /// rounding): seconds on a monotonic clock with an arbitrary origin.
    public var timestampNanoseconds: Int64
    public var sensor: SensorKind
    /// The value in the sensor's unit (`SensorKind.unit`). Scalar kinds (baro, temp) keep it in
    /// `x`; their `y` and `z` are 0.
    public var x: Double
    public var y: Double
    public var z: Double

    public init(timestampNanoseconds: Int64, sensor: SensorKind, x: Double, y: Double = 0, z: Double = 0) {
        self.timestampNanoseconds = timestampNanoseconds
        self.sensor = sensor
        self.x = x
        self.y = y
        self.z = z
    }
}
