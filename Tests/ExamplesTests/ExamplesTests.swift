import Foundation
import OpenCoreMotion
@testable import SwingCounter
import Testing
@testable import TiltSteering

@Suite struct ExamplesTests {
    /// A synthetic forehand then backhand: the wrist turns about the vertical at 6 rad/s for
    /// 0.2 s one way, rests, then the other way (device flat: gravity (0, 0, −1) g).
    @Test func theSwingCounterCountsEachSwingOnceByItsDirection() {
        var detector = SwingDetector()
        var swings: [SwingDetector.Swing] = []
        let gravity = CMAcceleration(x: 0, y: 0, z: -1)
        for step in 0..<300 {
            let t = Double(step) * 0.01
            let rate = (0.5..<0.7).contains(t) ? 6.0 : (1.5..<1.7).contains(t) ? -6.0 : 0
            if let swing = detector.update(rotationRate: CMRotationRate(x: 0, y: 0, z: rate), gravity: gravity, timestamp: t) {
                swings.append(swing)
            }
        }
        #expect(swings == [.forehand, .backhand])
        #expect(detector.forehands == 1 && detector.backhands == 1)
    }

    @Test func aTurnBelowTheThresholdIsNoSwing() {
        var detector = SwingDetector()
        for step in 0..<200 {
            _ = detector.update(rotationRate: CMRotationRate(x: 0, y: 0, z: 2.0), gravity: CMAcceleration(x: 0, y: 0, z: -1), timestamp: Double(step) * 0.01)
        }
        #expect(detector.forehands == 0 && detector.backhands == 0)
    }

    @Test func tiltSteeringFollowsGravity() {
        let wheel = TiltSteering()
        // Level in landscape: gravity along −x.
        #expect(wheel.controls(gravity: CMAcceleration(x: -1, y: 0, z: 0)) == (0, 0))
        // Rolled 15° right: half lock beyond the dead zone (2°…30°).
        let right = wheel.controls(gravity: CMAcceleration(x: -cos(.pi / 12), y: sin(.pi / 12), z: 0))
        #expect(abs(right.steering - (15.0 - 2.0) / 28.0) < 1e-9 && right.throttle == 0)
        // Rolled 45° left: full lock.
        #expect(wheel.controls(gravity: CMAcceleration(x: -cos(.pi / 4), y: -sin(.pi / 4), z: 0)).steering == -1)
    }
}
