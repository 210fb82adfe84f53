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
        let m = turned.rotationMatrix
        #expect(abs(m.m11 - cos(Double.pi / 6)) < 1e-12 && abs(m.m12 + sin(Double.pi / 6)) < 1e-12 && abs(m.m33 - 1) < 1e-12)
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

    @Test func errorsCarryCoreMotionsDomainAndCode() {
        let error = CMError(.notAvailable, "no magnetometer")
        #expect(CMError.errorDomain == "CMErrorDomain")
        #expect(error.errorCode == 109)
        #expect(error.localizedDescription == "no magnetometer")
    }
}
