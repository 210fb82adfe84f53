import MotionAlgorithms
@testable import MotionEngine
import Testing
import TestSupport

/// The simulated dive through the real MS5837 driver and its emulator (`boards/sim-ms5837.board`),
/// run as fast as possible, into the water-submersion tracker: events, states and depth
/// against the scripted profile.
@Suite struct SimulatedDiveTests {
    struct Dive {
        var states: [WaterSubmersionState] = []
        var events: [(seconds: Double, event: WaterSubmersionTracker.Event)] = []
        /// Measured minus scripted depth, m, for every reading under water after the surface is known.
        var errors: [Double] = []
        var temperatures: [(seconds: Double, celsius: Double)] = []
        var readings = 0
        /// Chip resets the driver recovered from: none on a healthy chip (the driver never
        /// reads a conversion before it ends).
        var recoveries = 0
    }

    func dive(motion: String, density: Double, maximumDepth: Double = 6, seconds: Double = 28) throws -> Dive {
        let text = try String(contentsOfFile: ProjectPaths.root + "/boards/sim-ms5837.board", encoding: .utf8)
            .replacingOccurrences(of: "motion = synthetic:dive", with: "motion = \(motion)")
        let board = try BoardFileParser.parse(text, path: "sim-ms5837.board")
        #expect(board.depthSensor?.chipName == "MS5837-30BA")
        let runtime = try BoardRuntime(board, root: ProjectPaths.root, speed: 0)
        var tracker = WaterSubmersionTracker(settings: WaterSubmersionSettings(waterDensity: density, maximumDepth: maximumDepth,
                                                                               sensorFullScalePascals: board.depthSensor!.fullScalePascals))
        var result = Dive()
        try runtime.run(untilNanoseconds: Int64(seconds * 1e9)) { reading in
            let time = Double(reading.timestampNanoseconds) / 1e9
            switch reading.value {
            case .pressure(let pressure):
                result.readings += 1
                let output = tracker.process(pressure: pressure.doubleValue, timestampNanoseconds: reading.timestampNanoseconds)
                if result.states.last != output.measurement.state { result.states.append(output.measurement.state) }
                if let event = output.event { result.events.append((time, event)) }
                let truth = SyntheticDive.depth(atNanoseconds: reading.timestampNanoseconds)
                if let depth = output.measurement.depth, truth > 0 { result.errors.append(depth - truth) }
            case .temperature(let celsius):
                result.temperatures.append((time, celsius.doubleValue))
            default:
                break
            }
        }
        result.recoveries = runtime.status.map(\.recoveries).reduce(0, +)
        return result
    }

    @Test func aFreshWaterDiveGivesTheEventsStatesAndDepths() throws {
        let result = try dive(motion: "synthetic:dive", density: 1000)
        #expect(result.readings >= 28 * 25 - 2)  // a measurement every 40 ms
        #expect(result.recoveries == 0)
        #expect(result.states == [.unknown, .notSubmerged, .submergedShallow, .submergedDeep, .approachingMaxDepth, .pastMaxDepth,
                                  .approachingMaxDepth, .submergedDeep, .submergedShallow, .notSubmerged])
        // Submerged passing 0.25 m going down (8.25 s, two readings to confirm), surfaced passing
        // 0.10 m going up (24.9 s); the splash at 6–8 s and the floating after are no dive.
        #expect(result.events.map(\.event) == [.submerged, .surfaced])
        #expect(abs(result.events[0].seconds - 8.3) < 0.1, "\(result.events[0].seconds)")
        #expect(abs(result.events[1].seconds - 24.9) < 0.1, "\(result.events[1].seconds)")
        let rms = (result.errors.map { $0 * $0 }.reduce(0, +) / Double(result.errors.count)).squareRoot()
        let worst = result.errors.map(abs).max() ?? 0
        let mean = result.errors.reduce(0, +) / Double(result.errors.count)
        print("fresh-water dive: \(result.errors.count) depths, error mean \(mean * 1000) mm, RMS \(rms * 1000) mm, max \(worst * 1000) mm")
        // The 30BA's 0.2 mbar noise is 2 mm of water, its 0.1 mbar step 1 mm: measured 2.2 mm
        // RMS, 6.6 mm at worst, 0.8 mm mean.
        #expect(abs(mean) < 0.002)
        #expect(rms < 0.004)
        #expect(worst < 0.012)
        // Water temperature 14 °C once under, air 20 °C before (to the 0.01 °C step).
        #expect(result.temperatures.filter { $0.seconds > 10 && $0.seconds < 20 }.allSatisfy { abs($0.celsius - 14) < 0.011 })
        #expect(result.temperatures.filter { $0.seconds < 5 }.allSatisfy { abs($0.celsius - 20) < 0.011 })
    }

    /// The same dive in sea water with the tracker told so: depths as exact. Told fresh water
    /// instead, every depth is deeper by the density ratio.
    @Test func saltWaterDepthsDifferByTheDensityRatio() throws {
        let salt = try dive(motion: "synthetic:dive-salt", density: 1025, maximumDepth: 40, seconds: 18)
        let saltRMS = (salt.errors.map { $0 * $0 }.reduce(0, +) / Double(salt.errors.count)).squareRoot()
        #expect(saltRMS < 0.004)
        let misread = try dive(motion: "synthetic:dive-salt", density: 1000, maximumDepth: 40, seconds: 18)
        // At the 7 m hold (15–18 s): measured / true = 1025 / 1000 to within the noise.
        let hold = misread.errors.suffix(50).map { ($0 + 7) / 7 }
        let ratio = hold.reduce(0, +) / Double(hold.count)
        print("salt water read as fresh: depth ratio \(ratio)")
        #expect(abs(ratio - 1.025) < 0.0005)  // 2 mm of noise on 7 m: ±0.0003
    }

    /// A depth sensor is found by its driver; a second barometer on the board is flagged (its
    /// pressure would mix with the depth sensor's in the engine's readings).
    @Test func theBoardsDepthSensor() throws {
        let mixed = try BoardFileParser.parse("""
            board = mixed
            [chip barometer]
            driver = bmp280
            bus = emulated
            address = 0x77
            [chip depth]
            driver = ms5837-02ba
            bus = emulated
            address = 0x76
            """, path: "mixed.board")
        #expect(mixed.depthSensor == DepthSensor(label: "depth", driver: "ms5837-02ba", chipName: "MS5837-02BA", fullScalePascals: 120_000,
                                                temperatureUncertaintyCelsius: 1))
        #expect(mixed.hasOtherBarometers)
        let dive = try BoardFileParser.parse(try String(contentsOfFile: ProjectPaths.root + "/boards/sim-ms5837.board", encoding: .utf8), path: "sim-ms5837.board")
        #expect(!dive.hasOtherBarometers)
        #expect(try BoardFileParser.parse("board = imu\n[chip imu]\ndriver = mpu6050\nbus = emulated\naddress = 0x68\n", path: "imu.board").depthSensor == nil)
    }
}
