import Chips

/// A board's depth sensor (a barometer rated for water), for the water-submersion manager.
public struct DepthSensor: Sendable, Equatable {
    /// The chip's section label and board-file driver: "depth", "ms5837-30ba".
    public var label: String
    public var driver: String
    /// "MS5837-30BA".
    public var chipName: String
    /// The highest pressure the sensor reads validly, Pa.
    public var fullScalePascals: Double
    /// Its temperature's uncertainty, °C.
    public var temperatureUncertaintyCelsius: Double
}

extension BoardDescription {
    /// The board's depth sensor, if it has one (an MS5837; other barometers are not made to
    /// be wet).
    public var depthSensor: DepthSensor? {
        for chip in chips {
            guard let variant = MS5837Variant.of(driver: chip.driver) else { continue }
            return DepthSensor(label: chip.label, driver: chip.driver, chipName: variant.name, fullScalePascals: variant.fullScalePascals,
                               temperatureUncertaintyCelsius: variant.temperatureUncertaintyCelsius)
        }
        return nil
    }

    /// Whether the board has barometers besides its depth sensor (their readings would mix
    /// with its pressure: the water-submersion manager refuses such a board).
    public var hasOtherBarometers: Bool {
        chips.contains { ChipFamily.channels[$0.driver]?.contains(.barometer) == true && MS5837Variant.of(driver: $0.driver) == nil }
    }
}
