public import Geomagnetism
import Glibc

/// Where the system's board is, for the true-north frame (`xTrueNorthZVertical`): Core Motion
/// knows the phone's place from Location Services; a board is told once, in the configuration
/// file `/etc/opencoremotion/location` (`OPENCOREMOTION_CONFIG_DIR` replaces the folder, as for
/// the board file, `SystemBoard`):
///
/// ```
/// latitude = 52.51      # degrees north
/// longitude = 13.32     # degrees east
/// altitude = 35         # metres above sea level (optional; 0)
/// ```
///
/// Magnetic north's declination there comes from the World Magnetic Model (WMM2025, valid
/// 2025–2029) at the date the stream starts. Without the file, true north is not available
/// (Core Motion's `CMErrorTrueNorthNotAvailable`) unless the program sets the declination.
public struct SystemLocation: Sendable, Equatable {
    /// Degrees north, −90…90.
    public var latitude: Double
    /// Degrees east, −180…180.
    public var longitude: Double
    /// Metres above sea level.
    public var altitudeMeters: Double

    public init(latitude: Double, longitude: Double, altitudeMeters: Double = 0) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeMeters = altitudeMeters
    }

    /// The configuration file: `OPENCOREMOTION_CONFIG_DIR/location` or `/etc/opencoremotion/location`.
    public static func configurationFile(environment: (String) -> String? = SystemBoard.environment) -> String {
        (environment(SystemBoard.configurationFolderVariable).flatMap { $0.isEmpty ? nil : $0 } ?? SystemBoard.defaultConfigurationFolder) + "/location"
    }

    /// The system's location, nil when the file does not exist; a malformed file is an error
    /// naming its line.
    public static func load(path: String = configurationFile()) throws(EngineError) -> SystemLocation? {
        var latitude: Double?, longitude: Double?, altitude = 0.0
        let found = try readSettingsLines(path: path) { line throws(SettingsLineError) in
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            guard content.contains(where: { !$0.isWhitespace }) else { return }
            let parts = content.split(separator: "=", maxSplits: 1).map { $0.filter { !$0.isWhitespace } }
            guard parts.count == 2, let value = Double(parts[1]), value.isFinite else {
                throw SettingsLineError(problem: "expected \"latitude = DEGREES\", \"longitude = DEGREES\" or \"altitude = METRES\", found \"\(content)\"")
            }
            switch parts[0] {
            case "latitude":
                guard abs(value) <= 90 else { throw SettingsLineError(problem: "latitude \(value) is outside −90…90 degrees north") }
                latitude = value
            case "longitude":
                guard abs(value) <= 180 else { throw SettingsLineError(problem: "longitude \(value) is outside −180…180 degrees east") }
                longitude = value
            case "altitude":
                guard abs(value) <= 10_000 else { throw SettingsLineError(problem: "altitude \(value) m is not on the Earth's surface") }
                altitude = value
            default:
                throw SettingsLineError(problem: "unknown key \"\(parts[0])\" (known: latitude, longitude, altitude)")
            }
        }
        guard found else { return nil }
        guard let latitude, let longitude else {
            throw .calibration(path: path, line: nil, problem: "needs both latitude and longitude (degrees north and east)")
        }
        return SystemLocation(latitude: latitude, longitude: longitude, altitudeMeters: altitude)
    }

    /// Magnetic north's declination here (degrees east of true north) at `unixSeconds` (UTC),
    /// by WMM2025; an error outside the model's years.
    public func declination(atUnixSeconds unixSeconds: Int) throws(GeomagneticError) -> Double {
        var time = time_t(unixSeconds), parts = tm()
        gmtime_r(&time, &parts)
        let year = try WorldMagneticModel.decimalYear(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
        return try WorldMagneticModel.wmm2025.field(latitude: latitude, longitude: longitude, heightKilometers: altitudeMeters / 1000,
                                                    decimalYear: year).declinationDegrees
    }
}
