// Geomagnetism: the World Magnetic Model (WMM), the declination that turns magnetic north into
// true north for Core Motion's `xTrueNorthZVertical` frame.
//
// The evaluation follows the equations of NOAA/BGS's "The US/UK World Magnetic Model for
// 2025–2030" technical report, section 1.2: time-adjusted Gauss coefficients, geodetic → geocentric
// coordinates on WGS-84, Schmidt semi-normalised associated Legendre functions, the field in
// geocentric spherical components, then rotated into the geodetic (ellipsoidal) frame.
// Standard library only (no Foundation, no Glibc): Double arithmetic with the helpers in
// ElementaryFunctions.swift. It runs once when a location or date is configured, not per sample.

/// A spherical-harmonic main-field model of degree 12 with linear secular variation, as published
/// in NOAA's WMM.COF files.
public struct WorldMagneticModel: Sendable {
    /// The World Magnetic Model 2025 (epoch 2025.0, valid 2025.0 through 2030.0).
    public static let wmm2025 = WorldMagneticModel(
        name: wmm2025Name, epoch: wmm2025Epoch, validUntil: wmm2025Epoch + 5, coefficients: wmm2025Coefficients)

    /// The model's name as its coefficient file gives it, e.g. "WMM-2025".
    public let name: StaticString
    /// First decimal year of validity: the coefficients' epoch t₀.
    public let validFrom: Double
    /// Last decimal year of validity (inclusive), t₀ + 5 for the WMM.
    public let validUntil: Double

    /// The highest degree n of the expansion.
    static let maximumDegree = 12
    /// The WMM's geomagnetic reference radius a in km (mean Earth radius, not WGS-84's).
    static let referenceRadiusKilometers = 6371.2
    /// WGS-84 semi-major axis A in km and flattening f.
    static let wgs84SemiMajorAxisKilometers = 6378.137
    static let wgs84Flattening = 1 / 298.257_223_563
    /// Below this |cos φ′| the east component uses the pole formula (see `field`).
    static let poleCosineThreshold = 1e-10

    /// gₙᵐ, hₙᵐ (nT) at the epoch and ġₙᵐ, ḣₙᵐ (nT/year), at `index(n, m)`.
    let g: [Double], h: [Double], gDot: [Double], hDot: [Double]

    /// A model from coefficients for n = 1…12, m = 0…n in any order (a missing one is zero).
    /// `validUntil` is the last decimal year the model may be evaluated at.
    public init(name: StaticString, epoch: Double, validUntil: Double,
                coefficients: [(n: Int, m: Int, g: Double, h: Double, gDot: Double, hDot: Double)]) {
        self.name = name
        validFrom = epoch
        self.validUntil = validUntil
        let count = Self.index(Self.maximumDegree, Self.maximumDegree) + 1
        var g = [Double](repeating: 0, count: count), h = g, gDot = g, hDot = g
        for row in coefficients {
            precondition((1...Self.maximumDegree).contains(row.n) && (0...row.n).contains(row.m),
                         "WMM coefficient with n outside 1...12 or m outside 0...n")
            let i = Self.index(row.n, row.m)
            (g[i], h[i], gDot[i], hDot[i]) = (row.g, row.h, row.gDot, row.hDot)
        }
        (self.g, self.h, self.gDot, self.hDot) = (g, h, gDot, hDot)
    }

    /// Position of (n, m) in the triangular coefficient and Legendre arrays.
    @inline(__always)
    static func index(_ n: Int, _ m: Int) -> Int { n * (n + 1) / 2 + m }

