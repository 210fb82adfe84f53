import MotionAlgorithms
import Testing
import TestSupport

@Suite(.blocking) struct WaterSubmersionTrackerTests {
    private let surface = 100_800.0  // Pa: not sea level, so learning it matters

    /// Feeds `depths` (m, 25 readings/s) as pressures in water of `density`; returns states and events.
    private func run(_ depths: [Double], density: Double = WaterSubmersionSettings.freshWaterDensity, maximumDepth: Double = 6,
                     start: Int64 = 0, tracker: inout WaterSubmersionTracker) -> (states: [WaterSubmersionState], events: [WaterSubmersionTracker.Event], depths: [Double?]) {
        var states: [WaterSubmersionState] = [], events: [WaterSubmersionTracker.Event] = [], measured: [Double?] = []
        for (index, depth) in depths.enumerated() {
            let output = tracker.process(pressure: surface + depth * density * 9.80665, timestampNanoseconds: start + Int64(index) * 40_000_000)
            if states.last != output.measurement.state { states.append(output.measurement.state) }
            if let event = output.event { events.append(event) }
            measured.append(output.measurement.depth)
        }
        return (states, events, measured)
    }

    private func profile(_ segments: [(seconds: Double, to: Double)], from start: Double = 0) -> [Double] {
        var depths: [Double] = [], current = start
        for (seconds, target) in segments {
            let count = Int(seconds * 25)
            for step in 1...count { depths.append(current + (target - current) * Double(step) / Double(count)) }
            current = target
        }
        return depths
    }

    @Test func aDiveGoesThroughTheStatesInOrder() {
        var tracker = WaterSubmersionTracker(settings: WaterSubmersionSettings(maximumDepth: 6, sensorFullScalePascals: 3e6))
        let dive = profile([(5, 0), (20, 7), (5, 7), (25, 0), (3, 0)])
        let result = run(dive, tracker: &tracker)
        #expect(result.states == [.unknown, .notSubmerged, .submergedShallow, .submergedDeep, .approachingMaxDepth, .pastMaxDepth,
                                  .approachingMaxDepth, .submergedDeep, .submergedShallow, .notSubmerged])
        #expect(result.events == [.submerged, .surfaced])
        // Relearned after surfacing: within 2 mm of water of the truth.
        #expect(abs((tracker.surfacePressure ?? 0) - surface) < 20)
    }

    /// The surface learned before the dive carries only what the first 5 cm of the descent
    /// moved it by: under a millimetre.
    @Test func depthIsWithinAMillimetreOnceTheSurfaceIsLearned() {
        var tracker = WaterSubmersionTracker(settings: WaterSubmersionSettings(maximumDepth: 40, sensorFullScalePascals: 3e6))
        let dive = profile([(5, 0), (10, 12.5), (10, 12.5)])
        let result = run(dive, tracker: &tracker)
        for (truth, measured) in zip(dive, result.depths).suffix(400) {
            #expect(abs((measured ?? -1) - truth) < 0.001)
        }
    }

    /// Salt water is denser: the same pressure is a shallower depth, by the density ratio.
    @Test func saltWaterDepthScalesByTheDensityRatio() {
        let pressures = profile([(5, 0), (10, 10), (2, 10)]).map { surface + $0 * 1000 * 9.80665 }  // fresh-water depths as pressure
        func lastDepth(_ density: Double) -> Double {
            var tracker = WaterSubmersionTracker(settings: WaterSubmersionSettings(waterDensity: density, maximumDepth: 40, sensorFullScalePascals: 3e6))
            var depth = 0.0
            for (index, pressure) in pressures.enumerated() {
                depth = tracker.process(pressure: pressure, timestampNanoseconds: Int64(index) * 40_000_000).measurement.depth ?? 0
            }
            return depth
        }
        let fresh = lastDepth(WaterSubmersionSettings.freshWaterDensity), salt = lastDepth(WaterSubmersionSettings.saltWaterDensity)
        #expect(abs(fresh - 10) < 0.001)
        #expect(abs(fresh / salt - 1025.0 / 1000.0) < 1e-9)
    }

    @Test func surfaceChopAndASplashAreNotADive() {
        var tracker = WaterSubmersionTracker(settings: WaterSubmersionSettings(maximumDepth: 6, sensorFullScalePascals: 3e6))
        var depths = profile([(5, 0)])
        // Waves of ±3 cm for 10 s, a splash to 20 cm, and one reading spiking to 30 cm.
        for index in 0..<250 { depths.append(0.03 * Double(index % 10 < 5 ? 1 : -1)) }
        depths += [0.1, 0.2, 0.15, 0.3, 0.05, 0]
        let result = run(depths, tracker: &tracker)
        #expect(result.events.isEmpty)
        #expect(result.states == [.unknown, .notSubmerged])
    }

    @Test func theSurfaceIsNotKnownUntilLearned() {
        var tracker = WaterSubmersionTracker(settings: WaterSubmersionSettings(maximumDepth: 6, sensorFullScalePascals: 3e6))
        let first = tracker.process(pressure: surface, timestampNanoseconds: 0)
        #expect(first.measurement.state == .unknown && first.measurement.depth == nil)
        // Going under before 4 s at the surface: no depth yet, no event.
        let result = run(profile([(1, 0), (3, 2)]), start: 40_000_000, tracker: &tracker)
        #expect(result.events.isEmpty)
    }

    @Test func aPressureThatCannotBeADepthIsASensorError() {
        var tracker = WaterSubmersionTracker(settings: WaterSubmersionSettings(maximumDepth: 6, sensorFullScalePascals: 200_000))
        _ = run(profile([(5, 0), (5, 2)]), tracker: &tracker)
        #expect(tracker.state == .submergedDeep)
        #expect(tracker.process(pressure: 250_000, timestampNanoseconds: 2_000_000_000_000).measurement.state == .sensorDepthError)  // beyond range
        #expect(tracker.process(pressure: surface - 8000, timestampNanoseconds: 2_000_040_000_000).measurement.state == .sensorDepthError)  // 0.8 m above the surface
        #expect(tracker.process(pressure: .nan, timestampNanoseconds: 2_000_080_000_000).measurement.state == .sensorDepthError)
        #expect(tracker.isSubmerged)  // an error is not a surfacing
        #expect(tracker.process(pressure: surface + 2 * 9806.65, timestampNanoseconds: 2_000_120_000_000).measurement.state == .submergedDeep)
    }
}
