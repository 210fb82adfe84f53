import Chips
import FixedPoint
import Glibc
import MotionAlgorithms
@testable import MotionEngine
import Testing
import TestSupport

/// Soft iron: an AK8963 emulator, read by the real driver, feels the synthetic tumble's field
/// through a known distortion raw = A h + b (A symmetric: soft iron; b: hard iron) with its
/// noise; the ellipsoid fit must find b and S ∝ A⁻¹, and device motion must apply them.
@Suite(.blocking) struct CalibrationMagnetometerTests {
    static let distortion = Matrix3(m: [1.10, 0.05, -0.03,
                                        0.05, 0.92, 0.04,
                                        -0.03, 0.04, 1.00])
    static let hardIron = (120.0, -60.0, 35.0)

    static func distorted(_ h: (Double, Double, Double)) -> (Double, Double, Double) {
        let a = distortion * h
        return (a.0 + hardIron.0, a.1 + hardIron.1, a.2 + hardIron.2)
    }

    /// The raw samples the driver reads over `seconds` of tumbling (every 50 ms, as `motionctl
    /// calibrate magnetometer` keeps them).
    static func rawSamples(seconds: Double) throws -> [(Double, Double, Double)] {
        let tumble = SyntheticTumble()
        var noise = EmulatedNoise(rms: 0.6, seed: 3)  // the AK8963's assumed 0.6 µT
        let emulator = AK8963Emulator(field: { nanoseconds in
            tumble.advance(to: nanoseconds)
            return noise.add(to: distorted(tumble.magneticField))
        })
        let driver = try AK8963Driver(bus: emulator)
        var samples: [(Double, Double, Double)] = []
        for step in 1...Int(seconds * 20) {
            let now = Int64(step) * 50_000_000
            emulator.advance(to: now)
            if let reading = try driver.read(nowNanoseconds: now), case .magneticField(let m) = reading.value {
                samples.append((m.x.doubleValue, m.y.doubleValue, m.z.doubleValue))
            }
        }
        return samples
    }

