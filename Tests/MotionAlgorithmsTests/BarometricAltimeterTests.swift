import FixedPoint
import Foundation
import MotionAlgorithms
import Testing
import TestSupport

/// The altimeter's low-pass, relative and absolute altitude, accuracy and precision.
@Suite struct BarometricAltimeterTests {
    /// Pressure at `height` m above a 101 325 Pa start in air at `celsius` (hypsometric).
    static func pressure(at height: Double, celsius: Double = 15) -> Double {
        101_325 * exp(-height / (29.27124 * (celsius + 273.15)))
    }

    /// Gaussian noise of standard deviation `sigma` (Box–Muller on the seeded generator).
    static func noise(_ random: inout SeededRandom, sigma: Double) -> Double {
        let u = (Double(random.next() >> 11) + 0.5) * 0x1p-53
        let v = Double(random.next() >> 11) * 0x1p-53
        return sigma * (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }

    @Test func aFloorClimbIsFollowedWithALagOfOneSecond() {
        // 10 s still, 3 m up at 0.3 m/s, 10 s still; 25 Hz, 20 °C on the thermometer.
        var altimeter = BarometricAltimeter()
        altimeter.update(temperatureCelsius: Q32_32(20.0))
        var atClimbEnd = 0.0
        for index in 0..<(30 * 25) {
            let t = Double(index) / 25
            let height = min(max(0, (t - 10) * 0.3), 3)
            altimeter.update(pressure: Q32_32(Self.pressure(at: height, celsius: 20)), dt: Q32_32(0.04))
            if index == 20 * 25 { atClimbEnd = altimeter.relativeAltitude.doubleValue }
        }
        // A first-order lag of τ = 1 s is 0.3 m/s × 1 s behind a steady climb.
        #expect(abs(atClimbEnd - 2.7) < 0.02, "at the climb's end \(atClimbEnd) m")
        #expect(abs(altimeter.relativeAltitude.doubleValue - 3) < 0.002, "\(altimeter.relativeAltitude.doubleValue) m")
    }

    @Test func theThermometerScalesHeightChanges() {
        // The same pressure drop is 3.5 % more height at 25 °C than at 15 °C (298.15 / 288.15).
        func climb(celsius: Double?) -> Double {
            var altimeter = BarometricAltimeter()
            if let celsius { altimeter.update(temperatureCelsius: Q32_32(celsius)) }
            for index in 0..<200 {
                altimeter.update(pressure: Q32_32(index < 100 ? 101_325 : 100_825), dt: Q32_32(0.1))
            }
            return altimeter.relativeAltitude.doubleValue
        }
        let standard = 29.27124 * 288.15 * log(101_325.0 / 100_825)
        #expect(abs(climb(celsius: nil) - standard) < 0.01)
        #expect(abs(climb(celsius: 15) - standard) < 0.01)
        #expect(abs(climb(celsius: 25) - standard * 298.15 / 288.15) < 0.01)
    }

    @Test func precisionMeasuresTheFilteredNoise() {
        // BMP280-like noise, 1.3 Pa rms at 25 Hz, standing still: the filtered altitude's
        // spread, measured, is what `precision` says (within 15 %).
        var random = SeededRandom(seed: 5)
        var altimeter = BarometricAltimeter()
        var outputs: [Double] = []
        var afterOneSecond = 0.0
        for index in 0..<(120 * 25) {
            altimeter.update(pressure: Q32_32(101_325 + Self.noise(&random, sigma: 1.3)), dt: Q32_32(0.04))
            if index == 25 { afterOneSecond = altimeter.precision.doubleValue }
            if index >= 20 * 25 { outputs.append(altimeter.relativeAltitude.doubleValue) }
        }
        let mean = outputs.reduce(0, +) / Double(outputs.count)
        let spread = (outputs.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(outputs.count)).squareRoot()
        let precision = altimeter.precision.doubleValue
        #expect(abs(precision - spread) < 0.15 * spread, "precision \(precision) m, measured spread \(spread) m")
        // ≈ 1.3 Pa × √(α/(2 − α)) × 8.3 cm/Pa = 1.5 cm. At the first update, 1 s in, 24 second
        // differences already give it within a factor of 2 (a 10 s average starting from 0
        // would say a third of it).
        #expect(precision > 0.010 && precision < 0.020)
        #expect(afterOneSecond > 0.5 * precision && afterOneSecond < 2 * precision, "after 1 s \(afterOneSecond) m, then \(precision) m")
    }

    @Test func absoluteAltitudeAndAccuracyFollowTheReference() {
        var standard = BarometricAltimeter()
        var measured = BarometricAltimeter(reference: .measured(seaLevelPressure: Q32_32(102_000.0)))
        for _ in 0..<50 {
            standard.update(pressure: Q32_32(90_000.0), dt: Q32_32(0.1))
            measured.update(pressure: Q32_32(90_000.0), dt: Q32_32(0.1))
        }
        #expect(abs(standard.absoluteAltitude.doubleValue - 988.4996) < 0.001)
        #expect(abs(measured.absoluteAltitude.doubleValue - 44_330.77 * (1 - pow(90_000.0 / 102_000, 0.190263))) < 0.001)
        // 10 hPa of the standard atmosphere's uncertainty at 988 m, where T_std = 281.7 K: 81 m;
        // 1 hPa of a QNH's: 8.1 m.
        #expect(abs(standard.accuracy.doubleValue - 1000 * 29.27124 * 281.725 / 101_325) < 0.01)
        #expect(abs(measured.accuracy.doubleValue - 100 * 29.27124 * (288.15 - 0.0065 * measured.absoluteAltitude.doubleValue) / 102_000) < 0.01)
        #expect(standard.relativeAltitude == .zero)
    }

    @Test func brokenReadingsChangeNothing() {
        var altimeter = BarometricAltimeter()
        let zero = altimeter.update(pressure: .zero, dt: .zero)
        #expect(!zero && !altimeter.hasStarted)
        let first = altimeter.update(pressure: Q32_32(101_325.0), dt: .zero)
        let negative = altimeter.update(pressure: Q32_32(-5.0), dt: Q32_32(0.1))
        #expect(first && !negative)
        #expect(altimeter.pressure == Q32_32(101_325.0))
        #expect(altimeter.relativeAltitude == .zero)
    }
}
