import FixedPoint
@testable import MotionAlgorithms
import Testing

/// The constants MotionAlgorithms writes as rounded Q32.32 literals or exact ratios (so that a
/// board without an FPU needs no floating point) are the numbers their formulas give in Double,
/// as they were computed before: one wrong digit would change every output.
@Suite struct FixedPointConstantsTests {
    @Test func filterCutoffsAreTheirFormulas() {
        #expect(ActivityFeatures.twoPi20 == Q32_32(2 * Double.pi * 20))
        #expect(ActivityFeatures.twoPi5 == Q32_32(2 * Double.pi * 5))
        #expect(ActivityFeatures.twoPi03 == Q32_32(2 * Double.pi * 0.3))
        #expect(RhythmDetector.twoPi4 == Q32_32(2 * Double.pi * 4))
        // The step signal's 3 Hz Butterworth, once given by its time constant √2 / (2π × 3 Hz).
        let timeConstant = 2.0.squareRoot() / (2 * .pi * 3)
        #expect(StepDetector.smoothingPiCutoff == Q32_32(2.0.squareRoot() / (2 * timeConstant)))
    }

    /// The attitude filter's default settings, and the coefficients the filter derives from
    /// them in integer arithmetic (reciprocals, squares), against the Double formulas.
    @Test func attitudeFilterSettingsAreTheirFormulas() {
        let settings = AttitudeFilterSettings()
        #expect(settings.restGyroscopeThreshold == Q32_32(2.0 * .pi / 180))
        #expect(settings.biasLimit == Q32_32(10.0 * .pi / 180))
        #expect(settings.magneticDipThreshold == Q32_32(10.0 * .pi / 180))
        #expect(settings.magneticNormThreshold == Q32_32(0.1))
        #expect(settings.magnetometerInterval == Q32_32(0.02))
        #expect(settings.slowInterval == Q32_32(0.04))
        #expect(settings.restMinimumDuration == Q32_32(1.5))
        #expect(settings.restGyroscopeThreshold * settings.restGyroscopeThreshold == Q32_32((2.0 * .pi / 180) * (2.0 * .pi / 180)))
        for (timeConstant, seconds) in [(settings.magnetometerTimeConstant, 9.0), (settings.restFilterTimeConstant, 0.5),
                                        (settings.restBiasTimeConstant, 2.0), (settings.motionBiasTimeConstant, 100.0),
                                        (settings.motionBiasStartTimeConstant, 12.0), (settings.magnetometerStartTimeConstant, 2.0)] {
            #expect(timeConstant == Q32_32(seconds))
            #expect(timeConstant.reciprocal == Q32_32(1 / seconds))
        }
        // The accelerometer's Butterworth: π f_c = √2 / (2τ), from (√2 / 2) × (1/τ).
        #expect(Q32_32.squareRootOfTwo.timesPowerOfTwo(-1) * settings.accelerometerTimeConstant.reciprocal
                == Q32_32(2.0.squareRoot() / (2 * 3.0)))
    }
}
