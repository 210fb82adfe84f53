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
        // The pedometer's pipeline: pressure → altitude (BarometricAltimeter) → floors.
        var altimeter = BarometricAltimeter()
        altimeter.update(temperatureCelsius: Q32_32(15.0))
        var counter = FloorCounter()
        for index in 0..<Int(seconds * 4) {
            let t = Double(index) / 4
            altimeter.update(pressure: pressure(at: height(t)), dt: Q32_32(0.25))
            counter.update(altitude: altimeter.relativeAltitude, dt: Q32_32(0.25), stepping: stepping)
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
}
