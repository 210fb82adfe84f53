import FixedPoint
import Foundation
import MotionAlgorithms
import Testing

/// Whether the rotation repeats at a candidates' interval, on rotations whose answer is known.
@Suite struct RotationRhythmTests {
    /// `seconds` of a rotation rate (rad/s, device axes) sampled at `rate` Hz.
    static func feed(seconds: Double = 4, rate: Double = 100, _ rotation: (Double) -> (Double, Double, Double)) -> RotationRhythm {
        var rhythm = RotationRhythm()
        for index in 0..<Int(seconds * rate) {
            let t = Double(index) / rate
            let (x, y, z) = rotation(t)
            rhythm.update(rotationRate: FusionVector(x: Q32_32(x), y: Q32_32(y), z: Q32_32(z)), timeNanoseconds: Int64(t * 1e9))
        }
        return rhythm
    }

    /// A thigh turning back and forth once every 0.8 s (75 rpm), 2 rad/s rms about x, with a
    /// little about y.
    static func pedalling(_ t: Double) -> (Double, Double, Double) {
        (2 * 2.squareRoot() * sin(2 * .pi * t / 0.8), 0.3 * cos(2 * .pi * t / 0.8), 0.05)
    }

    @Test func aLimbTurningOnceAnIntervalRepeatsAtItAndIsMirroredAtHalfOfIt() {
        let rhythm = Self.feed(Self.pedalling)
        #expect(rhythm.repeats(every: 800_000_000))
        // Half a period later the limb turns the other way: a walker's thigh after one step.
        #expect(!rhythm.repeats(every: 400_000_000))
    }

    @Test func aDeviceTurningLessThanALimbDoesNotCount() {
        // The same rhythm at 0.7 rad/s rms: a phone held or on the trunk wobbling, not a limb.
        let gentle = Self.feed { t in (0.7 * 2.squareRoot() * sin(2 * .pi * t / 0.8), 0, 0) }
        #expect(!gentle.repeats(every: 800_000_000))
    }

    @Test func tooShortAWindowOrTooLongALagSaysNothing() {
        // 2 s plus the lag are needed: 2.5 s of data do not hold a 0.8 s lag's copy.
        #expect(!Self.feed(seconds: 2.5, Self.pedalling).repeats(every: 800_000_000))
        // Beyond 1.28 s (47 rpm), or no previous candidate at all (Int64.max).
        let long = Self.feed(seconds: 6) { t in (2 * 2.squareRoot() * sin(2 * .pi * t / 1.5), 0, 0) }
        #expect(!long.repeats(every: 1_500_000_000))
        #expect(!long.repeats(every: .max))
    }

    @Test func theAnswerDoesNotDependOnTheSensorRate() {
        for rate in [25.0, 100, 286, 1000] {
            let rhythm = Self.feed(rate: rate, Self.pedalling)
            #expect(rhythm.repeats(every: 800_000_000), "at \(rate) Hz")
            #expect(!rhythm.repeats(every: 400_000_000), "at \(rate) Hz")
        }
    }

    @Test func aFasterRotationThanTheRingHoldsIsClampedNotWrapped() {
        // ±40 rad/s (beyond Int16 mrad/s): clamped at 32.767, still a rhythm, never a trap.
        let fast = Self.feed { t in (40 * sin(2 * .pi * t / 0.8), 0, 0) }
        #expect(fast.repeats(every: 800_000_000))
    }
}
