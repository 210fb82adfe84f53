import FixedPoint
import Foundation
import MotionAlgorithms
import Testing

/// The standard atmosphere's pressure → altitude in Q32.32 against the same formula in Double.
@Suite struct StandardAtmosphereTests {
    /// The standard atmosphere's pressure at `height` m (its formula turned around).
    static func pressure(at height: Double, seaLevel: Double = 101_325) -> Double {
        seaLevel * pow(1 - height / 44_330.77, 1 / 0.190263)
    }

    @Test func altitudeIsWithinAMillimetreFromBelowSeaLevelToNineKilometres() {
        var worst = 0.0
        for height in stride(from: -500.0, through: 9000, by: 37.5) {
            let got = StandardAtmosphere.altitude(pressure: Q32_32(Self.pressure(at: height))).doubleValue
            worst = max(worst, abs(got - height))
        }
        #expect(worst < 0.001, "worst \(worst) m")
    }

    @Test func goldenAltitudes() {
        #expect(StandardAtmosphere.altitude(pressure: Q32_32(101_325.0)) == .zero)
        // 1000 hPa is 110.9 m above the standard's sea level; 900 hPa is 988.5 m (the formula in Double).
        #expect(abs(StandardAtmosphere.altitude(pressure: Q32_32(100_000.0)).doubleValue - 110.8844) < 0.001)
        #expect(abs(StandardAtmosphere.altitude(pressure: Q32_32(90_000.0)).doubleValue - 988.4996) < 0.001)
        // Against a QNH of 1020 hPa, 1013.25 hPa is 56.0 m up.
        let qnh = StandardAtmosphere.altitude(pressure: Q32_32(101_325.0), seaLevelPressure: Q32_32(102_000.0)).doubleValue
        #expect(abs(qnh - 44_330.77 * (1 - pow(101_325.0 / 102_000, 0.190263))) < 0.001)
    }

    @Test func slopesMatchTheHypsometricEquation() {
        // 8.3 m per hPa of the sea-level pressure at sea level; 8.3 cm per Pa at 15 °C.
        let perSeaLevelPascal = StandardAtmosphere.metresPerSeaLevelPascal(altitude: .zero, seaLevelPressure: Q32_32(101_325.0))
        #expect(abs(perSeaLevelPascal.doubleValue - 29.27124 * 288.15 / 101_325) < 1e-6)
        let perPascal = StandardAtmosphere.metresPerPascal(pressure: Q32_32(101_325.0), temperatureKelvin: Q32_32(288.15))
        #expect(abs(perPascal.doubleValue - 0.083_242) < 1e-5)
    }
}
