import Foundation
import OpenCoreMotion
import Testing

/// A BNO08x in UART-RVC mode gives an accelerometer and no gyroscope: the Swift API says
/// device motion is unavailable and, asked for it anyway, why; its accelerometer streams.
@Suite struct UARTRVCBoardTests {
    @Test func deviceMotionIsUnavailableAndSaysWhyWhileTheAccelerometerStreams() async throws {
        let manager = CMMotionManager(board: board("sim-bno08x-rvc.board"))
        #expect(manager.isAccelerometerAvailable && !manager.isGyroAvailable && !manager.isMagnetometerAvailable)
        #expect(!manager.isDeviceMotionAvailable)
        let queue = serialQueue()
        let motion = Received<CMDeviceMotion>()
        manager.startDeviceMotionUpdates(to: queue, withHandler: motion.handle)
        try await drain(queue)
        let error = try #require(motion.failures.first as? CMError)
        #expect(error.code == .notAvailable && error.message.contains("has no gyroscope, which device motion needs"), "\(error)")
        #expect(motion.data.isEmpty && !manager.isDeviceMotionActive)

        let accelerometer = Received<CMAccelerometerData>()
        manager.accelerometerUpdateInterval = 0.01
        manager.startAccelerometerUpdates(to: queue, withHandler: accelerometer.handle)
        #expect(try await eventually { accelerometer.data.count >= 10 })
        manager.stopAccelerometerUpdates()
        #expect(accelerometer.failures.isEmpty)
    }
}
