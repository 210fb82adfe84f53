public import FixedPoint

/// One `CMDeviceMotion`: the fused state at a gyroscope sample.
public struct DeviceMotion: Sendable, Equatable {
    public var timestampNanoseconds: Int64
    /// Rotates device-axes vectors into the reference frame (z up, x per the frame).
    public var attitude: Quaternion
    /// Unit vector towards the ground in device axes, in g (Core Motion's sign: a device lying
    /// face up has (0, 0, −1)).
    public var gravity: Vector3
    /// The accelerometer minus gravity, g, device axes (Core Motion's sign: the accelerometer
    /// in Core Motion units is −specific force / 9.80665 m/s²).
    public var userAcceleration: Vector3
    /// rad/s, device axes, bias removed.
    public var rotationRate: Vector3
    /// µT, device axes (calibration: `magneticAccuracy`).
    public var magneticField: Vector3
    /// Core Motion's `CMMagneticFieldCalibrationAccuracy`: −1 uncalibrated, 0 low, 1 medium, 2 high.
    public var magneticAccuracy: Int8
    /// Degrees clockwise from north of the device's top (+y, as a compass heading) in the two
    /// north frames, in [0, 360); −1 in the others.
    public var heading: Q16_16

    /// Roll, pitch, yaw in radians (Core Motion's convention).
    public var eulerAngles: EulerAngles { attitude.eulerAngles }

    /// A device-motion sample from its parts (the estimator builds them itself; motiond's
    /// clients rebuild them from the wire).
    public init(timestampNanoseconds: Int64, attitude: Quaternion, gravity: Vector3, userAcceleration: Vector3, rotationRate: Vector3,
                magneticField: Vector3, magneticAccuracy: Int8, heading: Q16_16) {
        self.timestampNanoseconds = timestampNanoseconds
        self.attitude = attitude
        self.gravity = gravity
        self.userAcceleration = userAcceleration
        self.rotationRate = rotationRate
        self.magneticField = magneticField
        self.magneticAccuracy = magneticAccuracy
        self.heading = heading
    }
}

