@testable import Geomagnetism
import Testing

/// The model against the values NOAA publishes for WMM2025 and against NOAA's own software
/// (wmm-calculator on geomaglib; tools/golden/generate_wmm_golden.py). Each tolerance is the
/// rounding of the reference values plus a margin far below it.
@Suite struct WorldMagneticModelTests {
    let model = WorldMagneticModel.wmm2025

    /// The 100 official test points. Declination and inclination are printed to 0.01°, so they
    /// must agree within half of that (0.005°, plus 10⁻⁹ for the binary representation). The
    /// components are printed to 10⁻⁶ nT, but that file's X (and so H and F) differs from NOAA's
    /// own Python package by up to 7 × 10⁻⁴ nT (its Z and Y do not; we match the package to
    /// 10⁻⁵ nT, see `agreesWithNOAASoftware`), so they must agree within 10⁻³ nT.
    @Test func officialTestPoints() throws {
        var worstComponent = 0.0, worstAngle = 0.0
        for (year, height, latitude, longitude, declination, inclination, h, x, y, z, f) in WMMPublishedValues.testPoints {
            let field = try model.field(latitude: latitude, longitude: longitude, heightKilometers: height, decimalYear: year)
            for (ours, published) in [(field.horizontal, h), (field.north, x), (field.east, y), (field.down, z), (field.total, f)] {
                worstComponent = max(worstComponent, abs(ours - published))
            }
            worstAngle = max(worstAngle, abs(field.declinationDegrees - declination), abs(field.inclinationDegrees - inclination))
        }
        #expect(WMMPublishedValues.testPoints.count == 100)
        #expect(worstComponent <= 1e-3, "worst component difference \(worstComponent) nT")
        #expect(worstAngle <= 0.005 + 1e-9, "worst angle difference \(worstAngle)°")
    }

    /// The WMM2025 report's table (heights 0 and 100 km, latitudes ±80° and 0°, 2025.0 and
    /// 2027.5): components printed to 0.1 nT (agree within 0.05 nT), angles to 0.01° (0.005°).
    @Test func reportTable() throws {
        for (year, height, latitude, longitude, x, y, z, h, f, inclination, declination) in WMMPublishedValues.reportTable {
            let field = try model.field(latitude: latitude, longitude: longitude, heightKilometers: height, decimalYear: year)
            for (ours, published) in [(field.north, x), (field.east, y), (field.down, z), (field.horizontal, h), (field.total, f)] {
                #expect(abs(ours - published) <= 0.05 + 1e-9, "\(latitude)° \(longitude)° \(height) km \(year): \(ours) vs \(published) nT")
            }
            #expect(abs(field.inclinationDegrees - inclination) <= 0.005 + 1e-9)
            #expect(abs(field.declinationDegrees - declination) <= 0.005 + 1e-9)
        }
        #expect(WMMPublishedValues.reportTable.count == 12)
    }

    /// 256 points computed with NOAA's wmm-calculator (printed to 10⁻⁶ nT and 10⁻⁸°): seeded
    /// random positions over the globe, −1…850 km and 2025.0–2029.99, plus points near the
    /// poles (±89.9°, ±89.99°; the poles themselves: see `poles`). Components within 2 × 10⁻⁵ nT,
    /// angles within 10⁻⁷° (measured: 8.6 × 10⁻⁶ nT and 2.3 × 10⁻⁸°).
    @Test func agreesWithNOAASoftware() throws {
        var worstComponent = 0.0, worstAngle = 0.0
        for (latitude, longitude, height, year, x, y, z, h, f, inclination, declination) in WMMGoldenValues.points {
            let field = try model.field(latitude: latitude, longitude: longitude, heightKilometers: height, decimalYear: year)
            for (ours, reference) in [(field.north, x), (field.east, y), (field.down, z), (field.horizontal, h), (field.total, f)] {
                worstComponent = max(worstComponent, abs(ours - reference))
            }
            var declinationDifference = abs(field.declinationDegrees - declination)
            if declinationDifference > 180 { declinationDifference = 360 - declinationDifference }  // ±180° is one direction
            worstAngle = max(worstAngle, declinationDifference, abs(field.inclinationDegrees - inclination))
        }
        #expect(WMMGoldenValues.points.count == 256)
        #expect(worstComponent <= 2e-5, "worst component difference \(worstComponent) nT")
        #expect(worstAngle <= 1e-7, "worst angle difference \(worstAngle)°")
    }

