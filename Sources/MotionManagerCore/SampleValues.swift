package import FixedPoint
import Glibc
package import MotionEngine

/// Three doubles: a vector in a sample's unit.
package struct Vector3Values: Sendable, Hashable {
    package var x: Double
    package var y: Double
    package var z: Double

    package init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    package init(_ vector: Vector3) {
        self.init(x: vector.x.doubleValue, y: vector.y.doubleValue, z: vector.z.doubleValue)
    }
}

/// An attitude's rotation matrix (device axes → reference frame, row-major: `m12` is row 1,
/// column 2) and its Euler angles, from a unit quaternion in doubles. Core Motion's `CMAttitude`
/// and the C API's `ocm_device_motion_data` both use it, so they give the same numbers.
package struct AttitudeMatrix: Sendable, Hashable {
    package var m11: Double, m12: Double, m13: Double
    package var m21: Double, m22: Double, m23: Double
    package var m31: Double, m32: Double, m33: Double

    package init(w: Double, x: Double, y: Double, z: Double) {
        m11 = 1 - 2 * (y * y + z * z); m12 = 2 * (x * y - w * z); m13 = 2 * (x * z + w * y)
        m21 = 2 * (x * y + w * z); m22 = 1 - 2 * (x * x + z * z); m23 = 2 * (y * z - w * x)
        m31 = 2 * (x * z - w * y); m32 = 2 * (y * z + w * x); m33 = 1 - 2 * (x * x + y * y)
    }

    /// Radians about the device's y axis, in [−π, π] (R = Rz(yaw) · Rx(pitch) · Ry(roll)).
    package var roll: Double { atan2(-m31, m33) }
    /// Radians about the device's x axis, in [−π/2, π/2].
    package var pitch: Double { asin(max(-1, min(1, m32))) }
    /// Radians about the vertical, in [−π, π].
    package var yaw: Double { atan2(-m12, m22) }
}

/// A device-motion sample in doubles with Core Motion's units and signs (g, rad/s, µT, degrees),
/// before it becomes a `CMDeviceMotion` or an `ocm_device_motion_data`.
package struct DeviceMotionValues: Sendable {
    package var timestampNanoseconds: Int64
    /// The unit quaternion (device axes → frame).
    package var w: Double, x: Double, y: Double, z: Double
    package var rotationRate: Vector3Values
    package var gravity: Vector3Values
    package var userAcceleration: Vector3Values
    package var magneticField: Vector3Values
    /// Core Motion's `CMMagneticFieldCalibrationAccuracy` raw value: −1 (uncalibrated) to 2 (high).
    package var magneticAccuracy: Int32
    package var heading: Double
    package var frame: ReferenceFrames

    package var attitudeMatrix: AttitudeMatrix { AttitudeMatrix(w: w, x: x, y: y, z: z) }

    package init(_ motion: DeviceMotion, frame: AttitudeReferenceFrame) {
        timestampNanoseconds = motion.timestampNanoseconds
        let q = motion.attitude
        (w, x, y, z) = (q.w.doubleValue, q.x.doubleValue, q.y.doubleValue, q.z.doubleValue)
        rotationRate = Vector3Values(motion.rotationRate)
        gravity = Vector3Values(motion.gravity)
        userAcceleration = Vector3Values(motion.userAcceleration)
        magneticField = Vector3Values(motion.magneticField)
        magneticAccuracy = (-1...2).contains(motion.magneticAccuracy) ? Int32(motion.magneticAccuracy) : -1
        heading = motion.heading.doubleValue
        self.frame = ReferenceFrames(frame)
    }
}

extension MotionSample {
    /// The device-motion values of a device-motion sample; nil for the raw streams.
    package var deviceMotionValues: DeviceMotionValues? {
        guard case .deviceMotion(let motion, let frame) = self else { return nil }
        return DeviceMotionValues(motion, frame: frame)
    }
}
