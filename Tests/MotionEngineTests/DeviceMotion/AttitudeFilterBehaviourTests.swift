import FixedPoint
import Foundation
import MotionAlgorithms
import Testing
import TestSupport

/// What the filter must do, on synthetic inputs whose answer is known (fixed point, as on a device).
@Suite(.blocking) struct AttitudeFilterBehaviourTests {
    typealias Vector = FusionVector<Q32_32>

    static func vector(_ x: Double, _ y: Double, _ z: Double) -> Vector { Vector(x: Q32_32(x), y: Q32_32(y), z: Q32_32(z)) }
    static let dt = Q32_32(nanoseconds: 10_000_000)  // 100 Hz

    /// Device-axes "up" of an attitude: the third row of its rotation matrix.
    static func up(_ q: FusionQuaternion<Q32_32>) -> (Double, Double, Double) {
        let (w, x, y, z) = (q.w.doubleValue, q.x.doubleValue, q.y.doubleValue, q.z.doubleValue)
        return (2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y))
    }

    @Test func atRestTheGyroscopeBiasIsLearnedAndRemoved() {
        var filter = FixedPointAttitudeFilter()
        let bias = (0.01, -0.02, 0.005)  // rad/s (0.6, 1.1, 0.3 °/s)
        for _ in 0..<1000 {  // 10 s still, face up
            filter.update(gyroscope: Self.vector(bias.0, bias.1, bias.2), accelerometer: Self.vector(0, 0, 9.81), dt: Self.dt)
        }
        #expect(filter.isResting)
        let learned = filter.bias
        #expect(abs(learned.x.doubleValue - bias.0) < 5e-4 && abs(learned.y.doubleValue - bias.1) < 5e-4 && abs(learned.z.doubleValue - bias.2) < 5e-4,
                "learned \(learned.x.doubleValue), \(learned.y.doubleValue), \(learned.z.doubleValue)")
    }

    @Test func theFirstRestTakesTheBiasOutrightAndAStoredOneIsOnlyFollowed() {
        // 2 s still: rest is detected after 1.5 s, and a bias never measured is taken from the
        // rest's average at once (RepoIMU's wand rests 2–3 s before it moves); followed with
        // the 2 s time constant it would be a fifth of the way there.
        let bias = (0.01, -0.02, 0.005)  // rad/s
        var fresh = FixedPointAttitudeFilter()
        var stored = FixedPointAttitudeFilter(gyroscopeBias: Self.vector(0.012, -0.018, 0.004))
        for _ in 0..<200 {
            fresh.update(gyroscope: Self.vector(bias.0, bias.1, bias.2), accelerometer: Self.vector(0, 0, 9.81), dt: Self.dt)
            stored.update(gyroscope: Self.vector(bias.0, bias.1, bias.2), accelerometer: Self.vector(0, 0, 9.81), dt: Self.dt)
        }
        #expect(fresh.isResting)
        #expect(abs(fresh.bias.y.doubleValue - bias.1) < 0.08 * abs(bias.1), "learned \(fresh.bias.y.doubleValue) of \(bias.1) rad/s")
        // A stored bias (a board's calibration file) is an estimate already: one rest moves it
        // with the time constant, not to this rest's average.
        let moved = (stored.bias.y.doubleValue + 0.018) / (bias.1 + 0.018)
        #expect(moved > 0.05 && moved < 0.5, "the stored bias moved \(moved) of the way")
    }

    @Test func inMotionALargeBiasIsLearnedOnTheRightAxisWhileTheDeviceTurns() {
        // A phone held for texting (rolled 30° about x) by a walker doing laps: turning about the
        // vertical at 0.4 rad/s, its accelerometer shaken by ±1 m/s² (never at rest), its
        // gyroscope 5 °/s off on x, as the iPhone 5 in phone_attitude is.
        var filter = FixedPointAttitudeFilter()
        let angle = Double.pi / 6
        let vertical = (0.0, sin(angle), cos(angle))  // world up in device axes
        let bias = 5 * Double.pi / 180
        var seed: UInt64 = 7
        func noise() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) * 0x1p-52 - 1
        }
        for _ in 0..<12000 {  // 120 s
            let rate = Self.vector(bias + 0.02 * noise(), 0.4 * vertical.1 + 0.02 * noise(), 0.4 * vertical.2 + 0.02 * noise())
            let force = Self.vector(noise(), 9.81 * vertical.1 + noise(), 9.81 * vertical.2 + noise())
            filter.update(gyroscope: rate, accelerometer: force, dt: Self.dt)
        }
        #expect(!filter.isResting)
        let learned = (filter.bias.x.doubleValue * 180 / .pi, filter.bias.y.doubleValue * 180 / .pi)
        // The vertical component is unobservable; x is horizontal: learned, and not smeared onto y.
        #expect(abs(learned.0 - 5) < 0.5 && abs(learned.1) < 0.5, "learned x \(learned.0) °/s, y \(learned.1) °/s (truth 5, 0)")
        let up = Self.up(filter.attitude6D)
        let error = acos(min(1, up.0 * vertical.0 + up.1 * vertical.1 + up.2 * vertical.2)) * 180 / .pi
        #expect(error < 1.5, "inclination off by \(error)°")
    }

    /// The inclination quaternion is normalised by Newton steps from the previous sample's
    /// factor, not by a square root: one while (1 + n_z)/2 moves by under 2⁻¹⁶ a sample, two up
    /// to 2⁻⁸. A device laid on its side swings the filtered up through 90° in a few seconds
    /// (moves of 10⁻⁴ to 10⁻³ a sample, the two-step band): the quaternion must stay unit to
    /// within Q32.32's rounding throughout, as the square root kept it (a single step there
    /// leaves up to 10⁻⁶).
    @Test func theInclinationStaysAUnitQuaternionWhileTheFilteredUpSwings() {
        var filter = AttitudeFilter<Q32_32>()
        var worst = 0.0
        for n in 0..<1500 {  // 1 s flat, then 14 s on its side
            let angle = n < 100 ? 0.0 : Double.pi / 2
            filter.update(gyroscope: .zero, accelerometer: Self.vector(0, 9.81 * sin(angle), 9.81 * cos(angle)), dt: Self.dt)
            let q = filter.inclinationQuaternion
            let norm = (q.w.doubleValue * q.w.doubleValue + q.x.doubleValue * q.x.doubleValue
                        + q.y.doubleValue * q.y.doubleValue + q.z.doubleValue * q.z.doubleValue).squareRoot()
            worst = max(worst, abs(norm - 1))
        }
        let up = Self.up(filter.attitude6D)
        #expect(abs(up.1 - 1) < 1e-3, "the device's y axis should point up by now: \(up)")
        #expect(worst < 2e-9, "inclination quaternion's norm off by \(worst)")
    }

    @Test func aTiltedDeviceIsLevelledAtOnce() {
        var filter = FixedPointAttitudeFilter()
        // Rolled 30° about x: gravity's reaction (specific force, up) in device axes.
        let angle = Double.pi / 6
        let force = Self.vector(0, 9.81 * sin(angle), 9.81 * cos(angle))
        filter.update(gyroscope: .zero, accelerometer: force, dt: Self.dt)
        let up = Self.up(filter.attitude6D)
        #expect(abs(up.0) < 1e-6 && abs(up.1 - sin(angle)) < 1e-6 && abs(up.2 - cos(angle)) < 1e-6, "\(up)")
    }

    @Test func aShortAccelerationDoesNotTiltTheEstimate() {
        var filter = FixedPointAttitudeFilter()
        for _ in 0..<100 { filter.update(gyroscope: .zero, accelerometer: Self.vector(0, 0, 9.81), dt: Self.dt) }
        // Half a second of 3 m/s² sideways (a bump, a braking car): the device does not turn.
        for _ in 0..<50 { filter.update(gyroscope: .zero, accelerometer: Self.vector(3, 0, 9.81), dt: Self.dt) }
        let up = Self.up(filter.attitude6D)
        let tilt = acos(min(1, up.2)) * 180 / .pi
        #expect(tilt < 1.0, "tilted \(tilt)° by a 0.5 s bump that would read as 17° of tilt")
    }

    /// The 9D attitude's yaw minus `heading` (rad), degrees in (−180, 180].
    static func headingError(_ filter: FixedPointAttitudeFilter, from heading: Double) -> Double {
        let q = filter.attitude9D
        let error = (2 * atan2(q.z.doubleValue, q.w.doubleValue) - heading) * 180 / .pi
        return error - 360 * (error / 360).rounded()
    }

    @Test func headingConvergesToNorthAndIgnoresADisturbance() {
        var filter = FixedPointAttitudeFilter()
        // Face up, x pointing 40° west of north: the field (19 µT north, 46 down) in device axes.
        let heading = 40.0 * .pi / 180
        let field = Self.vector(19 * cos(heading), -19 * sin(heading), -46)
        for _ in 0..<1000 {
            filter.update(gyroscope: .zero, accelerometer: Self.vector(0, 0, 9.81), dt: Self.dt)
            filter.update(magnetometer: field, dt: Self.dt)
        }
        #expect(abs(Self.headingError(filter, from: heading)) < 0.05, "yaw off by \(Self.headingError(filter, from: heading))°")
        #expect(!filter.isMagneticallyDisturbed)
        // A magnet comes near: the field doubles and turns; it is rejected, the heading stays.
        let disturbed = Self.vector(-30, 25, -80)
        for _ in 0..<200 {
            filter.update(gyroscope: .zero, accelerometer: Self.vector(0, 0, 9.81), dt: Self.dt)
            filter.update(magnetometer: disturbed, dt: Self.dt)
        }
        #expect(filter.isMagneticallyDisturbed)
        #expect(abs(Self.headingError(filter, from: heading)) < 0.05, "yaw off by \(Self.headingError(filter, from: heading))° during the disturbance")
    }

    /// A filter that saw the field (19 µT north, 46 down) for 10 s — at rest, or turning about
    /// the vertical — and then, at rest, a magnet attached to the device (8 µT along its y and
    /// 8 down: 16 % stronger, and 23° of heading if it were taken for the Earth's) for 30 s:
    /// whether the field is still rejected, and how far (degrees) the filter's heading is then
    /// from the device's.
    static func attachMagnetAtRest(afterTurning turning: Bool) -> (rejected: Bool, yawError: Double) {
        var filter = FixedPointAttitudeFilter()
        var heading = 0.0
        for step in 1...1000 {
            let rate = turning ? 0.5 * sin(2 * .pi * Double(step) / 800) : 0
            heading += rate / 100
            filter.update(gyroscope: Self.vector(0, 0, rate), accelerometer: Self.vector(0, 0, 9.81), dt: Self.dt)
            filter.update(magnetometer: Self.vector(19 * cos(heading), -19 * sin(heading), -46), dt: Self.dt)
        }
        for _ in 0..<3000 {
            filter.update(gyroscope: .zero, accelerometer: Self.vector(0, 0, 9.81), dt: Self.dt)
            filter.update(magnetometer: Self.vector(19 * cos(heading), -19 * sin(heading) + 8, -54), dt: Self.dt)
        }
        return (filter.isMagneticallyDisturbed, Self.headingError(filter, from: heading))
    }

    @Test func aMagnetAttachedToABoardAtRestIsNeverTakenForTheEarthsField() {
        // At rest any field is steady, a magnet's too: steadiness counts only in motion, whether
        // the first reference was confirmed by turning or not.
        for turning in [false, true] {
            let (rejected, yawError) = Self.attachMagnetAtRest(afterTurning: turning)
            #expect(rejected, "turned first: \(turning)")
            #expect(abs(yawError) < 0.5, "turned first: \(turning): the heading moved by \(yawError)°")
        }
    }

    @Test func aNewPlacesSteadyFieldBecomesTheReferenceOnceTheDeviceMoves() {
        // The fail-safe of the rule above: a first reference seen only at rest, then a board
        // carried to a place whose field is 15 % stronger and 16° turned, and turned about the
        // vertical there: after 5 s of that steady field in motion it is the reference, and the
        // heading follows the new place's north.
        var filter = FixedPointAttitudeFilter()
        for _ in 0..<1000 {
            filter.update(gyroscope: .zero, accelerometer: Self.vector(0, 0, 9.81), dt: Self.dt)
            filter.update(magnetometer: Self.vector(19, 0, -46), dt: Self.dt)
        }
        var heading = 0.0
        let north = 16.0 * .pi / 180  // the new place's field, turned from the first one's
        for step in 1...1500 {
            let rate = 0.5 * sin(2 * .pi * Double(step) / 800)
            heading += rate / 100
            filter.update(gyroscope: Self.vector(0, 0, rate), accelerometer: Self.vector(0, 0, 9.81), dt: Self.dt)
            let angle = heading + north
            filter.update(magnetometer: Self.vector(21.8 * cos(angle), -21.8 * sin(angle), -53), dt: Self.dt)
        }
        #expect(!filter.isMagneticallyDisturbed)
        let error = Self.headingError(filter, from: heading + north)
        #expect(abs(error) < 2, "the heading is \(error)° from the new place's north")
    }
}
