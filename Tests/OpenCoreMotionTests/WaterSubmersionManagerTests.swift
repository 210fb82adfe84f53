import Foundation
import OpenCoreMotion
import Locking
import Testing

/// Collects what a water-submersion manager reports.
final class DiveLog: CMWaterSubmersionManagerDelegate {
    struct Log {
        var events: [CMWaterSubmersionEvent] = []
        var measurements: [CMWaterSubmersionMeasurement] = []
        var temperatures: [CMWaterTemperature] = []
        var errors: [any Error] = []
    }
    let log = Lock(Log())

    func manager(_ manager: CMWaterSubmersionManager, didUpdate event: CMWaterSubmersionEvent) { log.withLock { $0.events.append(event) } }
    func manager(_ manager: CMWaterSubmersionManager, didUpdate measurement: CMWaterSubmersionMeasurement) { log.withLock { $0.measurements.append(measurement) } }
    func manager(_ manager: CMWaterSubmersionManager, didUpdate measurement: CMWaterTemperature) { log.withLock { $0.temperatures.append(measurement) } }
    func manager(_ manager: CMWaterSubmersionManager, errorOccurred error: any Error) { log.withLock { $0.errors.append(error) } }
}

@Suite(.serialized) struct WaterSubmersionManagerTests {
    @Test func availabilityAndABoardWithoutADepthSensor() async throws {
        #expect(CMWaterSubmersionManager.waterSubmersionAvailable == CMWaterSubmersionManager().isWaterSubmersionAvailable,
                "the class property answers for the system's board")
        #expect(CMWaterSubmersionManager(board: "boards/sim-ms5837.board").isWaterSubmersionAvailable)
        #expect(CMWaterSubmersionManager.authorizationStatus == .authorized)
        let manager = CMWaterSubmersionManager(board: "boards/sim-mpu-9250.board")
        #expect(!manager.isWaterSubmersionAvailable)
        #expect(manager.maximumDepth == nil)
        let log = DiveLog()
        manager.delegate = log
        try await Task.sleep(for: .milliseconds(200))
        let errors = log.log.withLock { $0.errors }
        #expect(errors.count == 1)
        let error = try #require(errors.first as? CMError)
        #expect(error.code == .notAvailable)
        #expect(error.message.contains("has no depth sensor, which water submersion needs"))
        #expect(error.message.contains("driver = ms5837-30ba or ms5837-02ba"))
    }

    /// The setter returns at once and the board comes up on the delegate queue, in the order
    /// the delegate was set: set, cleared and set again, the last delegate gets the updates,
    /// and clearing it stops them.
    @Test func settingTheDelegateInQuickSuccessionKeepsItsOrder() async throws {
        let manager = CMWaterSubmersionManager(board: "boards/sim-ms5837.board")
        let first = DiveLog(), second = DiveLog()
        manager.delegate = first
        manager.delegate = nil
        manager.delegate = second
        #expect(try await eventually { second.log.withLock { $0.measurements.count } >= 5 })
        #expect(second.log.withLock { $0.errors.isEmpty })
        manager.delegate = nil
        try await drain(manager.delegateQueue)
        let delivered = second.log.withLock { $0.measurements.count } + first.log.withLock { $0.measurements.count }
        try await Task.sleep(for: .milliseconds(300))  // 7 measurements' time at 25 a second
        try await drain(manager.delegateQueue)
        #expect(second.log.withLock { $0.measurements.count } + first.log.withLock { $0.measurements.count } == delivered)
    }

    @Test func maximumDepthDefaultsToTheSensorsRangeInThatWater() {
        let dive = "boards/sim-ms5837.board"
        let fresh = CMWaterSubmersionManager(board: dive), salt = CMWaterSubmersionManager(board: dive, waterDensity: CMWaterSubmersionManager.saltWaterDensity)
        // 30 bar less one atmosphere: 295.6 m of fresh water, 288.4 m of sea water.
        #expect(abs((fresh.maximumDepth?.converted(to: .meters).value ?? 0) - 295.6) < 0.1)
        #expect(abs((salt.maximumDepth?.converted(to: .meters).value ?? 0) - 288.4) < 0.1)
        #expect(CMWaterSubmersionManager(board: dive, maximumDepth: 6).maximumDepth?.value == 6)
    }

    /// One whole simulated dive (boards/sim-ms5837.board, in real time: 27 s): air, splash,
    /// down to 7 m, hold, up, floating.
    @Test func aSimulatedDiveLive() async throws {
        let manager = CMWaterSubmersionManager(board: "boards/sim-ms5837.board", maximumDepth: 6)
        let log = DiveLog()
        let start = Date()
        manager.delegate = log
        try await Task.sleep(for: .seconds(27))
        manager.delegate = nil
        let result = log.log.withLock { $0 }
        #expect(result.errors.isEmpty, "\(result.errors)")
        // Events: submerged passing 0.25 m on the way down (~8.3 s), up through 0.1 m (~24.9 s).
        #expect(result.events.map(\.state) == [.submerged, .notSubmerged])
        let eventTimes = result.events.map { $0.date.timeIntervalSince(start) }
        print("events at", eventTimes.map { String(format: "%.2f s", $0) })
        #expect(eventTimes.count == 2 && abs(eventTimes[0] - 8.3) < 0.5 && abs(eventTimes[1] - 24.9) < 0.5, "\(eventTimes)")
        var states: [CMWaterSubmersionMeasurement.DepthState] = []
        for measurement in result.measurements where states.last != measurement.submersionState { states.append(measurement.submersionState) }
        #expect(states == [.unknown, .notSubmerged, .submergedShallow, .submergedDeep, .approachingMaxDepth, .pastMaxDepth,
                           .approachingMaxDepth, .submergedDeep, .submergedShallow, .notSubmerged])
        #expect(result.measurements.count > 25 * 25)  // 25 a second
        // The hold at 7 m (15.5–17.5 s into the dive): depth within 1 cm, the surface 100.8 kPa.
        let hold = result.measurements.filter { (15.5...17.5).contains($0.date.timeIntervalSince(start)) }
        #expect(!hold.isEmpty)
        for measurement in hold {
            #expect(abs((measurement.depth?.converted(to: .meters).value ?? 0) - 7) < 0.01, "\(measurement)")
            #expect(abs((measurement.surfacePressure.converted(to: .kilopascals).value) - 100.8) < 0.02)
        }
        // Water temperature only while submerged: 14 °C ± the 30BA's 2 °C.
        #expect(!result.temperatures.isEmpty)
        for temperature in result.temperatures {
            let seconds = temperature.date.timeIntervalSince(start)
            #expect(seconds > 8 && seconds < 25.5)
            #expect(abs(temperature.temperature.converted(to: .celsius).value - 14) < 0.011)
            #expect(temperature.temperatureUncertainty.converted(to: .celsius).value == 2)
        }
    }
}
