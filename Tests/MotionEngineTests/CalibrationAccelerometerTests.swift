import Chips
import Glibc
import FixedPoint
import MotionAlgorithms
@testable import MotionEngine
import Testing

/// The six-position accelerometer calibration against the MPU-6050's register-level emulator
/// read by the real driver: the chip feels a pose sequence (with a hand-held start, tilted
/// poses and moves between them) through a deliberately wrong accelerometer
/// (raw = gain ⊙ true + offset) and datasheet noise; the fit must find the error.
@Suite struct CalibrationAccelerometerTests {
    static let g = 9.80665
    /// The injected error: per-axis gain (the calibration's scale is its inverse) and offset, m/s².
    static let gain = (1.03, 0.97, 1.015)
    static let offset = (0.35, -0.25, 0.5)

    /// A unit vector along `pose`'s axis, tilted by `degrees` towards the next axis (a board
    /// laid on a table that is not level).
    static func direction(_ pose: SixPositionPoses.Pose, tiltDegrees degrees: Double) -> (Double, Double, Double) {
        var v = [0.0, 0.0, 0.0]
        let t = degrees * .pi / 180
        v[pose.axis] = pose.sign * cos(t)
        v[(pose.axis + 1) % 3] = sin(t)
        return (v[0], v[1], v[2])
    }

    /// What the accelerometer feels (true specific force, m/s²) at `t` seconds: 3 s held in the
    /// hand (tremor), then each pose held 4 s (tilted 2–4°), with 1.5 s moves between poses.
    static func truth(_ t: Double) -> (Double, Double, Double) {
        if t < 3 {
            let tremor = 0.4 * sin(2 * .pi * 7 * t)
            return (tremor, 0.3 * sin(2 * .pi * 5 * t), g + tremor)
        }
        let poses: [SixPositionPoses.Pose] = [.zUp, .xUp, .yDown, .zDown, .xDown, .yUp]
        let slot = (t - 3) / 5.5
        let index = min(Int(slot), poses.count - 1)
        let within = (slot - Double(index)) * 5.5
        let here = direction(poses[index], tiltDegrees: 2 + Double(index) * 0.4)
        guard within > 4, index + 1 < poses.count else { return (g * here.0, g * here.1, g * here.2) }
        // Turning to the next pose: along the great circle, normalised linear interpolation.
        let next = direction(poses[index + 1], tiltDegrees: 2 + Double(index + 1) * 0.4)
        let f = (within - 4) / 1.5
        var v = (here.0 + f * (next.0 - here.0), here.1 + f * (next.1 - here.1), here.2 + f * (next.2 - here.2))
        let n = (v.0 * v.0 + v.1 * v.1 + v.2 * v.2).squareRoot()
        v = (v.0 / n, v.1 / n, v.2 / n)
        return (g * v.0, g * v.1, g * v.2)
    }

    static func distorted(_ a: (Double, Double, Double)) -> (Double, Double, Double) {
        (gain.0 * a.0 + offset.0, gain.1 * a.1 + offset.1, gain.2 * a.2 + offset.2)
    }

    /// Runs the chip through `seconds` of `motion` (true specific force at a time in seconds),
    /// with the injected error and the MPU-6050's datasheet noise; every reading the driver gives.
    static func readings(seconds: Double, motion: @escaping @Sendable (Double) -> (Double, Double, Double)) throws -> [SensorReading] {
        var noise = EmulatedNoise(rms: 0.026, seed: 7)  // 400 µg/√Hz over 44 Hz
        let emulator = MPU6050Emulator(motion: { nanoseconds in
            (noise.add(to: distorted(motion(Double(nanoseconds) / 1e9))), (0, 0, 0))
        })
        let driver = try MPU6050Driver(bus: emulator)
        var buffer = [SensorReading](repeating: SensorReading(timestampNanoseconds: 0, value: .temperature(.zero)), count: 256)
        var readings: [SensorReading] = []
        for step in 1...Int(seconds * 10) {
            let now = Int64(step) * 100_000_000
            emulator.advance(to: now)
            let result = try buffer.withUnsafeMutableBufferPointer { try driver.drain(into: $0, nowNanoseconds: now) }
            readings += buffer[0..<result.readings]
        }
        return readings
    }

    static func accelerations(_ readings: [SensorReading]) -> [(time: Int64, value: (Double, Double, Double))] {
        readings.compactMap { reading in
            guard case .acceleration(let a) = reading.value else { return nil }
            return (reading.timestampNanoseconds, (a.x.doubleValue, a.y.doubleValue, a.z.doubleValue))
        }
    }

