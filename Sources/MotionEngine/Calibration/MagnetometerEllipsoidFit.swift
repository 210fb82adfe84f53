import Glibc

/// The magnetometer's hard and soft iron from raw samples taken while the board turned
/// through every orientation: an ellipsoid fit.
///
/// Iron near the sensor adds a constant field (hard iron, the offset b) and distorts the Earth's
/// field by a matrix (soft iron: magnetisable material bends the field lines), so raw samples
/// m = A h + b of a constant field h lie on an ellipsoid instead of a sphere about b. The fit
/// finds the quadric (m − b)ᵀ Q (m − b) = 1 through them (linear least squares in its nine
/// coefficients) and turns it into the correction
///     calibrated = S (m − b),   S = r Q^½ (symmetric),
/// with r = det(Q)^(−1/6), the geometric mean of the ellipsoid's semi-axes: S reshapes the
/// ellipsoid into a sphere of the same volume (det S = 1), so calibrated fields stay in µT of
/// about the Earth's strength. A symmetric S cannot undo a rotation in A, which is harmless: a
/// rotation keeps the sphere a sphere, and its only effect, a fixed tilt of the measured field,
/// is the same for every orientation.
public struct MagnetometerEllipsoidFit: Sendable, Equatable {
    /// µT, device axes.
    public var offset: [Double]
    /// The soft-iron matrix S as (xx, yy, zz, xy, xz, yz), a factor.
    public var softIron: [Double]
    /// µT: the calibrated field's strength (the radius of the sphere).
    public var fieldStrength: Double
    /// RMS of ‖S (m − b)‖ − `fieldStrength` over the samples, µT: the quality figure.
    public var residual: Double
    /// The same for the best sphere (hard iron only), µT: how much the soft iron explains.
    public var sphereResidual: Double
    /// The ellipsoid's longest over shortest semi-axis (1: no soft iron).
    public var axisRatio: Double

    /// Ellipsoid ratios beyond this are not soft iron but too few orientations (a flattened
    /// cloud of samples fits a flattened ellipsoid); boards and phones measure 1.0–1.3.
    public static let largestAxisRatio = 2.0

    /// Fits the raw samples (µT, device axes); nil when they do not determine an ellipsoid (too
    /// few samples or orientations) or its shape is implausible (see `largestAxisRatio`).
    public static func fit(_ samples: [(Double, Double, Double)]) -> MagnetometerEllipsoidFit? {
        guard samples.count >= 20 else { return nil }
        // Centred on the samples' mean and scaled to about 1, so the normal equations stay well
        // conditioned whatever the offset (phones: hundreds of µT).
        let center = AccelerometerFit.mean(samples)
        let spread = (samples.map { squaredNorm(difference($0, center)) }.reduce(0, +) / Double(samples.count)).squareRoot()
        guard spread > 0 else { return nil }
        let points = samples.map { difference($0, center) }.map { ($0.0 / spread, $0.1 / spread, $0.2 / spread) }
        // a x² + b y² + c z² + 2d xy + 2e xz + 2f yz + 2g x + 2h y + 2i z = 1.
        var problem = LeastSquares(unknowns: 9)
        for p in points {
            problem.add([p.0 * p.0, p.1 * p.1, p.2 * p.2, 2 * p.0 * p.1, 2 * p.0 * p.2, 2 * p.1 * p.2, 2 * p.0, 2 * p.1, 2 * p.2], 1)
        }
        guard let k = problem.solve() else { return nil }
        let quadric = Matrix3(symmetric: [k[0], k[1], k[2], k[3], k[4], k[5]])
        guard let inverse = quadric.inverse else { return nil }
        // The centre: the gradient Q x + v vanishes, x = −Q⁻¹ v.
        let v = (k[6], k[7], k[8])
        let shift = inverse * v
        let c = (-shift.0, -shift.1, -shift.2)
        // (x − c)ᵀ Q (x − c) = 1 + cᵀ Q c.
        let qc = quadric * c
        let level = 1 + c.0 * qc.0 + c.1 * qc.1 + c.2 * qc.2
        let eigenvalues = quadric.symmetricEigen.values.map { $0 / level }
        guard level > 0, eigenvalues.allSatisfy({ $0 > 0 }) else { return nil }  // not an ellipsoid
        let semiAxes = eigenvalues.map { spread / $0.squareRoot() }  // µT
        let axisRatio = semiAxes.max()! / semiAxes.min()!
        guard axisRatio <= largestAxisRatio else { return nil }
        let radius = cbrt(semiAxes[0] * semiAxes[1] * semiAxes[2])  // µT
        // In µT: Q_µT = Q / (level spread²); S = radius Q_µT^½ (dimensionless).
        let factor = radius / (level.squareRoot() * spread)
        let softIron = quadric.symmetricFunction { $0.squareRoot() * factor }
        let offset = [center.0 + c.0 * spread, center.1 + c.1 * spread, center.2 + c.2 * spread]
        let residual = rms(samples) { m in norm(softIron * difference(m, (offset[0], offset[1], offset[2]))) - radius }
        let sphere = sphereResidual(samples)
        return MagnetometerEllipsoidFit(offset: offset, softIron: softIron.symmetricEntries, fieldStrength: radius,
                                        residual: residual, sphereResidual: sphere, axisRatio: axisRatio)
    }

    /// The RMS residual of the best sphere through the samples, µT (|m|² = 2 b·m + (R² − |b|²),
    /// linear in b and the constant).
    static func sphereResidual(_ samples: [(Double, Double, Double)]) -> Double {
        var problem = LeastSquares(unknowns: 4)
        for m in samples { problem.add([2 * m.0, 2 * m.1, 2 * m.2, 1], squaredNorm(m)) }
        guard let x = problem.solve() else { return .infinity }
        let b = (x[0], x[1], x[2])
        let radius = max(0, x[3] + squaredNorm(b)).squareRoot()
        return rms(samples) { norm(difference($0, b)) - radius }
    }

    private static func rms(_ samples: [(Double, Double, Double)], _ error: ((Double, Double, Double)) -> Double) -> Double {
        (samples.map { error($0) * error($0) }.reduce(0, +) / Double(samples.count)).squareRoot()
    }

    static func difference(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> (Double, Double, Double) {
        (a.0 - b.0, a.1 - b.1, a.2 - b.2)
    }

    static func squaredNorm(_ v: (Double, Double, Double)) -> Double { v.0 * v.0 + v.1 * v.1 + v.2 * v.2 }

    static func norm(_ v: (Double, Double, Double)) -> Double { squaredNorm(v).squareRoot() }
}