    /// The field at a geodetic position and date.
    ///
    /// - Parameters:
    ///   - latitude: geodetic (GPS) latitude in degrees, −90…90, north positive.
    ///   - longitude: degrees, −360…360, east positive.
    ///   - heightKilometers: height above the WGS-84 ellipsoid in km, −1…850 (GPS height; mean sea
    ///     level is within ±0.1 km of it).
    ///   - decimalYear: e.g. from ``decimalYear(year:month:day:)``; `validFrom...validUntil`.
    /// - Throws: ``GeomagneticError`` naming the input outside its range.
    public func field(latitude: Double, longitude: Double, heightKilometers: Double,
                      decimalYear: Double) throws(GeomagneticError) -> GeomagneticField {
        // The negated forms also reject NaN.
        guard latitude >= -90 && latitude <= 90 else { throw .latitudeOutOfRange(degrees: latitude) }
        guard longitude >= -360 && longitude <= 360 else { throw .longitudeOutOfRange(degrees: longitude) }
        guard heightKilometers >= -1 && heightKilometers <= 850 else {
            throw .heightOutOfRange(kilometers: heightKilometers)
        }
        guard decimalYear >= validFrom && decimalYear <= validUntil else {
            throw .dateOutsideValidity(decimalYear: decimalYear, validFrom: validFrom, validUntil: validUntil)
        }

        // Geodetic → geocentric spherical (report eq. 7): only sin and cos of the geocentric
        // latitude φ′ are needed, and at the poles cos φ′ comes out exactly 0 (sineCosine is exact
        // at ±90°), which selects the pole formula below.
        let (sinLatitude, cosLatitude) = sineCosine(degrees: latitude)
        let e2 = Self.wgs84Flattening * (2 - Self.wgs84Flattening)
        let primeVerticalRadius = Self.wgs84SemiMajorAxisKilometers / (1 - e2 * sinLatitude * sinLatitude).squareRoot()
        let p = (primeVerticalRadius + heightKilometers) * cosLatitude
        let z = (primeVerticalRadius * (1 - e2) + heightKilometers) * sinLatitude
        let r = (p * p + z * z).squareRoot()
        let sinGeocentric = z / r, cosGeocentric = p / r

        // Schmidt semi-normalised P̆ₙᵐ(sin φ′) and their derivatives d/dφ′ (report eqs. 5–6,
        // computed by the standard recursions in n and along the diagonal).
        let (legendre, legendreDerivative) = Self.schmidtLegendre(sine: sinGeocentric, cosine: cosGeocentric)

        // Field in geocentric components (report eq. 10): X′ north, Y′ east, Z′ towards the centre.
        let years = decimalYear - validFrom
        var cosMLongitude = [Double](repeating: 0, count: Self.maximumDegree + 1), sinMLongitude = cosMLongitude
        for m in 0...Self.maximumDegree {
            (sinMLongitude[m], cosMLongitude[m]) = sineCosine(degrees: Double(m) * longitude)
        }
        let ratio = Self.referenceRadiusKilometers / r
        var radialFactor = ratio * ratio  // (a/r)ⁿ⁺², advanced at the start of each degree
        var xPrime = 0.0, yPrime = 0.0, zPrime = 0.0, yPrimePole = 0.0
        var poleFactorPrevious = 0.0, poleFactor = 1.0  // P̆ₙ¹/cos φ′ for n − 1 and n, from n = 1
        for n in 1...Self.maximumDegree {
            radialFactor *= ratio
            for m in 0...n {
                let i = Self.index(n, m)
                let gNow = g[i] + years * gDot[i], hNow = h[i] + years * hDot[i]
                let inPhase = gNow * cosMLongitude[m] + hNow * sinMLongitude[m]
                xPrime -= radialFactor * inPhase * legendreDerivative[i]
                yPrime += radialFactor * Double(m) * (gNow * sinMLongitude[m] - hNow * cosMLongitude[m]) * legendre[i]
                zPrime -= Double(n + 1) * radialFactor * inPhase * legendre[i]
            }
            // At a pole Y′'s 1/cos φ′ meets P̆ₙᵐ = 0: only m = 1 has a finite limit. The report
            // evaluates it with P̆ₙ¹/cos φ′ from its own recursion (the m = 1 recursion divided
            // through by cos φ′), valid at sin φ′ = ±1.
            if n > 1 {
                let nn = Double(n)
                let next = ((2 * nn - 1) * sinGeocentric * poleFactor
                            - ((nn - 1) * (nn - 1) - 1).squareRoot() * poleFactorPrevious) / (nn * nn - 1).squareRoot()
                (poleFactorPrevious, poleFactor) = (poleFactor, next)
            }
            let i = Self.index(n, 1)
            let gNow = g[i] + years * gDot[i], hNow = h[i] + years * hDot[i]
            yPrimePole += radialFactor * (gNow * sinMLongitude[1] - hNow * cosMLongitude[1]) * poleFactor
        }
        yPrime = cosGeocentric > Self.poleCosineThreshold ? yPrime / cosGeocentric : yPrimePole

        // Rotate by φ′ − φ from geocentric into geodetic components (report eq. 17).
        let cosDifference = cosGeocentric * cosLatitude + sinGeocentric * sinLatitude
        let sinDifference = sinGeocentric * cosLatitude - cosGeocentric * sinLatitude
        return GeomagneticField(
            north: xPrime * cosDifference - zPrime * sinDifference,
            east: yPrime,
            down: xPrime * sinDifference + zPrime * cosDifference)
    }

    /// P̆ₙᵐ(sin φ′) and dP̆ₙᵐ/dφ′ for n = 0…12, m = 0…n, at `index(n, m)`.
    ///
    /// Diagonal: P̆₁¹ = cos φ′, P̆ₘᵐ = √((2m − 1)/2m) cos φ′ P̆ₘ₋₁ᵐ⁻¹; then for n > m,
    /// P̆ₙᵐ = ((2n − 1) sin φ′ P̆ₙ₋₁ᵐ − √((n − 1)² − m²) P̆ₙ₋₂ᵐ) / √(n² − m²). The derivatives
    /// follow by differentiating the same recursions (d sin φ′ = cos φ′, d cos φ′ = −sin φ′), so
    /// nothing divides by cos φ′ and the poles need no special case here.
    static func schmidtLegendre(sine: Double, cosine: Double) -> (values: [Double], derivatives: [Double]) {
        let count = index(maximumDegree, maximumDegree) + 1
        var p = [Double](repeating: 0, count: count), dp = p
        p[0] = 1
        for m in 1...maximumDegree {
            let scale = m == 1 ? 1 : (Double(2 * m - 1) / Double(2 * m)).squareRoot()
            let previous = index(m - 1, m - 1)
            p[index(m, m)] = scale * cosine * p[previous]
            dp[index(m, m)] = scale * (cosine * dp[previous] - sine * p[previous])
        }
        for m in 0..<maximumDegree {
            for n in (m + 1)...maximumDegree {
                let nn = Double(n), mm = Double(m)
                let twoBack = n - 2 >= m ? index(n - 2, m) : -1
                let back = index(n - 1, m)
                let weightTwoBack = ((nn - 1) * (nn - 1) - mm * mm).squareRoot()
                let divisor = (nn * nn - mm * mm).squareRoot()
                let pTwoBack = twoBack >= 0 ? p[twoBack] : 0, dpTwoBack = twoBack >= 0 ? dp[twoBack] : 0
                p[index(n, m)] = ((2 * nn - 1) * sine * p[back] - weightTwoBack * pTwoBack) / divisor
                dp[index(n, m)] = ((2 * nn - 1) * (cosine * p[back] + sine * dp[back]) - weightTwoBack * dpTwoBack) / divisor
            }
        }
        return (p, dp)
    }
}
