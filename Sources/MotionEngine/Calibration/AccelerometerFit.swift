/// The accelerometer's offset and per-axis scale from still samples in the six poses:
/// calibrated = scale ⊙ (raw − offset), fitted by nonlinear least squares (Gauss–Newton) so
/// that every calibrated still sample has the magnitude of standard gravity:
///     min Σᵢ (‖scale ⊙ (rawᵢ − offset)‖ − g)².
///
/// Why the magnitude and not the poses' nominal directions: a board laid on a slightly tilted
/// table reads gravity a little off its axis, which would bias a fit to the nominal
/// directions by g·sin(tilt) (0.17 m/s² per degree); the magnitude does not depend on the
/// tilt at all. The price: the 3 × 3 misalignment (axes not quite orthogonal) is not
/// observable from six poses this way, and fitting it to the nominal directions would mostly
/// learn the table's tilt, so it is left out (MEMS cross-axis sensitivity is ±1–2 %, below
/// what a hand-placed pose resolves).
///
/// The scale absorbs the local gravity's difference from standard gravity (up to ±0.3 %
/// between the equator and the poles): Core Motion reports acceleration in g, so a still
/// device then reads exactly 1 g.
public struct AccelerometerFit: Sendable, Equatable {
    /// m/s², device axes: what the sensor reads when it feels nothing.
    public var offset: [Double]
    /// Per-axis factor, device axes.
    public var scale: [Double]
    /// RMS of ‖calibrated sample‖ − g over every sample, m/s²: the sensor's noise plus what
    /// the model cannot explain. The quality figure (a few hundredths for a good fit).
    public var residual: Double
    /// The largest |‖mean of a pose‖ − g| over the six poses, m/s², before and after: how
    /// wrong the magnitude of gravity was and is.
    public var gravityErrorBefore: Double
    public var gravityErrorAfter: Double

    /// Fits the samples of the six poses (`SixPositionPoses.samples`, m/s²); nil when a pose
    /// has no samples or the fit does not converge to a plausible result (scale outside
    /// 0.5…2: the poses were not what the collector took them for).
    public static func fit(poses: [[(Double, Double, Double)]], gravity: Double = SixPositionPoses.standardGravity) -> AccelerometerFit? {
        guard poses.count == 6, poses.allSatisfy({ !$0.isEmpty }) else { return nil }
        let means = poses.map(Self.mean)
        // The closed form of the ±g readings on each axis starts Gauss–Newton next to the answer:
        // up = g/s + o, down = −g/s + o.
        var offset = [Double](repeating: 0, count: 3), scale = [Double](repeating: 1, count: 3)
        for axis in 0..<3 {
            let up = component(means[axis * 2], axis), down = component(means[axis * 2 + 1], axis)
            guard up - down > gravity else { return nil }
            offset[axis] = (up + down) / 2
            scale[axis] = 2 * gravity / (up - down)
        }
        // Each pose weighs the same, however many samples it has.
        let weights = poses.map { 1 / Double($0.count) }
        for _ in 0..<20 {
            var problem = LeastSquares(unknowns: 6)
            for (samples, weight) in zip(poses, weights) {
                for raw in samples {
                    let d = [raw.0 - offset[0], raw.1 - offset[1], raw.2 - offset[2]]
                    let c = (0..<3).map { scale[$0] * d[$0] }
                    let norm = (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]).squareRoot()
                    guard norm > 0 else { continue }
                    let u = c.map { $0 / norm }
                    // r = ‖c‖ − g; ∂r/∂offsetₖ = −uₖ scaleₖ, ∂r/∂scaleₖ = uₖ dₖ. Solve J δ = −r.
                    let row = (0..<3).map { -u[$0] * scale[$0] } + (0..<3).map { u[$0] * d[$0] }
                    problem.add(row, gravity - norm, weight: weight)
                }
            }
            guard let step = problem.solve() else { return nil }
            for axis in 0..<3 {
                offset[axis] += step[axis]
                scale[axis] += step[3 + axis]
            }
            if step.map(abs).max()! < 1e-9 { break }
        }
        guard scale.allSatisfy({ $0 > 0.5 && $0 < 2 }), offset.allSatisfy({ abs($0) < 20 }) else { return nil }
        var squares = 0.0, count = 0.0
        for raw in poses.joined() {
            let c = (scale[0] * (raw.0 - offset[0]), scale[1] * (raw.1 - offset[1]), scale[2] * (raw.2 - offset[2]))
            squares += (norm(c) - gravity) * (norm(c) - gravity)
            count += 1
        }
        let corrected = means.map { (scale[0] * ($0.0 - offset[0]), scale[1] * ($0.1 - offset[1]), scale[2] * ($0.2 - offset[2])) }
        return AccelerometerFit(offset: offset, scale: scale, residual: (squares / count).squareRoot(),
                                gravityErrorBefore: means.map { abs(norm($0) - gravity) }.max()!,
                                gravityErrorAfter: corrected.map { abs(norm($0) - gravity) }.max()!)
    }

    /// 0…100 for people: 100 at a residual of 0.03 m/s² or less (a still MEMS accelerometer's
    /// noise), falling in proportion above it.
    public var quality: Int { Int((100 * min(1, 0.03 / max(residual, 0.03))).rounded()) }

    static func mean(_ samples: [(Double, Double, Double)]) -> (Double, Double, Double) {
        var sum = (0.0, 0.0, 0.0)
        for s in samples { sum = (sum.0 + s.0, sum.1 + s.1, sum.2 + s.2) }
        let n = Double(samples.count)
        return (sum.0 / n, sum.1 / n, sum.2 / n)
    }

    static func norm(_ v: (Double, Double, Double)) -> Double { (v.0 * v.0 + v.1 * v.1 + v.2 * v.2).squareRoot() }

    static func component(_ v: (Double, Double, Double), _ axis: Int) -> Double { axis == 0 ? v.0 : axis == 1 ? v.1 : v.2 }
}
