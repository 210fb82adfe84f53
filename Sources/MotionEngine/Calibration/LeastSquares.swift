/// A linear least-squares problem of a few unknowns, min Σ (rowᵢ · x − valueᵢ)², accumulated
/// one equation at a time as its normal equations (AᵀA) x = Aᵀb and solved by Gaussian
/// elimination with partial pivoting. Enough for the calibration fits (at most 9 unknowns,
/// thousands of equations, data centred and scaled by the caller so that AᵀA stays well
/// conditioned in Double); not for the per-sample path (it allocates).
struct LeastSquares {
    let unknowns: Int
    /// AᵀA, row-major `unknowns` × `unknowns`.
    private(set) var normal: [Double]
    /// Aᵀb.
    private(set) var rightSide: [Double]
    private(set) var equations = 0

    init(unknowns: Int) {
        self.unknowns = unknowns
        normal = [Double](repeating: 0, count: unknowns * unknowns)
        rightSide = [Double](repeating: 0, count: unknowns)
    }

    /// Adds the equation row · x = value (row has `unknowns` entries).
    mutating func add(_ row: [Double], _ value: Double, weight: Double = 1) {
        precondition(row.count == unknowns, "a row of \(row.count) for \(unknowns) unknowns")  // our bug if reached
        for i in 0..<unknowns {
            rightSide[i] += weight * row[i] * value
            for j in 0..<unknowns { normal[i * unknowns + j] += weight * row[i] * row[j] }
        }
        equations += 1
    }

    /// The solution, or nil when the equations do not determine every unknown (a pivot below
    /// 10⁻¹² of the largest diagonal entry: the data do not constrain some direction).
    func solve() -> [Double]? {
        Self.solve(normal, rightSide, size: unknowns)
    }

    /// x with a x = b for a square `size` × `size` row-major `a`, or nil when a is singular.
    static func solve(_ a: [Double], _ b: [Double], size n: Int) -> [Double]? {
        var m = a, x = b
        let scale = (0..<n).map { abs(a[$0 * n + $0]) }.max() ?? 0
        guard scale > 0 else { return nil }
        for column in 0..<n {
            let pivot = (column..<n).max { abs(m[$0 * n + column]) < abs(m[$1 * n + column]) }!
            guard abs(m[pivot * n + column]) > 1e-12 * scale else { return nil }
            if pivot != column {
                for k in 0..<n { m.swapAt(pivot * n + k, column * n + k) }
                x.swapAt(pivot, column)
            }
            for row in (column + 1)..<n {
                let factor = m[row * n + column] / m[column * n + column]
                guard factor != 0 else { continue }
                for k in column..<n { m[row * n + k] -= factor * m[column * n + k] }
                x[row] -= factor * x[column]
            }
        }
        for row in stride(from: n - 1, through: 0, by: -1) {
            var sum = x[row]
            for k in (row + 1)..<n { sum -= m[row * n + k] * x[k] }
            x[row] = sum / m[row * n + row]
        }
        return x
    }
}
