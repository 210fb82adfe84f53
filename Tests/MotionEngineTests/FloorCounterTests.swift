import FixedPoint
import Foundation
import MotionAlgorithms
import Testing

/// Floors from pressure: stairs count, lifts and weather do not.
@Suite struct FloorCounterTests {
    /// Pressure at height h (m) above a 101 325 Pa start, 15 °C (the hypsometric equation).
    static func pressure(at height: Double) -> Q32_32 { Q32_32(101_325 * exp(-height / (29.27 * 288.15))) }

    /// Runs `seconds` at 4 Hz with height(t) and the stepping flag; returns (up, down).
    static func run(seconds: Double, stepping: Bool, height: (Double) -> Double) -> (Int, Int) {
        run(seconds: seconds, stepping: { _ in stepping }, height: height)
    }

    /// As above with stepping(t); `credit` (t, s) calls `creditClimb(since:)` at t, as the
    /// pedometer does when it confirms a bout that began s seconds earlier.
    static func run(seconds: Double, stepping: (Double) -> Bool, credit: (at: Double, since: Double)? = nil,
                    height: (Double) -> Double) -> (Int, Int) {
        // The pedometer's pipeline: pressure → altitude (BarometricAltimeter) → floors.
        var altimeter = BarometricAltimeter()
        altimeter.update(temperatureCelsius: Q32_32(15.0))
        var counter = FloorCounter()
        for index in 0..<Int(seconds * 4) {
            let t = Double(index) / 4
            altimeter.update(pressure: pressure(at: height(t)), dt: Q32_32(0.25))
            counter.update(altitude: altimeter.relativeAltitude, dt: Q32_32(0.25), stepping: stepping(t))
            if let credit, credit.at == t { counter.creditClimb(since: Q32_32(credit.since)) }
        }
        return (counter.floorsAscended, counter.floorsDescended)
    }

    @Test func climbingStairsCountsAFloorPerThreeMetres() {
        // 20 s level, then 13 m up at 0.3 m/s (a brisk stair climb), then 20 s level: 4 floors.
        let up = Self.run(seconds: 83, stepping: true) { t in min(max(0, (t - 20) * 0.3), 13) }
        #expect(up == (4, 0))
        let down = Self.run(seconds: 83, stepping: true) { t in -min(max(0, (t - 20) * 0.3), 13) }
        #expect(down == (0, 4))
    }

    @Test func aLiftCountsNothing() {
        // The same 13 m at 1 m/s without a step.
        #expect(Self.run(seconds: 60, stepping: false) { t in min(max(0, t - 20), 13) } == (0, 0))
    }

    @Test func weatherDriftCountsNothingOnAWalk() {
        // One hour of walking on the level while the pressure falls 2 hPa (≈ 17 m of "height").
        #expect(Self.run(seconds: 3600, stepping: true) { t in 17 * t / 3600 } == (0, 0))
    }

    @Test func aLandingKeepsThePartlyClimbedFloor() {
        // 4.5 m up, 20 s on a landing (stepping, not climbing: idle), 4.5 m up: 9 m, 3 floors.
        // Re-anchoring at the landing would have dropped 1.5 m and counted 2.
        let height: (Double) -> Double = { t in
            min(max(0, (t - 10) * 0.3), 4.5) + min(max(0, (t - 45) * 0.3), 4.5)
        }
        #expect(Self.run(seconds: 80, stepping: true, height: height) == (3, 0))
    }

    @Test func aLongRestForgetsThePartlyClimbedFloor() {
        // 2.5 m, then 90 s still, then 2.5 m: two separate climbs of under a floor each.
        let height: (Double) -> Double = { t in
            min(max(0, (t - 10) * 0.3), 2.5) + min(max(0, (t - 110) * 0.3), 2.5)
        }
        #expect(Self.run(seconds: 140, stepping: { t in (10..<20).contains(t) || t >= 110 }, height: height) == (0, 0))
    }

    @Test func aBoutConfirmedLateCreditsTheClimbSinceItsFirstStep() {
        // 3.3 m up at 0.3 m/s from t = 20 s; the step bout is confirmed 5 s after its first
        // step, so 1.5 m is climbed while "not stepping". The counter by itself gives back the
        // climb rate's 3 s (0.9 m): 2.7 m, no floor; credited from the first step: 3.3 m, one.
        let height: (Double) -> Double = { t in min(max(0, (t - 20) * 0.3), 3.3) }
        let stepping: (Double) -> Bool = { t in t >= 25 && t < 38 }
        #expect(Self.run(seconds: 40, stepping: stepping, height: height) == (0, 0))
        #expect(Self.run(seconds: 40, stepping: stepping, credit: (at: 25, since: 5), height: height) == (1, 0))
    }

    @Test func walkingOutOfALiftCreditsNothingOfTheRide() {
        // 9 m by lift at 1 m/s (t 20…29), doors open, the first step at t = 31, confirmed at 34.
        let height: (Double) -> Double = { t in min(max(0, t - 20), 9) }
        let result = Self.run(seconds: 50, stepping: { t in t >= 34 }, credit: (at: 34, since: 3), height: height)
        #expect(result == (0, 0))
    }

    @Test func aFirstReadingOffByAFewPascalsIsNotTheGroundFloor() {
        // The first conversion reads 5 Pa high (≈ 0.4 m low), then a 3.1 m climb: 3.1 m, not
        // 3.5 m, and 3 m is the next floor either way, but a 2.8 m climb must not count.
        var altimeter = BarometricAltimeter()
        altimeter.update(temperatureCelsius: Q32_32(15.0))
        var counter = FloorCounter()
        for index in 0..<160 {
            let t = Double(index) / 4
            let height = min(max(0, (t - 10) * 0.3), 2.8)
            let offset = index == 0 ? Q32_32(5.0) : .zero
            altimeter.update(pressure: Self.pressure(at: height) + offset, dt: Q32_32(0.25))
            counter.update(altitude: altimeter.relativeAltitude, dt: Q32_32(0.25), stepping: true)
        }
        #expect(counter.floorsAscended == 0)
    }
}
