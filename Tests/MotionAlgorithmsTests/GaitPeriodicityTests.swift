import FixedPoint
import Foundation
import MotionAlgorithms
import Testing

/// The walking gate's periodicity on signals whose answer is known.
@Suite struct GaitPeriodicityTests {
    static func feed(_ signal: (Double) -> Double, seconds: Double = 4, rate: Double = 100) -> GaitPeriodicity {
        var periodicity = GaitPeriodicity()
        for index in 0..<Int(seconds * rate) {
            let t = Double(index) / rate
            periodicity.update(signal: Q32_32(signal(t)), timeNanoseconds: Int64(t * 1e9))
        }
        return periodicity
    }

    @Test func aSteadyRhythmCorrelatesAtItsPeriodAndNotAtHalfOfIt() {
        let walk = Self.feed { 2 * sin(2 * .pi * 1.8 * $0) }
        #expect(walk.correlation(period: 555_555_556) > 950)
        // Half the period puts the signal in antiphase; twice (checked too) is a whole stride.
        #expect(Self.feed { 2 * sin(2 * .pi * 1.8 * $0) + sin(2 * .pi * 3.6 * $0) }.correlation(period: 555_555_556) > 900)
    }

    @Test func noiseIsNotPeriodic() {
        var seed: UInt64 = 7
        let noise = Self.feed { _ in
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) * 0x1p-53 * 4 - 2
        }
        let correlation = noise.correlation(period: 555_555_556)
        #expect(correlation < 400, "\(correlation)")
    }

    @Test func theAnswerDoesNotDependOnTheSensorRate() {
        let at100 = Self.feed({ 2 * sin(2 * .pi * 1.7 * $0) + 0.5 * sin(2 * .pi * 0.85 * $0) }, rate: 100)
        let at400 = Self.feed({ 2 * sin(2 * .pi * 1.7 * $0) + 0.5 * sin(2 * .pi * 0.85 * $0) }, rate: 400)
        #expect(abs(at100.correlation(period: 588_000_000) - at400.correlation(period: 588_000_000)) < 30)
    }

    @Test func tooShortAWindowSaysNothing() {
        #expect(Self.feed({ 2 * sin(2 * .pi * 1.8 * $0) }, seconds: 1).correlation(period: 555_555_556) == 0)
    }
}