    @Test func theFitRecoversAnInjectedOffsetAndScale() throws {
        var poses = SixPositionPoses()
        var order: [SixPositionPoses.Pose] = []
        for (time, value) in Self.accelerations(try Self.readings(seconds: 36, motion: Self.truth)) {
            poses.add(value, at: time)
            if let last = poses.captured.first(where: { !order.contains($0) }) { order.append(last) }
        }
        #expect(poses.isComplete, "missing \(poses.missing)")
        #expect(order == [.zUp, .xUp, .yDown, .zDown, .xDown, .yUp], "captured in the order held, none while hand-held or moving")
        let fit = try #require(AccelerometerFit.fit(poses: poses.samples))
        let expectedScale = [1 / Self.gain.0, 1 / Self.gain.1, 1 / Self.gain.2]
        let expectedOffset = [Self.offset.0, Self.offset.1, Self.offset.2]
        // Tolerances: 0.01 m/s² (1 mg) of offset and 0.1 % of scale; the noise alone allows
        // about a tenth of each (0.026 m/s² over 400 samples a pose), the tilts nothing.
        for axis in 0..<3 {
            #expect(abs(fit.offset[axis] - expectedOffset[axis]) < 0.01, "offset \(fit.offset) vs \(expectedOffset)")
            #expect(abs(fit.scale[axis] / expectedScale[axis] - 1) < 0.001, "scale \(fit.scale) vs \(expectedScale)")
        }
        // The residual is the noise (0.026 m/s² per axis; a magnitude sees one axis's worth).
        #expect(fit.residual < 0.035 && fit.quality >= 85, "residual \(fit.residual) m/s², quality \(fit.quality)")
        // Applying it: gravity's magnitude was off by up to 0.6 m/s² in some pose; now by the noise.
        #expect(fit.gravityErrorBefore > 0.3 && fit.gravityErrorAfter < 0.005, "\(fit.gravityErrorBefore) → \(fit.gravityErrorAfter) m/s²")
    }

    @Test func deviceMotionAppliesTheStoredCalibration() throws {
        // The chip lies still in a pose the fit never saw (tilted 35° about two axes); device
        // motion's user acceleration is then the error in gravity's magnitude, in g.
        let still = Self.direction(.zUp, tiltDegrees: 35)
        let readings = try Self.readings(seconds: 3) { _ in
            let turned = (still.0 * 0.8 - still.2 * 0.6, still.1, still.0 * 0.6 + still.2 * 0.8)
            return (Self.g * turned.0, Self.g * turned.1, Self.g * turned.2)
        }
        func meanUserAcceleration(_ calibration: BoardCalibration?) -> Double {
            var estimator = DeviceMotionEstimator(calibration: calibration)
            var sum = 0.0, count = 0.0
            for reading in readings {
                guard let motion = estimator.process(reading), reading.timestampNanoseconds > 1_000_000_000 else { continue }
                let u = motion.userAcceleration
                sum += (u.x.doubleValue * u.x.doubleValue + u.y.doubleValue * u.y.doubleValue + u.z.doubleValue * u.z.doubleValue).squareRoot()
                count += 1
            }
            return sum / count
        }
        let calibrated = BoardCalibration(accelerometerOffset: [Self.offset.0, Self.offset.1, Self.offset.2],
                                          accelerometerScale: [1 / Self.gain.0, 1 / Self.gain.1, 1 / Self.gain.2])
        let before = meanUserAcceleration(nil), after = meanUserAcceleration(calibrated)
        #expect(before > 0.04 && after < 0.006, "user acceleration at rest \(before) g uncalibrated, \(after) g calibrated")
    }

    @Test func onlyStillPosesAlongAnAxisCount() {
        var poses = SixPositionPoses(holdSeconds: 2)
        var time: Int64 = 0
        func feed(seconds: Double, _ value: (Double) -> (Double, Double, Double)) {
            for _ in 0..<Int(seconds * 100) {
                poses.add(value(Double(time) / 1e9), at: time)
                time += 10_000_000
            }
        }
        // Shaken, slowly turning, or 30° off any axis: nothing.
        feed(seconds: 4) { t in (0.5 * sin(40 * t), 0, Self.g) }
        feed(seconds: 4) { t in (Self.g * sin(0.1 * t), 0, Self.g * cos(0.1 * t)) }
        feed(seconds: 4) { _ in (Self.g * 0.5, 0, Self.g * 0.866) }
        #expect(poses.captured.isEmpty)
        // Still on +y for 1.5 s: not yet; 3 s: captured, and the live state says so.
        feed(seconds: 1.5) { _ in (0, Self.g, 0) }
        #expect(poses.captured.isEmpty && poses.current == .yUp)
        feed(seconds: 1.5) { _ in (0, Self.g, 0) }
        #expect(poses.captured == [.yUp] && poses.missing == [.xUp, .xDown, .yDown, .zUp, .zDown])
        #expect(poses.missing.map(\.description) == ["x up", "x down", "y down", "z up", "z down"])
        #expect(AccelerometerFit.fit(poses: poses.samples) == nil, "five poses missing: no fit")
    }
}
