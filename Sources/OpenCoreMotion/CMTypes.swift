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

/// A 3×3 rotation matrix, row-major (`m12` is row 1, column 2). Rotates a vector from device
/// axes into the reference frame, as the engine's `RotationMatrix` does.
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
