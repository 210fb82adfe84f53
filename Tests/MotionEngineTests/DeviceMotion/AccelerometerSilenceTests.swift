import FixedPoint
import Foundation
import MotionAlgorithms
import MotionEngine
import Testing

/// An accelerometer that falls silent mid-stream (a chip reset, a bus that lost it) while the
/// gyroscope goes on: no device motion from a stale gravity, and an attitude that is right when
/// the accelerometer comes back.
@Suite struct AccelerometerSilenceTests {
    static let rate = 0.3  // rad/s about x

    static func vector(_ x: Double, _ y: Double, _ z: Double) -> Vector3 { Vector3(x: Q16_16(x), y: Q16_16(y), z: Q16_16(z)) }

    /// The angle (degrees) between the estimate's gravity (device axes, pointing down as Core
    /// Motion's does) and the truth's for a device turned by `angle` rad about x: −(0, sin, cos).
    static func gravityError(_ motion: DeviceMotion, angle: Double) -> Double {
        let g = (motion.gravity.x.doubleValue, motion.gravity.y.doubleValue, motion.gravity.z.doubleValue)
        let length = (g.0 * g.0 + g.1 * g.1 + g.2 * g.2).squareRoot()
        let cosine = -(g.1 * sin(angle) + g.2 * cos(angle)) / length
        return acos(min(1, cosine)) * 180 / .pi
    }

    @Test func theGyroscopeCarriesTheAttitudeThroughTheSilenceAndNothingIsOutputFromAStaleGravity() throws {
        var estimator = DeviceMotionEstimator()
        // 100 Hz, turning about x at 0.3 rad/s for 9 s (155°); the accelerometer is silent from
        // 4 s to 7 s, while the device turns by 0.9 rad (52°).
        var outputs: [(time: Double, motion: DeviceMotion)] = []
        for index in 0...900 {
            let time = Int64(index) * 10_000_000
            let t = Double(index) / 100, angle = Self.rate * t
            if t <= 4 || t >= 7 {
                _ = estimator.process(SensorReading(timestampNanoseconds: time, value: .acceleration(Self.vector(0, 9.81 * sin(angle), 9.81 * cos(angle)))))
            }
            if let motion = estimator.process(SensorReading(timestampNanoseconds: time, value: .angularVelocity(Self.vector(Self.rate, 0, 0)))) {
                outputs.append((t, motion))
            }
        }
        // Device motion while the held sample is recent (to 4.1 s: `accelerometerFreshness`),
        // none after, again from 7 s.
        let fromStaleGravity = outputs.filter { $0.time > 4.101 && $0.time < 7 }.count
        #expect(fromStaleGravity == 0)
        #expect(outputs.contains { $0.time > 4.05 && $0.time <= 4.1 })
        let resumed = try #require(outputs.first { $0.time >= 7 })
        // The gyroscope turned the attitude meanwhile: gravity is right at once, and stays so.
        // (Corrected towards the sample held since 4 s, it was 20° off there and 39° at 9 s.)
        let error = Self.gravityError(resumed.motion, angle: Self.rate * resumed.time)
        #expect(error < 0.1, "gravity \(error)° off when the accelerometer came back")
        let last = try #require(outputs.last)
        let lastError = Self.gravityError(last.motion, angle: Self.rate * last.time)
        #expect(lastError < 0.1, "gravity \(lastError)° off at the end")
    }

    @Test func aDeviceIsNotAtRestWhileItsAccelerometerIsSilentNorUntilARestIsSeenAgain() {
        var estimator = DeviceMotionEstimator()
        // 100 Hz, lying still (a gyroscope bias of 0.01 rad/s about z); the accelerometer is
        // silent from 4 s to 6 s. Rest needs 1.5 s of steady samples of both sensors.
        var resting: [(time: Double, resting: Bool)] = []
        for index in 0...1000 {
            let time = Int64(index) * 10_000_000, t = Double(index) / 100
            if t <= 4 || t >= 6 {
                _ = estimator.process(SensorReading(timestampNanoseconds: time, value: .acceleration(Self.vector(0, 0, 9.81))))
            }
            _ = estimator.process(SensorReading(timestampNanoseconds: time, value: .angularVelocity(Self.vector(0, 0, 0.01))))
            resting.append((t, estimator.filter.isResting))
        }
        func anyResting(_ range: ClosedRange<Double>) -> Bool { resting.contains { range.contains($0.time) && $0.resting } }
        func allResting(_ range: ClosedRange<Double>) -> Bool { resting.allSatisfy { !range.contains($0.time) || $0.resting } }
        #expect(allResting(2...4), "at rest before the silence")
        // Before: at rest throughout the silence, as the last steady samples had left it.
        #expect(!anyResting(4.2...7.4), "at rest while the accelerometer was silent, or too soon after")
        #expect(allResting(7.8...10), "at rest again once 1.5 s were seen")
    }
}
