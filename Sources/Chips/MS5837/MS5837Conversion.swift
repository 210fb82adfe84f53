/// The two MS5837 variants: the same commands and PROM, different ranges and compensation.
public enum MS5837Variant: Sendable, CaseIterable {
    /// MS5837-30BA: 0…30 bar, P in 0.1 mbar (10 Pa) steps.
    case bar30
    /// MS5837-02BA: 10…1200 mbar, P in 0.01 mbar (1 Pa) steps.
    case bar02

    public var name: String { self == .bar30 ? "MS5837-30BA" : "MS5837-02BA" }

    /// Board-file driver names.
    public var driver: String { self == .bar30 ? "ms5837-30ba" : "ms5837-02ba" }

    /// The top of the compensated pressure range, Pa ("Pressure and temperature calculation":
    /// "0…30 bar" for the 30BA, "10…1200 mbar" for the 02BA: 1.9 m of water at sea level,
    /// although Blue Robotics sell the 02BA as the Bar02 for 10 m).
    public var fullScalePascals: Double { self == .bar30 ? 3_000_000 : 120_000 }

    /// The temperature's uncertainty, °C. ASSUMED, not yet checked against the datasheets'
    /// temperature accuracy tables (not at hand when this was written): ±2 °C for the 30BA,
    /// ±1 °C for the 02BA. Confirm before relying on it.
    public var temperatureUncertaintyCelsius: Double { self == .bar30 ? 2 : 1 }

    /// The variant a board-file driver name means.
    public static func of(driver: String) -> MS5837Variant? { allCases.first { $0.driver == driver } }

    /// The pressure step of the compensated result, Pa.
    public var pressureStepPascals: Int64 { self == .bar30 ? 10 : 1 }

    /// The product versions (PROM word 0 bits 11…5) of this variant, for telling a board file's
    /// wrong variant apart: 30BA26 0x1A; 02BA01 0x00, 02BA21 0x15.
    public var versions: [UInt8] { self == .bar30 ? [0x1A] : [0x00, 0x15] }

    public static func of(version: UInt8) -> MS5837Variant? { allCases.first { $0.versions.contains(version) } }
}

/// The datasheets' compensation ("MS5837-30BA datasheet, TE Connectivity", sections "Pressure
/// and temperature calculation" and "Second order temperature compensation"; the 02BA's
/// datasheet, same sections). 64-bit integers as the datasheets recommend; "/ 2ⁿ" is an
/// arithmetic shift (rounding toward −∞), which is what reproduces the 30BA example's SENS
/// (1145816755, where truncation would give …756).
public enum MS5837Conversion {
    public struct Result: Sendable, Equatable {
        /// TEMP, 0.01 °C.
        public var centidegrees: Int64
        /// P, in the variant's steps (0.1 mbar for the 30BA, 0.01 mbar for the 02BA).
        public var pressureSteps: Int64
        /// The intermediate values, for golden-vector tests.
        public var dT: Int64, offset: Int64, sensitivity: Int64
        /// Pa per pressure step (10 or 1).
        public var pressureStepPascals: Int64

        public var pascals: Int64 { pressureSteps * pressureStepPascals }
        public var celsius: Double { Double(centidegrees) / 100 }
    }

    /// First order: dT, TEMP, OFF, SENS and P from D1, D2 and C1…C6.
    public static func firstOrder(_ variant: MS5837Variant, d1: UInt32, d2: UInt32, _ prom: MS5837Calibration) -> Result {
        let dT = Int64(d2) - (prom.c(5) << 8)
        let temperature = 2000 + ((dT * prom.c(6)) >> 23)
        let offset: Int64, sensitivity: Int64
        switch variant {
        case .bar30:
            offset = (prom.c(2) << 16) + ((prom.c(4) * dT) >> 7)
            sensitivity = (prom.c(1) << 15) + ((prom.c(3) * dT) >> 8)
        case .bar02:
            offset = (prom.c(2) << 17) + ((prom.c(4) * dT) >> 6)
            sensitivity = (prom.c(1) << 16) + ((prom.c(3) * dT) >> 7)
        }
        return Result(centidegrees: temperature, pressureSteps: pressure(variant, d1: d1, offset: offset, sensitivity: sensitivity),
                      dT: dT, offset: offset, sensitivity: sensitivity, pressureStepPascals: variant.pressureStepPascals)
    }

    /// First order, then the second-order corrections Ti, OFFi, SENSi of the variant:
    /// - 30BA, TEMP < 20 °C: Ti = 3 dT²/2³³, OFFi = 3 (TEMP − 2000)²/2, SENSi = 5 (TEMP − 2000)²/2³;
    ///   below −15 °C also OFFi += 7 (TEMP + 1500)², SENSi += 4 (TEMP + 1500)²;
    ///   TEMP ≥ 20 °C: Ti = 2 dT²/2³⁷, OFFi = (TEMP − 2000)²/2⁴, SENSi = 0.
    /// - 02BA, TEMP < 20 °C: Ti = 11 dT²/2³⁵, OFFi = 31 (TEMP − 2000)²/2³, SENSi = 63 (TEMP − 2000)²/2⁵;
    ///   TEMP ≥ 20 °C: none.
    public static func secondOrder(_ variant: MS5837Variant, d1: UInt32, d2: UInt32, _ prom: MS5837Calibration) -> Result {
        var result = firstOrder(variant, d1: d1, d2: d2, prom)
        let dT = result.dT, temperature = result.centidegrees
        let below = (temperature - 2000) * (temperature - 2000)
        var ti: Int64 = 0, offsetCorrection: Int64 = 0, sensitivityCorrection: Int64 = 0
        switch variant {
        case .bar30:
            if temperature < 2000 {
                ti = (3 * dT * dT) >> 33
                offsetCorrection = (3 * below) >> 1
                sensitivityCorrection = (5 * below) >> 3
                if temperature < -1500 {
                    let veryLow = (temperature + 1500) * (temperature + 1500)
                    offsetCorrection += 7 * veryLow
                    sensitivityCorrection += 4 * veryLow
                }
            } else {
                ti = (2 * dT * dT) >> 37
                offsetCorrection = below >> 4
            }
        case .bar02:
            if temperature < 2000 {
                ti = (11 * dT * dT) >> 35
                offsetCorrection = (31 * below) >> 3
                sensitivityCorrection = (63 * below) >> 5
            }
        }
        result.offset -= offsetCorrection
        result.sensitivity -= sensitivityCorrection
        result.centidegrees = temperature - ti
        result.pressureSteps = pressure(variant, d1: d1, offset: result.offset, sensitivity: result.sensitivity)
        return result
    }

    /// P = (D1 · SENS / 2²¹ − OFF) / 2¹³ (30BA) or / 2¹⁵ (02BA).
    private static func pressure(_ variant: MS5837Variant, d1: UInt32, offset: Int64, sensitivity: Int64) -> Int64 {
        (((Int64(d1) * sensitivity) >> 21) - offset) >> (variant == .bar30 ? 13 : 15)
    }
}
