import MotionManagerCore
import Locking

/// Core Motion's `CMAttitude`: the device's orientation in the reference frame, as a unit
/// quaternion that rotates device-axes vectors into the frame, with its rotation matrix and
/// Euler angles. `multiply(byInverseOf:)` makes it relative to another attitude, in place.
///
/// Sendable: its one mutable state, the quaternion, lives in a Mutex.
public final class CMAttitude: Sendable, CustomStringConvertible {
    private let state: Lock<CMQuaternion>

    public init(quaternion: CMQuaternion) {
        state = Lock(quaternion)
    }

    public var quaternion: CMQuaternion { state.withLock { $0 } }

    /// Core Motion's convention: reference frame → device axes, the transpose of the
    /// quaternion's rotation (which takes device axes into the frame). So, as on an iPhone, the
    /// gravity the device feels is −(m13, m23, m33) in g, and Apple's sample code (pARk)
    /// multiplies points of the reference frame by it to get them in the device's camera axes.
    /// Checked on real iPhones' records: WeAllWalk's CMDeviceMotion logs hold the matrix, the
    /// quaternion and the gravity, and there m = R(q)ᵀ and gravity = −(m13, m23, m33)
    /// (../shared/datasets/weallwalk/README.md). The C library's `rotation_matrix` is the
    /// quaternion's own (device → frame): the transpose of this one.
    public var rotationMatrix: CMRotationMatrix {
        let m = matrix
        return CMRotationMatrix(m11: m.m11, m12: m.m21, m13: m.m31,
                                m21: m.m12, m22: m.m22, m23: m.m32,
                                m31: m.m13, m32: m.m23, m33: m.m33)
    }

    /// The rotation matrix and Euler angles, computed as the C API's `ocm_device_motion_data` does.
    private var matrix: AttitudeMatrix {
        let q = quaternion
        return AttitudeMatrix(w: q.w, x: q.x, y: q.y, z: q.z)
    }

    /// Radians about the device's y axis, in [−π, π] (R = Rz(yaw) · Rx(pitch) · Ry(roll)).
    public var roll: Double { matrix.roll }

    /// Radians about the device's x axis, in [−π/2, π/2].
    public var pitch: Double { matrix.pitch }

    /// Radians about the vertical, in [−π, π].
    public var yaw: Double { matrix.yaw }

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

    /// A copy, as `NSCopying`'s `copy()` gives on Apple platforms: games keep the attitude at
    /// the start (`motion.attitude.copy() as! CMAttitude`) and later `multiply(byInverseOf:)` it,
    /// which changes the receiver in place.
    public func copy() -> Any { CMAttitude(quaternion: quaternion) }

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

    /// Core Motion's `CMDeviceMotion.SensorLocation`: where the sensor that measured this sits.
    public enum SensorLocation: Int, Sendable {
        case `default` = 0
        case headphoneLeft = 1
        case headphoneRight = 2
    }

    /// Always `.default`: a board's IMU is the device's own (Core Motion names a headphone's
    /// left or right bud here; a remote board through `CMHeadphoneMotionManager` is one IMU).
    public var sensorLocation: SensorLocation { .default }

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
