/// The main geomagnetic field at one place and time as the World Magnetic Model gives it, in the
/// local geodetic frame: north and east along the WGS-84 ellipsoid's surface, down along its
/// normal (not towards the Earth's centre).
///
/// Signs follow the WMM report: declination is positive when magnetic north lies east of true
/// north, so true heading = magnetic heading + declination; inclination is positive when the field
/// points below the horizontal (northern magnetic hemisphere).
public struct GeomagneticField: Sendable, BitwiseCopyable, Equatable {
    /// X, northward component in nanotesla.
    public var north: Double
    /// Y, eastward component in nanotesla.
    public var east: Double
    /// Z, downward component in nanotesla.
    public var down: Double
    /// H = √(X² + Y²), horizontal intensity in nanotesla.
    public var horizontal: Double
    /// F = √(H² + Z²), total intensity in nanotesla.
    public var total: Double
    /// I = atan2(Z, H), dip below the horizontal in degrees, −90…90.
    public var inclinationDegrees: Double
    /// D = atan2(Y, X), magnetic north's angle east of true north in degrees, −180…180.
    public var declinationDegrees: Double

    /// The field from its north, east and down components (nT); the rest is derived.
    public init(north: Double, east: Double, down: Double) {
        self.north = north
        self.east = east
        self.down = down
        horizontal = (north * north + east * east).squareRoot()
        total = (horizontal * horizontal + down * down).squareRoot()
        inclinationDegrees = arctangent2Degrees(y: down, x: horizontal)
        declinationDegrees = arctangent2Degrees(y: east, x: north)
    }
}
