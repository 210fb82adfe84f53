/// A 3 × 3 matrix in Double, row-major, for the calibration fits and the conversions between
/// stored calibration and the per-sample path (not used per sample).
struct Matrix3: Equatable {
    var m: [Double]

    static let identity = Matrix3(m: [1, 0, 0, 0, 1, 0, 0, 0, 1])

    init(m: [Double]) {
        precondition(m.count == 9, "a 3 × 3 matrix has 9 entries")  // our bug if reached
        self.m = m
    }

    /// The symmetric matrix of the calibration file's six numbers (xx, yy, zz, xy, xz, yz).
    init(symmetric s: [Double]) {
        self.init(m: [s[0], s[3], s[4], s[3], s[1], s[5], s[4], s[5], s[2]])
    }

    /// The six numbers of a symmetric matrix (xx, yy, zz, xy, xz, yz), averaging the two sides.
    var symmetricEntries: [Double] {
        [m[0], m[4], m[8], (m[1] + m[3]) / 2, (m[2] + m[6]) / 2, (m[5] + m[7]) / 2]
    }

    subscript(row: Int, column: Int) -> Double {
        get { m[row * 3 + column] }
        set { m[row * 3 + column] = newValue }
    }

    static func * (a: Matrix3, v: (Double, Double, Double)) -> (Double, Double, Double) {
        (a.m[0] * v.0 + a.m[1] * v.1 + a.m[2] * v.2, a.m[3] * v.0 + a.m[4] * v.1 + a.m[5] * v.2,
         a.m[6] * v.0 + a.m[7] * v.1 + a.m[8] * v.2)
    }

    static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        var product = [Double](repeating: 0, count: 9)
        for i in 0..<3 {
            for j in 0..<3 { product[i * 3 + j] = a[i, 0] * b[0, j] + a[i, 1] * b[1, j] + a[i, 2] * b[2, j] }
        }
        return Matrix3(m: product)
    }

    var transposed: Matrix3 { Matrix3(m: [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]]) }

    var determinant: Double {
        m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6])
    }

    /// The inverse, or nil when singular.
    var inverse: Matrix3? {
        let d = determinant
        guard abs(d) > 1e-12 else { return nil }
        let cofactors = [m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
                         m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
                         m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3]]
        return Matrix3(m: cofactors.map { $0 / d })
    }

    /// Eigenvalues and eigenvectors (the columns of `vectors`) of a symmetric matrix, by
    /// cyclic Jacobi rotations: exact to rounding for 3 × 3 within a few sweeps.
    var symmetricEigen: (values: [Double], vectors: Matrix3) {
        var a = self, v = Matrix3.identity
        for _ in 0..<50 {
            let off = a[0, 1] * a[0, 1] + a[0, 2] * a[0, 2] + a[1, 2] * a[1, 2]
            if off < 1e-30 * max(1, a[0, 0] * a[0, 0] + a[1, 1] * a[1, 1] + a[2, 2] * a[2, 2]) { break }
            for (p, q) in [(0, 1), (0, 2), (1, 2)] where a[p, q] != 0 {
                // The rotation in the (p, q) plane that zeroes a[p, q] (Golub & Van Loan, §8.5.2).
                let theta = (a[q, q] - a[p, p]) / (2 * a[p, q])
                let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
                let c = 1 / (t * t + 1).squareRoot(), s = t * c
                var rotation = Matrix3.identity
                rotation[p, p] = c
                rotation[q, q] = c
                rotation[p, q] = s
                rotation[q, p] = -s
                a = rotation.transposed * a * rotation
                v = v * rotation
            }
        }
        return ([a[0, 0], a[1, 1], a[2, 2]], v)
    }

    /// V f(Λ) Vᵀ of a symmetric matrix: f applied to its eigenvalues (a square root, a power).
    func symmetricFunction(_ f: (Double) -> Double) -> Matrix3 {
        let (values, vectors) = symmetricEigen
        var result = [Double](repeating: 0, count: 9)
        for k in 0..<3 {
            let fk = f(values[k])
            for i in 0..<3 {
                for j in 0..<3 { result[i * 3 + j] += vectors[i, k] * fk * vectors[j, k] }
            }
        }
        return Matrix3(m: result)
    }
}
