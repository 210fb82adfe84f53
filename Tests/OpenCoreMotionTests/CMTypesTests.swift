import Foundation
import OpenCoreMotion
import Testing

@Suite struct CMTypesTests {
    @Test func referenceFramesAreCoreMotionsOptionSet() {
        #expect(CMAttitudeReferenceFrame.xArbitraryZVertical.rawValue == 1)
        #expect(CMAttitudeReferenceFrame.xArbitraryCorrectedZVertical.rawValue == 2)
        #expect(CMAttitudeReferenceFrame.xMagneticNorthZVertical.rawValue == 4)
        #expect(CMAttitudeReferenceFrame.xTrueNorthZVertical.rawValue == 8)
    }

    @Test func attitudeAnglesAndRelativeAttitude() {
        // 30° about z: yaw 30°, no roll or pitch.
        let half = 15 * Double.pi / 180
        let turned = CMAttitude(quaternion: CMQuaternion(x: 0, y: 0, z: sin(half), w: cos(half)))
        #expect(abs(turned.yaw - Double.pi / 6) < 1e-12)
        #expect(abs(turned.roll) < 1e-12 && abs(turned.pitch) < 1e-12)
        // Core Motion's matrix takes the reference frame into device axes (the transpose of
        // the quaternion's rotation): the frame's x axis, turned 30° the other way.
        let m = turned.rotationMatrix
        #expect(abs(m.m11 - cos(Double.pi / 6)) < 1e-12 && abs(m.m12 - sin(Double.pi / 6)) < 1e-12 && abs(m.m33 - 1) < 1e-12)
        // Relative to itself: the identity (the argument may be the receiver).
        turned.multiply(byInverseOf: turned)
        let q = turned.quaternion
        #expect(abs(q.w - 1) < 1e-12 && abs(q.x) + abs(q.y) + abs(q.z) < 1e-12)
        // 10° pitch relative to 30° of yaw: 10° of pitch, then yaw back.
        let reference = CMAttitude(quaternion: CMQuaternion(x: 0, y: 0, z: sin(half), w: cos(half)))
        let pitched = CMAttitude(quaternion: CMQuaternion(x: 0, y: 0, z: sin(half), w: cos(half)))
        let tenth = 5 * Double.pi / 180
        pitched.multiply(byInverseOf: CMAttitude(quaternion: CMQuaternion(x: 0, y: 0, z: 0, w: 1)))
        #expect(abs(pitched.yaw - reference.yaw) < 1e-12)
        let tilt = CMAttitude(quaternion: CMQuaternion(x: sin(tenth), y: 0, z: 0, w: cos(tenth)))
        #expect(abs(tilt.pitch - 10 * Double.pi / 180) < 1e-12)
    }

    @Test func theRotationMatrixGivesGravityAsOnAnIPhone() {
        // A device pitched up 40° and rolled 25°, then turned 70° about the vertical: the
        // gravity it feels (device axes, g) is the frame's down vector taken into device axes by
        // the quaternion's inverse, and on an iPhone it is −(m13, m23, m33) of the matrix.
        func about(_ axis: (Double, Double, Double), _ degrees: Double) -> CMQuaternion {
            let half = degrees * Double.pi / 360
            return CMQuaternion(x: axis.0 * sin(half), y: axis.1 * sin(half), z: axis.2 * sin(half), w: cos(half))
        }
        func product(_ a: CMQuaternion, _ b: CMQuaternion) -> CMQuaternion {
            CMQuaternion(x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                         z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z)
        }
        let q = product(about((0, 0, 1), 70), product(about((1, 0, 0), 40), about((0, 1, 0), 25)))
        // v_device = q* (0, 0, −1) q.
        let down = CMQuaternion(x: 0, y: 0, z: -1, w: 0)
        let inverse = CMQuaternion(x: -q.x, y: -q.y, z: -q.z, w: q.w)
        let felt = product(product(inverse, down), q)
        let m = CMAttitude(quaternion: q).rotationMatrix
        #expect(abs(felt.x + m.m13) < 1e-12 && abs(felt.y + m.m23) < 1e-12 && abs(felt.z + m.m33) < 1e-12,
                "gravity \(felt.x), \(felt.y), \(felt.z) vs −(m13, m23, m33) \(-m.m13), \(-m.m23), \(-m.m33)")
    }

    @Test func errorsCarryCoreMotionsDomainAndCode() {
        let error = CMError(.notAvailable, "no magnetometer")
        #expect(CMError.errorDomain == "CMErrorDomain")
        #expect(error.errorCode == 109)
        #expect(error.localizedDescription == "no magnetometer")
    }
}
