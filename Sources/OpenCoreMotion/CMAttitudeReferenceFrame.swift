/// Core Motion's `CMAttitudeReferenceFrame`: where an attitude's x axis points (z is always
/// vertical). An option set with Core Motion's raw values, so `availableAttitudeReferenceFrames()`
/// can return several; starting device motion takes exactly one.
public struct CMAttitudeReferenceFrame: OptionSet, Sendable, Hashable {
    public let rawValue: UInt

    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// x where the device's x pointed when updates started; accelerometer + gyroscope only.
    public static let xArbitraryZVertical = CMAttitudeReferenceFrame(rawValue: 1 << 0)
    /// The same arbitrary x, with the magnetometer stopping yaw drift.
    public static let xArbitraryCorrectedZVertical = CMAttitudeReferenceFrame(rawValue: 1 << 1)
    /// x to magnetic north.
    public static let xMagneticNorthZVertical = CMAttitudeReferenceFrame(rawValue: 1 << 2)
    /// x to true north (magnetic north turned by `CMMotionManager.magneticDeclination`).
    public static let xTrueNorthZVertical = CMAttitudeReferenceFrame(rawValue: 1 << 3)
}
