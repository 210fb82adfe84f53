import Foundation
import OpenCoreMotion
import TestSupport
import Testing

/// Members of Core Motion that iOS code sets or reads and a board answers in its own way
/// (docs/swift-api.md): the code compiles unchanged and gets the documented answer.
@Suite struct AppleMembersTests {
    @Test func iOSCodeUsingTheseMembersCompilesAndGetsTheBoardsAnswers() async throws {
        let manager = CMMotionManager(board: board("sim-mpu-9250.board"))
        // Compass calibration's display: kept, nothing to show on a board.
        #expect(!manager.showsDeviceMovementDisplay)
        manager.showsDeviceMovementDisplay = true
        #expect(manager.showsDeviceMovementDisplay)
        // Authorization: the batched manager answers as the other managers of the system's
        // board (motiond's policy); a remote board's as its broker's credentials allow.
        #expect(CMBatchedSensorManager.authorizationStatus == CMMotionActivityManager.authorizationStatus())
        #expect(CMHeadphoneMotionManager.authorizationStatus() == .authorized)
        // A board's IMU is the device's own sensor.
        let received = Received<CMDeviceMotion>()
        manager.startDeviceMotionUpdates(using: .xArbitraryZVertical, to: serialQueue(), withHandler: received.handle)
        defer { manager.stopDeviceMotionUpdates() }
        #expect(try await eventually { !received.data.isEmpty })
        #expect(received.data.allSatisfy { $0.sensorLocation == .default })
    }
}