    @Test func theEllipsoidFitRecoversAKnownSoftIronDistortion() throws {
        let samples = try Self.rawSamples(seconds: 120)
        #expect(samples.count >= 2000)
        let fit = try #require(MagnetometerEllipsoidFit.fit(samples))
        // Offset within 0.5 µT (noise 0.6 µT per sample, 2400 samples; quantisation 0.15 µT).
        let b = [Self.hardIron.0, Self.hardIron.1, Self.hardIron.2]
        for axis in 0..<3 { #expect(abs(fit.offset[axis] - b[axis]) < 0.5, "offset \(fit.offset) vs \(b)") }
        // S = det(A)^⅓ A⁻¹ (determinant 1), each entry within 0.005.
        let expected = try #require(Self.distortion.inverse).m.map { $0 * cbrt(Self.distortion.determinant) }
        let s = Matrix3(symmetric: fit.softIron)
        for (found, wanted) in zip(s.m, expected) { #expect(abs(found - wanted) < 0.005, "S \(s.m) vs \(expected)") }
        // The field's strength (|(19, 0, −46)| = 49.8 µT) times det(A)^⅓.
        #expect(abs(fit.fieldStrength - 49.77 * cbrt(Self.distortion.determinant)) < 0.3, "\(fit.fieldStrength) µT")
        // The sphere leaves the distortion in its residual; the ellipsoid leaves the noise.
        #expect(fit.residual < 0.7 && fit.sphereResidual > 2, "ellipsoid \(fit.residual) µT, sphere \(fit.sphereResidual) µT")
        #expect(abs(fit.axisRatio - 1.24) < 0.05, "axis ratio \(fit.axisRatio)")
    }

    @Test func tooFewOrientationsFitNoEllipsoid() throws {
        // Turning about z only: a ring of samples determines no ellipsoid.
        let ring = (0..<200).map { i -> (Double, Double, Double) in
            let angle = Double(i) * 2 * .pi / 200
            return (20 * cos(angle) + 10, 20 * sin(angle), -40)
        }
        #expect(MagnetometerEllipsoidFit.fit(ring) == nil)
        #expect(MagnetometerEllipsoidFit.fit(Array(ring.prefix(10))) == nil)
    }

    @Test func deviceMotionAppliesTheSoftIron() throws {
        // Readings of the tumble at 100 Hz with the distorted field: the calibrated field's
        // strength should stay constant once soft iron is applied.
        let tumble = SyntheticTumble()
        var readings: [SensorReading] = []
        func vector(_ v: (Double, Double, Double)) -> Vector3 { Vector3(x: Q16_16(v.0), y: Q16_16(v.1), z: Q16_16(v.2)) }
        for step in 1...6000 {
            let time = Int64(step) * 10_000_000
            tumble.advance(to: time)
            readings.append(SensorReading(timestampNanoseconds: time, value: .acceleration(vector(tumble.acceleration))))
            readings.append(SensorReading(timestampNanoseconds: time, value: .magneticField(vector(Self.distorted(tumble.magneticField)))))
            readings.append(SensorReading(timestampNanoseconds: time, value: .angularVelocity(vector(tumble.angularVelocity))))
        }
        func fieldStrengthSpread(_ calibration: BoardCalibration) -> Double {
            var estimator = DeviceMotionEstimator(frame: .xMagneticNorthZVertical, calibration: calibration)
            var strengths: [Double] = []
            for reading in readings {
                guard let motion = estimator.process(reading), reading.timestampNanoseconds > 10_000_000_000 else { continue }
                let m = motion.magneticField
                strengths.append((m.x.doubleValue * m.x.doubleValue + m.y.doubleValue * m.y.doubleValue + m.z.doubleValue * m.z.doubleValue).squareRoot())
            }
            return strengths.max()! - strengths.min()!
        }
        let b = [Self.hardIron.0, Self.hardIron.1, Self.hardIron.2]
        let s = try #require(Self.distortion.inverse).m.map { $0 * cbrt(Self.distortion.determinant) }
        let hardOnly = fieldStrengthSpread(BoardCalibration(magnetometerOffset: b))
        let both = fieldStrengthSpread(BoardCalibration(magnetometerOffset: b, magnetometerSoftIron: Matrix3(m: s).symmetricEntries))
        #expect(hardOnly > 8 && both < 0.5, "field strength varies by \(hardOnly) µT with hard iron only, \(both) µT with soft iron")
    }

    @Test func aLearnedOffsetConvertsBackToRawSamples() throws {
        // corrected = b + S (raw − b): a raw offset o shows as b + S (o − b) after correction.
        let s = Matrix3(symmetric: [1.1, 0.9, 1.0, 0.05, -0.02, 0.03])
        let correction = try #require(SoftIronCorrection(BoardCalibration(magnetometerOffset: [100, -50, 20], magnetometerSoftIron: s.symmetricEntries)))
        let shown = s * (110 - 100.0, -45 - -50.0, 18 - 20.0)
        let raw = correction.rawOffset(learned: [100 + shown.0, -50 + shown.1, 20 + shown.2])
        for (found, wanted) in zip(raw, [110.0, -45, 18]) { #expect(abs(found - wanted) < 1e-9) }
    }

    @Test func symmetricEigenAndSquareRoot() {
        let a = Matrix3(symmetric: [4, 3, 2, 0.5, -0.25, 0.75])
        let root = a.symmetricFunction { $0.squareRoot() }
        let square = root * root
        for (x, y) in zip(square.m, a.m) { #expect(abs(x - y) < 1e-12) }
        let (values, vectors) = a.symmetricEigen
        for k in 0..<3 {
            let v = (vectors[0, k], vectors[1, k], vectors[2, k])
            let av = a * v
            #expect(abs(av.0 - values[k] * v.0) < 1e-12 && abs(av.1 - values[k] * v.1) < 1e-12 && abs(av.2 - values[k] * v.2) < 1e-12)
        }
    }
}