    /// At a geographic pole cos φ′ is exactly 0 and Y′ comes from the pole formula; the result
    /// must be finite and continuous with points beside the pole along the same meridian, where
    /// the ordinary formula applies (the field changes by about 10⁻⁴ nT per metre there).
    @Test(arguments: [90.0, -90.0])
    func poles(latitude: Double) throws {
        let sign = latitude > 0 ? 1.0 : -1.0
        for longitude in [-180.0, -45, 0, 37.5, 100, 270] {
            for (height, year) in [(0.0, 2025.0), (850, 2029.99), (-1, 2027.3)] {
                let atPole = try model.field(latitude: latitude, longitude: longitude, heightKilometers: height, decimalYear: year)
                // 10⁻⁸° ≈ 1 mm from the pole: cos φ′ ≈ 2 × 10⁻¹⁰, above the pole formula's threshold.
                let beside = try model.field(latitude: latitude - sign * 1e-8, longitude: longitude, heightKilometers: height, decimalYear: year)
                #expect(abs(atPole.north - beside.north) < 1e-3 && abs(atPole.east - beside.east) < 1e-3
                        && abs(atPole.down - beside.down) < 1e-3, "\(latitude)° \(longitude)°: \(atPole) vs \(beside)")
                #expect(abs(atPole.declinationDegrees - beside.declinationDegrees) < 1e-4)
                // The field points down in the north and up in the south.
                #expect(atPole.down * sign > 30_000)
            }
        }
        // Every meridian sees the same horizontal vector: H and Z do not depend on longitude,
        // and the declination turns with the meridian, one degree per degree.
        let reference = try model.field(latitude: latitude, longitude: 0, heightKilometers: 0, decimalYear: 2026)
        for longitude in [-120.0, 45, 200] {
            let field = try model.field(latitude: latitude, longitude: longitude, heightKilometers: 0, decimalYear: 2026)
            #expect(abs(field.horizontal - reference.horizontal) < 1e-6 && abs(field.down - reference.down) < 1e-6)
            var turn = field.declinationDegrees - reference.declinationDegrees - sign * longitude
            turn -= 360 * (turn / 360).rounded()
            #expect(abs(turn) < 1e-9, "\(latitude)° \(longitude)°: declination turned by \(turn)° more than the meridian")
        }
    }

    @Test func datesOutsideTheModelsValidityAreRefused() throws {
        #expect(model.validFrom == 2025.0 && model.validUntil == 2030.0)
        _ = try model.field(latitude: 40, longitude: -105, heightKilometers: 1.6, decimalYear: 2025.0)
        _ = try model.field(latitude: 40, longitude: -105, heightKilometers: 1.6, decimalYear: 2030.0)
        for year in [2024.999, 2030.001, 2020.0, 2035.0, .nan, .infinity] {
            #expect(throws: GeomagneticError.self) {
                try model.field(latitude: 40, longitude: -105, heightKilometers: 1.6, decimalYear: year)
            }
        }
        #expect(throws: GeomagneticError.dateOutsideValidity(decimalYear: 2030.5, validFrom: 2025, validUntil: 2030)) {
            try model.field(latitude: 40, longitude: -105, heightKilometers: 1.6, decimalYear: 2030.5)
        }
    }

    @Test func positionsOutsideTheirRangesAreRefused() {
        #expect(throws: GeomagneticError.latitudeOutOfRange(degrees: 90.5)) {
            try model.field(latitude: 90.5, longitude: 0, heightKilometers: 0, decimalYear: 2026)
        }
        #expect(throws: GeomagneticError.longitudeOutOfRange(degrees: 400)) {
            try model.field(latitude: 0, longitude: 400, heightKilometers: 0, decimalYear: 2026)
        }
        #expect(throws: GeomagneticError.heightOutOfRange(kilometers: 900)) {
            try model.field(latitude: 0, longitude: 0, heightKilometers: 900, decimalYear: 2026)
        }
        #expect(throws: GeomagneticError.heightOutOfRange(kilometers: -2)) {
            try model.field(latitude: 0, longitude: 0, heightKilometers: -2, decimalYear: 2026)
        }
        #expect(throws: GeomagneticError.self) {
            try model.field(latitude: .nan, longitude: 0, heightKilometers: 0, decimalYear: 2026)
        }
    }

    @Test func longitudesOneTurnApartGiveTheSameField() throws {
        let east = try model.field(latitude: -33.9, longitude: 151.2, heightKilometers: 0.05, decimalYear: 2026.4)
        let west = try model.field(latitude: -33.9, longitude: 151.2 - 360, heightKilometers: 0.05, decimalYear: 2026.4)
        #expect(abs(east.north - west.north) < 1e-6 && abs(east.east - west.east) < 1e-6 && abs(east.down - west.down) < 1e-6)
    }

    @Test func decimalYearIsDayOfYearMinusOneOverTheYearsLength() throws {
        #expect(try WorldMagneticModel.decimalYear(year: 2025, month: 1, day: 1) == 2025.0)
        #expect(try WorldMagneticModel.decimalYear(year: 2025, month: 7, day: 2) == 2025 + 182.0 / 365)
        #expect(try WorldMagneticModel.decimalYear(year: 2028, month: 12, day: 31) == 2028 + 365.0 / 366)
        #expect(try WorldMagneticModel.decimalYear(year: 2028, month: 3, day: 1) == 2028 + 60.0 / 366)
        #expect(try WorldMagneticModel.decimalYear(year: 2029, month: 3, day: 1) == 2029 + 59.0 / 365)
        #expect(throws: GeomagneticError.invalidDate(year: 2027, month: 2, day: 29)) {
            try WorldMagneticModel.decimalYear(year: 2027, month: 2, day: 29)
        }
        #expect(throws: GeomagneticError.invalidDate(year: 2027, month: 13, day: 1)) {
            try WorldMagneticModel.decimalYear(year: 2027, month: 13, day: 1)
        }
    }

    @Test func coefficientsAreTheWholeDegree12Model() {
        #expect(WorldMagneticModel.wmm2025Coefficients.count == 90)
        #expect("\(WorldMagneticModel.wmm2025.name)" == "WMM-2025")
        #expect(model.g[WorldMagneticModel.index(1, 0)] == -29351.8)
        #expect(model.hDot[WorldMagneticModel.index(12, 12)] == -0.1)
    }
}
