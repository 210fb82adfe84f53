public import FixedPoint

extension RVCFrame {
    /// The acceleration in chip axes, m/s², Q16.16: mg × 9.80665 / 1000 (standard gravity).
    public var acceleration: Vector3 {
        func si(_ milliG: Int16) -> Q16_16 { CountConversion.siValue(counts: milliG, nanoUnitsPerLSB: 9_806_650) }
        return Vector3(x: si(accelerationMilliG.x), y: si(accelerationMilliG.y), z: si(accelerationMilliG.z))
    }

    /// The attitude as a unit quaternion, Q2.30: chip axes → the hub's frame (z up, its x
    /// wherever the yaw was 0 at reset). The frame's rotations in §1.3.5.2's order: yaw about
    /// z, then pitch about y, then roll about x, so q = qz(yaw) ⊗ qy(pitch) ⊗ qx(roll).
    public var attitude: Quaternion {
        let (sz, cz) = Angle.sineCosine(of: Self.halfAngle(yawCentidegrees))
        let (sy, cy) = Angle.sineCosine(of: Self.halfAngle(pitchCentidegrees))
        let (sx, cx) = Angle.sineCosine(of: Self.halfAngle(rollCentidegrees))
        let yaw = Quaternion(w: cz, x: .zero, y: .zero, z: sz)
        let pitch = Quaternion(w: cy, x: .zero, y: sy, z: .zero)
        let roll = Quaternion(w: cx, x: sx, y: .zero, z: .zero)
        return (yaw * pitch * roll).normalized
    }

    /// Half of an angle given in 0.01°, in radians, Q16.16: centidegrees × π / 36000, rounded
    /// (within 2⁻¹⁷ rad, 0.0004°, of the exact half angle: far below the frame's 0.01° step).
    static func halfAngle(_ centidegrees: Int16) -> Q16_16 {
        // π × 2¹⁶ / 36000 = 5.719094892935…, ×10⁹.
        let scaled = Int64(centidegrees) * 5_719_094_893
        return Q16_16(rawValue: Int32((scaled + (scaled >= 0 ? 500_000_000 : -500_000_000)) / 1_000_000_000))
    }
}
