import Glibc
import Synchronization

/// Core Motion's `CMAttitude`: the device's orientation in the reference frame, as a unit
/// quaternion that rotates device-axes vectors into the frame, with its rotation matrix and
/// Euler angles. `multiply(byInverseOf:)` makes it relative to another attitude, in place.
///
/// Sendable: its one mutable state, the quaternion, lives in a Mutex.
public final class CMAttitude: Sendable, CustomStringConvertible {
    private let state: Mutex<CMQuaternion>

    public init(quaternion: CMQuaternion) {
        state = Mutex(quaternion)
    }

    public var quaternion: CMQuaternion { state.withLock { $0 } }

    /// Device axes → reference frame (row-major; the engine's `RotationMatrix` convention).
    public var rotationMatrix: CMRotationMatrix {
        let q = quaternion
        let (w, x, y, z) = (q.w, q.x, q.y, q.z)
        return CMRotationMatrix(
            m11: 1 - 2 * (y * y + z * z), m12: 2 * (x * y - w * z), m13: 2 * (x * z + w * y),
            m21: 2 * (x * y + w * z), m22: 1 - 2 * (x * x + z * z), m23: 2 * (y * z - w * x),
            m31: 2 * (x * z - w * y), m32: 2 * (y * z + w * x), m33: 1 - 2 * (x * x + y * y))
    }

    /// Radians about the device's y axis, in [−π, π] (R = Rz(yaw) · Rx(pitch) · Ry(roll)).
    public var roll: Double {
        let m = rotationMatrix
        return atan2(-m.m31, m.m33)
    }

    /// Radians about the device's x axis, in [−π/2, π/2].
    public var pitch: Double { asin(max(-1, min(1, rotationMatrix.m32))) }

    /// Radians about the vertical, in [−π, π].
    public var yaw: Double {
        let m = rotationMatrix
        return atan2(-m.m12, m.m22)
    }

    /// Makes this attitude relative to `attitude` (for example one saved when a game started):
    /// q ← attitude⁻¹ ⊗ q, the rotation from the saved pose's device axes to the current ones'.
    public func multiply(byInverseOf attitude: CMAttitude) {
        let reference = attitude.quaternion  // read first: `attitude` may be `self`
        state.withLock { q in
            // conj(r) ⊗ q, with conj(r) = (w, −x, −y, −z).
            let (aw, ax, ay, az) = (reference.w, -reference.x, -reference.y, -reference.z)
            let (bw, bx, by, bz) = (q.w, q.x, q.y, q.z)
            q = CMQuaternion(x: aw * bx + ax * bw + ay * bz - az * by,
                             y: aw * by - ax * bz + ay * bw + az * bx,
                             z: aw * bz + ax * by - ay * bx + az * bw,
                             w: aw * bw - ax * bx - ay * by - az * bz)
        }
    }

    public var description: String {
        let degrees = 180 / Double.pi
        return "roll \(roll * degrees)° pitch \(pitch * degrees)° yaw \(yaw * degrees)°"
    }
}

/// Core Motion's `CMDeviceMotion`: the fused state at one gyroscope sample.
public final class CMDeviceMotion: CMLogItem, @unchecked Sendable {
    public let attitude: CMAttitude
    /// rad/s, device axes, gyroscope bias removed.
    public let rotationRate: CMRotationRate
    /// Unit vector toward the ground in device axes, in g, Core Motion's sign (lying face up:
    /// (0, 0, −1)).
    public let gravity: CMAcceleration
    /// The acceleration the user gives the device, g, device axes (the accelerometer in Core
    /// Motion's units minus `gravity`).
    public let userAcceleration: CMAcceleration
    /// The field in µT with its calibration accuracy (`.uncalibrated` until the online
    /// calibration has converged).
    public let magneticField: CMCalibratedMagneticField
    /// Degrees clockwise from north of the device's top (+y) in [0, 360) in the two north
    /// frames; negative (−1) in the others.
    public let heading: Double
    /// The frame `attitude` refers to.
    public let attitudeReferenceFrame: CMAttitudeReferenceFrame

    public init(timestampNanoseconds: Int64, attitude: CMAttitude, rotationRate: CMRotationRate, gravity: CMAcceleration,
                userAcceleration: CMAcceleration, magneticField: CMCalibratedMagneticField, heading: Double,
                attitudeReferenceFrame: CMAttitudeReferenceFrame) {
        self.attitude = attitude
        self.rotationRate = rotationRate
        self.gravity = gravity
        self.userAcceleration = userAcceleration
        self.magneticField = magneticField
        self.heading = heading
        self.attitudeReferenceFrame = attitudeReferenceFrame
        super.init(timestampNanoseconds: timestampNanoseconds)
    }

    public override var description: String {
        "\(attitude), gravity (\(gravity.x), \(gravity.y), \(gravity.z)) g @ \(timestamp) s"
    }
}
