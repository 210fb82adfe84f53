/// Why the World Magnetic Model refused an input. Each case names the accepted range so the caller
/// can say what to change in the configuration.
public enum GeomagneticError: Error, Equatable, Sendable {
    /// The date lies outside the model's validity (WMM2025: 2025.0 through 2030.0). The secular
    /// variation is a straight-line forecast that NOAA vouches for only within those five years:
    /// use the model that covers the date (after 2030, the WMM2030 coefficients).
    case dateOutsideValidity(decimalYear: Double, validFrom: Double, validUntil: Double)
    /// Latitude must be a finite geodetic latitude in degrees, −90…90 (north positive).
    case latitudeOutOfRange(degrees: Double)
    /// Longitude must be finite and within −360…360 degrees (east positive).
    case longitudeOutOfRange(degrees: Double)
    /// Height must be finite and within the model's −1…850 km above the WGS-84 ellipsoid (not
    /// above sea level; the two differ by up to about 100 m, which changes nothing at this scale).
    case heightOutOfRange(kilometers: Double)
    /// A calendar date that does not exist (month 1…12, day 1…length of the month).
    case invalidDate(year: Int, month: Int, day: Int)
}
