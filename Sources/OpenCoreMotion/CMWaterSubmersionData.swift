public import Foundation
package import MotionAlgorithms

/// Going under or coming up (Core Motion's CMWaterSubmersionEvent).
public final class CMWaterSubmersionEvent: Sendable, CustomStringConvertible {
    /// Core Motion's CMWaterSubmersionEvent.State, with its raw values.
    public enum State: Int, Sendable {
        case unknown = 0
        case notSubmerged = 100
        case submerged = 200
    }

    public let date: Date
    public let state: State

    public init(date: Date, state: State) {
        self.date = date
        self.state = state
    }

    public var description: String { "CMWaterSubmersionEvent(\(state == .submerged ? "submerged" : state == .notSubmerged ? "not submerged" : "unknown") at \(date))" }
}

/// One depth-sensor measurement (Core Motion's CMWaterSubmersionMeasurement).
public final class CMWaterSubmersionMeasurement: Sendable, CustomStringConvertible {
    /// Core Motion's CMWaterSubmersionMeasurement.DepthState, with its raw values (the
    /// thresholds: `WaterSubmersionSettings` in MotionAlgorithms).
    public enum DepthState: Int, Sendable {
        case unknown = 0
        case notSubmerged = 100
        case submergedShallow = 200
        case submergedDeep = 300
        case approachingMaxDepth = 400
        case pastMaxDepth = 500
        case sensorDepthError = 600
    }

    public let date: Date
    /// Depth below the learned surface (nil until the surface is known).
    public let depth: Measurement<UnitLength>?
    /// Static pressure at the sensor.
    public let pressure: Measurement<UnitPressure>?
    /// The surface pressure learned before the dive; until it is learned (the first seconds
    /// out of the water), the pressure now: the device is at the surface then. Never nil, as
    /// Apple's.
    public let surfacePressure: Measurement<UnitPressure>
    public let submersionState: DepthState

    package init(_ measurement: WaterSubmersionTracker.Measurement) {
        date = Date(engineNanoseconds: measurement.timestampNanoseconds)
        depth = measurement.depth.map { Measurement(value: $0, unit: .meters) }
        pressure = Measurement(value: measurement.pressure / 1000, unit: .kilopascals)
        surfacePressure = Measurement(value: (measurement.surfacePressure ?? measurement.pressure) / 1000, unit: .kilopascals)
        submersionState = DepthState(rawValue: measurement.state.rawValue) ?? .unknown
    }

    public var description: String {
        let depthText = depth.map { String(format: "%.3f m", $0.value) } ?? "unknown depth"
        return "CMWaterSubmersionMeasurement(\(depthText), \(submersionState) at \(date))"
    }
}

/// The water's temperature while submerged (Core Motion's CMWaterTemperature).
public final class CMWaterTemperature: Sendable, CustomStringConvertible {
    public let date: Date
    public let temperature: Measurement<UnitTemperature>
    /// The sensor's stated temperature accuracy (±, same unit).
    public let temperatureUncertainty: Measurement<UnitTemperature>

    public init(date: Date, celsius: Double, uncertaintyCelsius: Double) {
        self.date = date
        temperature = Measurement(value: celsius, unit: .celsius)
        temperatureUncertainty = Measurement(value: uncertaintyCelsius, unit: .celsius)
    }

    public var description: String { String(format: "CMWaterTemperature(%.2f ± %.1f °C at \(date))", temperature.value, temperatureUncertainty.value) }
}
