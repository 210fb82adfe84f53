import FixedPoint
import Glibc
import Testing
import TestSupport

/// Double-precision quaternion from Core Motion style Euler angles: R = Rz(yaw) Rx(pitch) Ry(roll).
func quaternion(roll: Double, pitch: Double, yaw: Double) -> (w: Double, x: Double, y: Double, z: Double) {
    func multiply(_ a: (Double, Double, Double, Double), _ b: (Double, Double, Double, Double)) -> (Double, Double, Double, Double) {
        (a.0 * b.0 - a.1 * b.1 - a.2 * b.2 - a.3 * b.3, a.0 * b.1 + a.1 * b.0 + a.2 * b.3 - a.3 * b.2,
         a.0 * b.2 - a.1 * b.3 + a.2 * b.0 + a.3 * b.1, a.0 * b.3 + a.1 * b.2 - a.2 * b.1 + a.3 * b.0)
    }
    let qz = (cos(yaw / 2), 0.0, 0.0, sin(yaw / 2)), qx = (cos(pitch / 2), sin(pitch / 2), 0.0, 0.0)
    let qy = (cos(roll / 2), 0.0, sin(roll / 2), 0.0)
    let q = multiply(multiply(qz, qx), qy)
    return (q.0, q.1, q.2, q.3)
}

func fixed(_ q: (w: Double, x: Double, y: Double, z: Double)) -> Quaternion {
    Quaternion(w: Q2_30(q.w), x: Q2_30(q.x), y: Q2_30(q.y), z: Q2_30(q.z))
}

@Suite struct QuaternionTests {
    @Test func eulerAnglesFollowCoreMotionsConvention() {
        var random = SeededRandom(seed: 23)
        var worst = 0.0
        for _ in 0..<5_000 {
            let roll = Double.random(in: -3.1...3.1, using: &random)
            let pitch = Double.random(in: -1.5...1.5, using: &random)  // away from gimbal lock
            let yaw = Double.random(in: -3.1...3.1, using: &random)
            let angles = fixed(quaternion(roll: roll, pitch: pitch, yaw: yaw)).eulerAngles
            for (observed, expected) in [(angles.roll, roll), (angles.pitch, pitch), (angles.yaw, yaw)] {
                worst = max(worst, abs(observed.doubleValue - expected))
            }
        }
        // Q2.30 quaternion rounding (≤ 2⁻³¹ per component) moves the angles by ≪ 1 µrad near
        // pitch ±1.5; the output rounding is 0.5 LSB = 7.6 µrad: 2 LSB is a safe bound.
        #expect(worst < 2.0 / 65536, "worst Euler angle error \(worst) rad")
    }

    @Test func hamiltonProductComposesRotations() {
        var random = SeededRandom(seed: 29)
        for _ in 0..<2_000 {
            let a = (Double.random(in: -3...3, using: &random), Double.random(in: -1.5...1.5, using: &random), Double.random(in: -3...3, using: &random))
            let b = (Double.random(in: -3...3, using: &random), Double.random(in: -1.5...1.5, using: &random), Double.random(in: -3...3, using: &random))
            let qa = quaternion(roll: a.0, pitch: a.1, yaw: a.2), qb = quaternion(roll: b.0, pitch: b.1, yaw: b.2)
            let product = fixed(qa) * fixed(qb)
            let expected = (qa.w * qb.w - qa.x * qb.x - qa.y * qb.y - qa.z * qb.z,
                            qa.w * qb.x + qa.x * qb.w + qa.y * qb.z - qa.z * qb.y,
                            qa.w * qb.y - qa.x * qb.z + qa.y * qb.w + qa.z * qb.x,
                            qa.w * qb.z + qa.x * qb.y - qa.y * qb.x + qa.z * qb.w)
            // Inputs carry ≤ ½ LSB each; a product component sums four terms: ≤ 4.5 LSB.
            for (observed, exact) in [(product.w, expected.0), (product.x, expected.1), (product.y, expected.2), (product.z, expected.3)] {
                #expect(abs(Double(observed.rawValue) - exact * 1_073_741_824) <= 4.5)
            }
        }
        #expect(Quaternion.identity * Quaternion.identity == .identity)
    }

    @Test func normalizedIsWithinItsDocumentedBound() {
        var random = SeededRandom(seed: 31)
        for _ in 0..<5_000 {
            let components = (0..<4).map { _ in Double.random(in: -1...1, using: &random) }
            let q = Quaternion(w: Q2_30(components[0]), x: Q2_30(components[1]), y: Q2_30(components[2]), z: Q2_30(components[3]))
            let norm = components.map { $0 * $0 }.reduce(0, +).squareRoot()
            guard norm > 0.05 else { continue }
            let bound = 0.5 + 0.5 / norm + 1e-6  // documented: ½ + ½/|q| LSB
            let normalized = q.normalized
            for (observed, raw) in zip([normalized.w, normalized.x, normalized.y, normalized.z], [q.w, q.x, q.y, q.z]) {
                let rawNorm = Double(q.squaredNormQ60).squareRoot()
                let error = abs(Double(observed.rawValue) - Double(raw.rawValue) / rawNorm * 1_073_741_824)
                #expect(error <= bound, "|q| = \(norm): error \(error) LSB")
            }
        }
        #expect(Quaternion(w: .zero, x: .zero, y: .zero, z: .zero).normalized == .identity)
    }

    @Test func rotateMatchesDoubleAndMovesGravity() {
        // 90° about x (pitch up): device +y goes to reference +z.
        let q = fixed(quaternion(roll: 0, pitch: .pi / 2, yaw: 0))
        let rotated = q.rotate(Vector3(x: .zero, y: Q16_16(9.80665), z: .zero))
        #expect(abs(rotated.z.doubleValue - 9.80665) < 2.0 / 65536)
        #expect(abs(rotated.y.doubleValue) < 2.0 / 65536)
        // Conjugate undoes the rotation to within rounding.
        let back = q.conjugate.rotate(rotated)
        #expect(abs(back.y.doubleValue - 9.80665) < 4.0 / 65536)
    }

    @Test func productSaturatesInsteadOfOverflowing() {
        let big = Quaternion(w: Q2_30(rawValue: .max), x: Q2_30(rawValue: .min), y: Q2_30(rawValue: .max), z: Q2_30(rawValue: .min))
        let product = big * big
        #expect(product.w.rawValue == .min)  // w = w² − x² − y² − z² = −2 × (2⁶²)… → saturates low
    }
}
