import Foundation
import MotionEngine

/// `motionctl calibrate magnetometer`: hard and soft iron from the board turned every way.
extension Calibrate {
    /// What goes to the calibration file: offset (µT), its 1σ uncertainty (µT) and the soft-iron
    /// matrix (nil: hard iron only).
    struct MagnetometerResult {
        var offset: [Double]
        var uncertainty: Double
        var softIron: [Double]?
        /// The raw samples kept (µT, device axes, at most 20 a second) and the share of the 14
        /// directions seen: what `--plot` draws.
        var samples: [(Double, Double, Double)] = []
        var coverage: Double = 0
    }

    /// The online calibration run until it has seen the field from every side (14 directions:
    /// the 6 axes and 8 diagonals, each within 35° of a sample) and knows the offset to 1 µT;
    /// meanwhile raw samples are kept (at most 20 a second) for the ellipsoid fit of hard and
    /// soft iron (`MagnetometerEllipsoidFit`), which replaces the online filter's hard-iron-only
    /// offset when the coverage is nearly complete.
    func measureMagnetometer(_ runtime: BoardRuntime) throws -> MagnetometerResult {
        var estimator = DeviceMotionEstimator(frame: .xMagneticNorthZVertical)
        let directions: [(Double, Double, Double)] = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
            + [(1, 1, 1), (1, 1, -1), (1, -1, 1), (1, -1, -1), (-1, 1, 1), (-1, 1, -1), (-1, -1, 1), (-1, -1, -1)].map { d in
                let n = 3.0.squareRoot()
                return (d.0 / n, d.1 / n, d.2 / n)
            }
        var seen = [Bool](repeating: false, count: directions.count)
        var samples: [(Double, Double, Double)] = []
        var lastKept: Int64?
        var nextLine: Int64 = 0
        var done = false
        let end = playback.duration.map { Int64($0 * 1e9) } ?? 120_000_000_000
        while !done && !runtime.isFinished && runtime.nowNanoseconds < end - 1 {
            try runtime.step(notAfter: end - 1) { reading in
                if case .magneticField(let raw) = reading.value {
                    if lastKept.map({ reading.timestampNanoseconds - $0 >= 50_000_000 }) ?? true {
                        samples.append((raw.x.doubleValue, raw.y.doubleValue, raw.z.doubleValue))
                        lastKept = reading.timestampNanoseconds
                    }
                    let offset = estimator.filter.magnetometerOffset
                    let field = (raw.x.doubleValue - offset.x.doubleValue, raw.y.doubleValue - offset.y.doubleValue, raw.z.doubleValue - offset.z.doubleValue)
                    let norm = (field.0 * field.0 + field.1 * field.1 + field.2 * field.2).squareRoot()
                    if norm > 1 {
                        for (index, d) in directions.enumerated() where (field.0 * d.0 + field.1 * d.1 + field.2 * d.2) / norm > 0.82 { seen[index] = true }
                    }
                }
                _ = estimator.update(reading)
            }
            let coverage = Double(seen.filter { $0 }.count) / Double(seen.count)
            let uncertainty = estimator.filter.magnetometerOffsetUncertainty
            if runtime.nowNanoseconds >= nextLine {
                nextLine = runtime.nowNanoseconds + 1_000_000_000
                let o = estimator.filter.magnetometerOffset
                print(String(format: "%6.1f s  coverage %3.0f %%  offset %7.2f %7.2f %7.2f µT  ± %.2f µT", Double(runtime.nowNanoseconds) / 1e9,
                             coverage * 100, o.x.doubleValue, o.y.doubleValue, o.z.doubleValue, uncertainty))
            }
            done = coverage >= 1 && uncertainty < 1
        }
        let coverage = Double(seen.filter { $0 }.count) / Double(seen.count)
        let uncertainty = estimator.filter.magnetometerOffsetUncertainty
        guard uncertainty < 3 else {
            throw CalibrationFailure(description: String(format: "the offset is only known to ± %.1f µT (coverage %.0f %%): turn the board through more orientations and run again", uncertainty, coverage * 100))
        }
        // Quality: 100 with full coverage and ≤ 0.5 µT, falling with either.
        let quality = Int((coverage * min(1, 0.5 / max(uncertainty, 0.5)) * 100).rounded())
        let o = estimator.filter.magnetometerOffset
        print(String(format: "hard iron (online filter): offset %.2f %.2f %.2f µT ± %.2f µT, coverage %.0f %%, quality %d/100",
                     o.x.doubleValue, o.y.doubleValue, o.z.doubleValue, uncertainty, coverage * 100, quality))
        let hardIronOnly = MagnetometerResult(offset: [o.x.doubleValue, o.y.doubleValue, o.z.doubleValue], uncertainty: uncertainty, softIron: nil,
                                              samples: samples, coverage: coverage)
        // An ellipsoid needs nearly every side: with a large part of the sphere missing, its
        // shape is a guess. 12 of the 14 directions leave no gap wider than about 70°.
        guard coverage >= 12.0 / 14 else {
            print(String(format: "soft iron: not fitted (coverage %.0f %%, at least 86 %% needed): stored hard iron only", coverage * 100))
            return hardIronOnly
        }
        guard let fit = MagnetometerEllipsoidFit.fit(samples) else {
            print("soft iron: the \(samples.count) samples do not fit a plausible ellipsoid (axis ratio within \(MagnetometerEllipsoidFit.largestAxisRatio)): stored hard iron only")
            return hardIronOnly
        }
        let s = fit.softIron
        print(String(format: "hard and soft iron (ellipsoid, %d samples): offset %.2f %.2f %.2f µT, soft iron %.4f %.4f %.4f %.4f %.4f %.4f (xx yy zz xy xz yz)",
                     samples.count, fit.offset[0], fit.offset[1], fit.offset[2], s[0], s[1], s[2], s[3], s[4], s[5]))
        print(String(format: "field %.1f µT, axis ratio %.3f, residual %.2f µT RMS (a sphere, hard iron only: %.2f µT)",
                     fit.fieldStrength, fit.axisRatio, fit.residual, fit.sphereResidual))
        return MagnetometerResult(offset: fit.offset, uncertainty: uncertainty, softIron: fit.softIron, samples: samples, coverage: coverage)
    }
}
