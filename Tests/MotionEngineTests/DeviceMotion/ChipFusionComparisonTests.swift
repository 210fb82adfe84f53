import FixedPoint
import Foundation
import MotionAlgorithms
@testable import MotionEngine
import Testing
import TestSupport

/// Our device motion (the engine's pipeline on a fusion chip's raw sensors) beside the chip's
/// own attitude (`chip-fusion = on`), each against the truth, on the chips' emulators.
///
/// What this can show: how far our pipeline is from the truth on the emulated sensors, and that
/// the chip's attitude reaches the engine in the same frame and axes (the two agree). What it
/// cannot: how good the chips' own fusion is. Neither emulator runs the chip's fusion: the
/// BNO055's quaternion is the source's true attitude (quantised to Q2.14), the BNO08x's is its
/// own noisy gyroscope integrated from the identity at its report rate (no drift correction).
/// The truth comes from `synthetic:tumble`, which starts at the identity in the frame our
/// `xMagneticNorthZVertical` uses (x north, y west, z up), so no alignment is needed; a
/// recording has no true attitude.
@Suite(.serialized) struct ChipFusionComparisonTests {
    /// Angles in degrees after the pipeline has settled, one per chip attitude sample.
    struct Comparison {
        var ours: [Double] = [], chip: [Double] = [], between: [Double] = []

        static func rms(_ values: [Double]) -> Double { (values.reduce(0) { $0 + $1 * $1 } / Double(max(1, values.count))).squareRoot() }
        var summary: String {
            func line(_ name: String, _ values: [Double]) -> String {
                String(format: "%@ RMS %.2f° max %.2f°", name, Self.rms(values), values.max() ?? 0)
            }
            return "\(ours.count) samples: " + [line("ours–truth", ours), line("chip–truth", chip), line("ours–chip", between)].joined(separator: "; ")
        }
    }

    /// The angle of the rotation between two quaternions (w, x, y, z), degrees: 2 atan2(|v|, |w|)
    /// of a* ⊗ b, which stays exact for small angles and for quaternions a little off unit length
    /// (a chip's Q14 quaternion is off by up to 10⁻⁴: 2 acos of the dot product would read that
    /// as 1.6°).
    static func angle(_ a: (Double, Double, Double, Double), _ b: (Double, Double, Double, Double)) -> Double {
        let w = a.0 * b.0 + a.1 * b.1 + a.2 * b.2 + a.3 * b.3
        let x = a.0 * b.1 - a.1 * b.0 - a.2 * b.3 + a.3 * b.2
        let y = a.0 * b.2 + a.1 * b.3 - a.2 * b.0 - a.3 * b.1
        let z = a.0 * b.3 - a.1 * b.2 + a.2 * b.1 - a.3 * b.0
        return 2 * atan2((x * x + y * y + z * z).squareRoot(), abs(w)) * 180 / .pi
    }

    static func tuple(_ q: Quaternion) -> (Double, Double, Double, Double) { (q.w.doubleValue, q.x.doubleValue, q.y.doubleValue, q.z.doubleValue) }

    /// Runs `chip` (board-file lines) on `synthetic:tumble` for `seconds`, comparing from
    /// `settle` seconds on (the heading takes a few seconds to find north).
    static func compare(_ chip: String, seconds: Int64 = 60, settle: Int64 = 10) throws -> (Comparison, ChipStatus) {
        let text = "board = sim\n[chip imu]\nbus = emulated\nmotion = synthetic:tumble\nchip-fusion = on\n" + chip
        let runtime = try BoardRuntime(try BoardFileParser.parse(text, path: "sim.board"), root: ProjectPaths.root, speed: 0)
        var estimator = DeviceMotionEstimator(frame: .xMagneticNorthZVertical)
        let truth = SyntheticTumble()
        var comparison = Comparison()
        runtime.onChipFusion = { fusion in
            guard fusion.timestampNanoseconds >= settle * 1_000_000_000 else { return }
            truth.advance(to: fusion.timestampNanoseconds)
            let real = truth.attitude!
            let exact = (real.w, real.x, real.y, real.z)
            let ours = tuple(estimator.attitude), chip = tuple(fusion.attitude)
            comparison.ours.append(angle(ours, exact))
            comparison.chip.append(angle(chip, exact))
            comparison.between.append(angle(ours, chip))
        }
        try runtime.run(untilNanoseconds: seconds * 1_000_000_000) { _ = estimator.update($0) }
        return (comparison, runtime.status[0])
    }

    static let bno08x = "driver = bno08x\naddress = 0x4A\ninterrupt = GPIO17\nrate = 100\n"
    static let bno055 = "driver = bno055\naddress = 0x28\n"

