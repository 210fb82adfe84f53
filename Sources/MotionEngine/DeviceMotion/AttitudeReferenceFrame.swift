/// Core Motion's `CMAttitudeReferenceFrame`: where the attitude's x axis points (z is always up).
public enum AttitudeReferenceFrame: String, Sendable, CaseIterable {
    /// x where the device's x pointed when updates started; accelerometer + gyroscope only.
    case xArbitraryZVertical = "x-arbitrary-z-vertical"
    /// The same x, with the magnetometer stopping the heading drift.
    case xArbitraryCorrectedZVertical = "x-arbitrary-corrected-z-vertical"
    /// x to magnetic north.
    case xMagneticNorthZVertical = "x-magnetic-north-z-vertical"
    /// x to true north: magnetic north turned by the declination.
    case xTrueNorthZVertical = "x-true-north-z-vertical"

    /// Whether the frame needs a magnetometer.
    public var usesMagnetometer: Bool { self != .xArbitraryZVertical }
    /// Whether `heading` is defined (the two north frames).
    public var isNorthReferenced: Bool { self == .xMagneticNorthZVertical || self == .xTrueNorthZVertical }

    /// The frames a board with these sensors offers (Core Motion's
    /// `availableAttitudeReferenceFrames()`).
    public static func available(hasMagnetometer: Bool) -> [AttitudeReferenceFrame] {
        hasMagnetometer ? allCases : [.xArbitraryZVertical]
    }
}
