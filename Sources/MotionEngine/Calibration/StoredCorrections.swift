import FixedPoint
import MotionAlgorithms

/// The stored accelerometer calibration as the per-sample path applies it (Q32.32, no
/// allocation): calibrated = scale ⊙ (raw − offset).
struct AccelerometerCorrection: Sendable {
    /// m/s², Q32.32.
    let offset: FusionVector<Q32_32>
    /// Factor, Q32.32.
    let scale: FusionVector<Q32_32>

    /// Nil when the file stores neither an offset nor a scale (nothing to apply).
    init?(_ calibration: BoardCalibration?) {
        guard let calibration, calibration.accelerometerOffset != nil || calibration.accelerometerScale != nil else { return nil }
        offset = Self.vector(calibration.accelerometerOffset ?? [0, 0, 0])
        scale = Self.vector(calibration.accelerometerScale ?? [1, 1, 1])
    }

    func apply(_ raw: FusionVector<Q32_32>) -> FusionVector<Q32_32> {
        let d = raw - offset
        return FusionVector(x: d.x * scale.x, y: d.y * scale.y, z: d.z * scale.z)
    }

    static func vector(_ values: [Double]) -> FusionVector<Q32_32> {
        FusionVector(x: Q32_32(values[0]), y: Q32_32(values[1]), z: Q32_32(values[2]))
    }
}

/// The stored soft iron as the per-sample path applies it (Q32.32, no allocation), around the
/// stored hard-iron offset b:
///     corrected = b + S (raw − b).
/// The online calibration then sees a magnetometer with hard iron only, at the offset it starts
/// from (b): S reshapes the ellipsoid into a sphere and leaves the offset where the online
/// calibration expects it, and it goes on tracking a drifting offset as before.
struct SoftIronCorrection: Sendable {
    /// b, µT, Q32.32.
    let center: FusionVector<Q32_32>
    /// The rows of S, factor, Q32.32.
    let rows: (FusionVector<Q32_32>, FusionVector<Q32_32>, FusionVector<Q32_32>)
    /// b in Double and the rows of S⁻¹, for converting a learned offset back (not per sample;
    /// tuples, not arrays: the per-sample path carries no reference-counted storage).
    private let centerValues: (Double, Double, Double)
    private let inverseRows: ((Double, Double, Double), (Double, Double, Double), (Double, Double, Double))

    /// Nil when the file stores no soft iron (or a singular one, which `BoardCalibration`'s
    /// limits and the fit's determinant of 1 make impossible in practice).
    init?(_ calibration: BoardCalibration?) {
        guard let entries = calibration?.magnetometerSoftIron, let inverse = Matrix3(symmetric: entries).inverse else { return nil }
        let s = Matrix3(symmetric: entries)
        let b = calibration?.magnetometerOffset ?? [0, 0, 0]
        centerValues = (b[0], b[1], b[2])
        center = AccelerometerCorrection.vector(b)
        rows = (AccelerometerCorrection.vector([s[0, 0], s[0, 1], s[0, 2]]), AccelerometerCorrection.vector([s[1, 0], s[1, 1], s[1, 2]]),
                AccelerometerCorrection.vector([s[2, 0], s[2, 1], s[2, 2]]))
        inverseRows = ((inverse[0, 0], inverse[0, 1], inverse[0, 2]), (inverse[1, 0], inverse[1, 1], inverse[1, 2]),
                       (inverse[2, 0], inverse[2, 1], inverse[2, 2]))
    }

    @inline(__always)  // per sample: read in place, not copied for a call
    func apply(_ raw: FusionVector<Q32_32>) -> FusionVector<Q32_32> {
        let d = raw - center
        return center + FusionVector(x: rows.0.dot(d), y: rows.1.dot(d), z: rows.2.dot(d))
    }

    /// The raw-sample offset (µT) matching an offset `learned` by the online calibration on
    /// corrected samples: corrected = b + S (raw − b) has its offset at b + S (o − b) when raw
    /// has it at o, so o = b + S⁻¹ (learned − b).
    func rawOffset(learned: [Double]) -> [Double] {
        let b = centerValues
        let d = (learned[0] - b.0, learned[1] - b.1, learned[2] - b.2)
        func row(_ r: (Double, Double, Double)) -> Double { r.0 * d.0 + r.1 * d.1 + r.2 * d.2 }
        return [b.0 + row(inverseRows.0), b.1 + row(inverseRows.1), b.2 + row(inverseRows.2)]
    }
}