    @Test func onTheBNO08XOurPipelineStaysNearTheTruthAndTheChip() throws {
        let (comparison, status) = try Self.compare(Self.bno08x + "mount = x y z\n")
        print("BNO08x, synthetic:tumble: \(comparison.summary)")
        #expect(comparison.ours.count >= 4900, "\(comparison.ours.count) chip attitudes in 50 s at 100 Hz")
        #expect(status.chipFusionReadings >= 5900)
        #expect(Comparison.rms(comparison.ours) < 0.5 && comparison.ours.max()! < 1.0, "\(comparison.summary)")
        // Its own gyroscope integrated: noise and the rectangle rule at 100 Hz, no drift correction.
        #expect(Comparison.rms(comparison.chip) < 0.5, "\(comparison.summary)")
    }

    @Test func onTheBNO055OurPipelineStaysNearTheTruthWhichIsTheChipsQuaternion() throws {
        let (comparison, _) = try Self.compare(Self.bno055 + "mount = x y z\n")
        print("BNO055, synthetic:tumble: \(comparison.summary)")
        #expect(comparison.ours.count >= 4900)
        // The emulator's quaternion is the truth (Q2.14) read when the chip sampled it.
        #expect(comparison.chip.max()! < 0.05, "\(comparison.summary)")
        #expect(Comparison.rms(comparison.ours) < 0.5 && comparison.ours.max()! < 1.0, "\(comparison.summary)")
    }

    /// Mounted turned (120° about the cube diagonal: a 180° turn would be its own inverse and
    /// hide a turn the wrong way): the chip's attitude is turned into device axes
    /// as the raw sensors are, so it still agrees with the truth and with ours.
    @Test func aTurnedMountTurnsTheChipsAttitudeLikeItsSensors() throws {
        let (comparison, _) = try Self.compare(Self.bno055 + "mount = y z x\n", seconds: 30)
        print("BNO055 mounted y z x, synthetic:tumble: \(comparison.summary)")
        #expect(comparison.chip.max()! < 0.05, "\(comparison.summary)")
        #expect(Comparison.rms(comparison.between) < 0.5 && comparison.between.max()! < 1.0, "\(comparison.summary)")
    }

    /// The simulated BNO08x board as shipped (BROAD's slow rotation by hand): no truth, and the
    /// two frames differ (ours north and up, the emulator's its first pose), so what is compared
    /// is each one's rotation since the first compared sample, in device axes (q(t₀)* ⊗ q(t): the
    /// frames cancel). The emulator integrates the recorded gyroscope, bias included, and
    /// corrects nothing: the two part by its drift, which this bounds.
    @Test func onTheSimulatedBoardsRecordingBothTurnAlike() throws {
        let path = ProjectPaths.root + "/boards/sim-bno08x.board"
        let runtime = try BoardRuntime(try BoardDescription.load(path: path), root: ProjectPaths.root, speed: 0)
        // Ours twice: 9D (north) and 6D (no magnetometer, like the emulator's integration).
        var nineD = DeviceMotionEstimator(frame: .xMagneticNorthZVertical), sixD = DeviceMotionEstimator(frame: .xArbitraryZVertical)
        var start: (nineD: Quaternion, sixD: Quaternion, chip: Quaternion)?
        var between: (nineD: [Double], sixD: [Double]) = ([], [])
        runtime.onChipFusion = { fusion in
            guard fusion.timestampNanoseconds >= 5_000_000_000 else { return }
            let (ours9D, ours6D) = (nineD.attitude, sixD.attitude)
            guard let first = start else { start = (ours9D, ours6D, fusion.attitude); return }
            let chip = Self.tuple(first.chip.conjugate * fusion.attitude)
            between.nineD.append(Self.angle(Self.tuple(first.nineD.conjugate * ours9D), chip))
            between.sixD.append(Self.angle(Self.tuple(first.sixD.conjugate * ours6D), chip))
        }
        try runtime.run(untilNanoseconds: 600_000_000_000) { _ = nineD.update($0); _ = sixD.update($0) }
        let seconds = Double(runtime.nowNanoseconds) / 1e9
        print(String(format: "BNO08x, sim-bno08x.board (BROAD, %.0f s): %d samples: rotation since 5 s, ours 9D–chip RMS %.2f° max %.2f°, ours 6D–chip RMS %.2f° max %.2f°",
                     seconds, between.nineD.count, Comparison.rms(between.nineD), between.nineD.max() ?? 0,
                     Comparison.rms(between.sixD), between.sixD.max() ?? 0))
        #expect(between.nineD.count > 1400, "\(between.nineD.count) chip attitudes")
        #expect(Comparison.rms(between.nineD) < 5 && between.nineD.max()! < 10)
        #expect(Comparison.rms(between.sixD) < 5 && between.sixD.max()! < 10)
    }
}
