/// Roll, pitch and yaw as Core Motion's `CMAttitude` defines them: pitch about the device's
/// x axis, roll about its y axis, yaw about z, composed as R = Rz(yaw) · Rx(pitch) · Ry(roll)
/// (device → reference). From that product's third row and second column:
///   pitch = asin(R32),  roll = atan2(−R31, R33),  yaw = atan2(−R12, R22)
/// with pitch in [−π/2, π/2] and roll, yaw in [−π, π]. All in radians, Q16.16.
public struct EulerAngles: Sendable, BitwiseCopyable, Hashable {
    public var roll: Q16_16
    public var pitch: Q16_16
    public var yaw: Q16_16

    @inlinable
    public init(roll: Q16_16, pitch: Q16_16, yaw: Q16_16) {
        self.roll = roll
        self.pitch = pitch
        self.yaw = yaw
    }
}

extension RotationMatrix {
    /// The Euler angles of this rotation (see ``EulerAngles``). Each angle is within atan2's
    /// and asin's bound (≤ 0.502 LSB) of the angle of this (already rounded) matrix.
    @inlinable
    public var eulerAngles: EulerAngles {
        EulerAngles(roll: arctangent2(y: -m31, x: m33), pitch: arcsine(m32), yaw: arctangent2(y: -m12, x: m22))
    }
}

extension Quaternion {
    /// The Euler angles of this unit quaternion (see ``EulerAngles``).
    @inlinable
    public var eulerAngles: EulerAngles { rotationMatrix.eulerAngles }
}
