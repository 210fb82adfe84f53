package import MotionAlgorithms
package import MotionEngine
import Locking

/// What a water-submersion manager receives, on the engine thread.
package enum WaterSubmersionFeed: Sendable {
    /// Went under (`submerged`) or came back up, at a time on the engine clock (ns).
    case event(submerged: Bool, timeNanoseconds: Int64)
    /// Every depth-sensor measurement: depth, pressure, surface pressure, state.
    case measurement(WaterSubmersionTracker.Measurement)
    /// The water's temperature (°C) and its uncertainty, while submerged.
    case temperature(timeNanoseconds: Int64, celsius: Double, uncertainty: Double)
    /// The board stopped: nothing more comes.
    case failed(MotionManagerError)
}

/// What a water-submersion manager is, without Core Motion's classes: a board with a depth
/// sensor (an MS5837), a tap on its pressure and temperature while updates run, and a
/// `WaterSubmersionTracker` with this manager's water density and maximum depth. Each manager
/// has its own tap and tracker (its own settings); the board's engine is shared as usual.
/// `CMWaterSubmersionManager` (Swift) and `ocm_water_submersion` (C) both wrap one.
///
/// The surface pressure is learned from the moment updates start: start them before going
/// into the water (see `WaterSubmersionTracker`). Thread-safe.
package final class WaterSubmersionCore: Sendable {
    package let boardPath: String
    package let board: LiveBoard?
    package let boardError: MotionManagerError?
    package let boardFailure: EngineError?
    /// The board's depth sensor, if it has one.
    package let sensor: DepthSensor?
    package let settings: WaterSubmersionSettings?

    private struct State {
        var tap: ReadingTap?
        var tracker: WaterSubmersionTracker?
        var latest: WaterSubmersionTracker.Measurement?
        var failure: MotionManagerError?
    }
    private let state = Lock(State())

    /// A manager of the board file at `board` (nil: the system's board, `SystemBoard`). `waterDensity` in kg/m³ (1000 fresh, 1025 salt);
    /// `maximumDepth` in m (nil: the sensor's range in this water).
    package init(board: String?, waterDensity: Double, maximumDepth: Double?) {
        let load = board.map(BoardFileLoad.init) ?? BoardFileLoad.system()
        (self.board, boardPath, boardError, boardFailure) = (load.board, load.path, load.error, load.failure)
        let sensor = load.board?.description.depthSensor
        self.sensor = sensor
        settings = sensor.map { sensor in
            let range = (sensor.fullScalePascals - 101_325) / (waterDensity * WaterSubmersionSettings.gravity)
            return WaterSubmersionSettings(waterDensity: waterDensity, maximumDepth: maximumDepth ?? range,
                                           sensorFullScalePascals: sensor.fullScalePascals)
        }
    }

    deinit { stop() }

    package var summary: String { boardPath + (board.map { ": \"\($0.description.name)\"" } ?? ", not loaded") }

    /// The board has a depth sensor and no other barometer to mix with it.
    package var isAvailable: Bool { sensor != nil && board?.description.hasOtherBarometers == false }

    package static func isAvailable(board: String?) -> Bool {
        guard let description = (board.map(BoardFileLoad.init) ?? BoardFileLoad.system()).board?.description else { return false }
        return description.depthSensor != nil && !description.hasOtherBarometers
    }

    /// Starts measuring (replacing a running start: the surface is learned anew): `deliver` gets
    /// every measurement, the events and, while submerged, the water temperature, on the engine
    /// thread. Throws when the board has no depth sensor or cannot be brought up.
    package func start(deliver: @escaping @Sendable (WaterSubmersionFeed) -> Void) throws(MotionManagerError) {
        guard let board, let sensor, let settings, isAvailable else { throw unavailable() }
        stop()
        let uncertainty = sensor.temperatureUncertaintyCelsius
        let tap = ReadingTap(channels: [.barometer, .thermometer]) { [weak self] event in
            guard let self else { return }
            switch event {
            case .reading(let reading):
                let feeds = self.process(reading, uncertainty: uncertainty)
                if let event = feeds.event { deliver(event) }
                if let measurement = feeds.measurement { deliver(measurement) }
                if let temperature = feeds.temperature { deliver(temperature) }
            case .failed(let failure):
                self.state.withLock { $0.failure = failure; $0.tap = nil }
                deliver(.failed(failure))
            }
        }
        state.withLock { state in
            state.tap = tap
            state.tracker = WaterSubmersionTracker(settings: settings)
            state.latest = nil
        }
        do throws(MotionManagerError) {
            try board.add(tap)
        } catch {
            state.withLock { state in if state.tap === tap { state.tap = nil; state.failure = error } }
            throw error
        }
    }

    /// Stops measuring: once this returns (outside a callback), nothing more is delivered.
    package func stop() {
        guard let tap = state.withLock({ state -> ReadingTap? in defer { state.tap = nil }; return state.tap }) else { return }
        board?.remove(tap)
    }

    package var isRunning: Bool { state.withLock { $0.tap != nil } }
    /// The latest measurement since updates started (nil before the first).
    package var latest: WaterSubmersionTracker.Measurement? { state.withLock { $0.latest } }
    package var failure: MotionManagerError? { state.withLock { $0.failure } }

    private typealias Feeds = (event: WaterSubmersionFeed?, measurement: WaterSubmersionFeed?, temperature: WaterSubmersionFeed?)

    /// One reading through the tracker: at most an event, a measurement and a temperature, in
    /// that order (a tuple: nothing allocated per reading).
    private func process(_ reading: SensorReading, uncertainty: Double) -> Feeds {
        state.withLock { state -> Feeds in
            guard state.tracker != nil else { return (nil, nil, nil) }
            let time = reading.timestampNanoseconds
            switch reading.value {
            case .pressure(let pressure):
                let output = state.tracker!.process(pressure: pressure.doubleValue, timestampNanoseconds: time)
                state.latest = output.measurement
                return (output.event.map { .event(submerged: $0 == .submerged, timeNanoseconds: time) }, .measurement(output.measurement), nil)
            case .temperature(let celsius):
                // Core Motion reports the water's temperature only under water.
                guard state.tracker!.isSubmerged else { return (nil, nil, nil) }
                return (nil, nil, .temperature(timeNanoseconds: time, celsius: celsius.doubleValue, uncertainty: uncertainty))
            default:
                return (nil, nil, nil)
            }
        }
    }

    private func unavailable() -> MotionManagerError {
        guard let board else { return boardError ?? MotionManagerError(.notAvailable, "The board file \(boardPath) could not be loaded.") }
        if sensor != nil {
            return MotionManagerError(.notAvailable, "The board file \(board.path) (\"\(board.description.name)\") has another barometer besides its depth "
                                      + "sensor (its chips are \(BoardSensors.chipList(board.description))): their pressures would mix. Give the depth "
                                      + "sensor a board file of its own.")
        }
        return MotionManagerError(.notAvailable, "The board file \(board.path) (\"\(board.description.name)\") has no depth sensor, which water "
                                  + "submersion needs: its chips are \(BoardSensors.chipList(board.description)). Check `waterSubmersionAvailable` "
                                  + "before starting, or use a board file with one (driver = ms5837-30ba or ms5837-02ba; boards/sim-ms5837.board simulates a dive).")
    }
}
