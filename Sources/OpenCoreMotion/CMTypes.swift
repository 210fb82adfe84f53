/// Core Motion's value types, with its names, fields and units.

/// Acceleration in g (1 g = 9.80665 m/s²), device axes, with Core Motion's sign: the
/// accelerometer reads −(specific force) / 9.80665, so a device lying face up at rest reads
/// (0, 0, −1).
public struct CMAcceleration: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }
}

/// Angular velocity in rad/s about the device's axes, right-handed.
public struct CMRotationRate: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }
}

/// Magnetic flux density in µT, device axes.
public struct CMMagneticField: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }
}

/// A unit quaternion w + xi + yj + zk (Core Motion's field order: x, y, z, w).
public struct CMQuaternion: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var z: Double
    public var w: Double

    public init(x: Double, y: Double, z: Double, w: Double) {
        self.x = x
        self.y = y
        self.z = z
        self.w = w
    }
}

/// A 3×3 rotation matrix, row-major (`m12` is row 1, column 2). `CMAttitude.rotationMatrix`
/// takes reference-frame vectors into device axes, as Core Motion's does.
public struct CMRotationMatrix: Sendable, Hashable {
    public var m11: Double, m12: Double, m13: Double
    public var m21: Double, m22: Double, m23: Double
    public var m31: Double, m32: Double, m33: Double

    public init(m11: Double, m12: Double, m13: Double,
                m21: Double, m22: Double, m23: Double,
                m31: Double, m32: Double, m33: Double) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13
        self.m21 = m21; self.m22 = m22; self.m23 = m23
        self.m31 = m31; self.m32 = m32; self.m33 = m33
    }
}

/// How far the magnetometer's calibration has come (Core Motion's raw values).
public enum CMMagneticFieldCalibrationAccuracy: Int32, Sendable, Hashable {
    case uncalibrated = -1
    case low = 0
    case medium = 1
    case high = 2
}

/// The calibrated magnetic field of a device-motion sample: µT with its accuracy.
public struct CMCalibratedMagneticField: Sendable, Hashable {
    public var field: CMMagneticField
    public var accuracy: CMMagneticFieldCalibrationAccuracy

    public init(field: CMMagneticField, accuracy: CMMagneticFieldCalibrationAccuracy) {
        self.field = field
        self.accuracy = accuracy
    }
}

/// Seconds, as Core Motion's intervals and timestamps are given (Foundation's `TimeInterval`).
public typealias CMTimeInterval = Double

// Core Motion's value types are C structs, which Swift gives a zero-filled `init()`; iOS code
// uses it (`var filtered = CMAcceleration()`), so these have one too.
extension CMAcceleration { public init() { self.init(x: 0, y: 0, z: 0) } }
extension CMRotationRate { public init() { self.init(x: 0, y: 0, z: 0) } }
extension CMMagneticField { public init() { self.init(x: 0, y: 0, z: 0) } }
/// All zero, as C's: not the identity rotation (w = 0).
extension CMQuaternion { public init() { self.init(x: 0, y: 0, z: 0, w: 0) } }
/// All zero, as C's: not the identity matrix.
extension CMRotationMatrix {
    public init() { self.init(m11: 0, m12: 0, m13: 0, m21: 0, m22: 0, m23: 0, m31: 0, m32: 0, m33: 0) }
}
/// A zero field; the accuracy is C's zero, `.low`.
extension CMCalibratedMagneticField { public init() { self.init(field: CMMagneticField(), accuracy: .low) } }
