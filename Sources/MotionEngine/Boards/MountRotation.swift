public import FixedPoint

extension BoardDescription.AxisMapping {
    /// The mount as a rotation, the unit quaternion m (Q2.30) with device vector = m ⊗ chip
    /// vector ⊗ m*; nil when the mount mirrors (determinant −1: no rotation turns chip axes into
    /// device axes then). Exact: a signed permutation's quaternion has components 0, ±½, ±1/√2
    /// or ±1, rounded once to Q2.30.
    public var rotation: Quaternion? {
        // The matrix M with device = M · chip: row i has sign i in column index i.
        var m = Matrix3(m: Array(repeating: 0, count: 9))
        for (row, axis) in axes.enumerated() { m[row, axis.index] = Double(axis.sign) }
        guard m.determinant > 0 else { return nil }
        // Shepperd's method: divide by the largest of 4w², 4x², 4y², 4z² (here ≥ 1).
        let trace = m[0, 0] + m[1, 1] + m[2, 2]
        let q: (w: Double, x: Double, y: Double, z: Double)
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            q = (s / 4, (m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s)
        } else if m[0, 0] >= m[1, 1] && m[0, 0] >= m[2, 2] {
            let s = (1 + m[0, 0] - m[1, 1] - m[2, 2]).squareRoot() * 2
            q = ((m[2, 1] - m[1, 2]) / s, s / 4, (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s)
        } else if m[1, 1] >= m[2, 2] {
            let s = (1 + m[1, 1] - m[0, 0] - m[2, 2]).squareRoot() * 2
            q = ((m[0, 2] - m[2, 0]) / s, (m[0, 1] + m[1, 0]) / s, s / 4, (m[1, 2] + m[2, 1]) / s)
        } else {
            let s = (1 + m[2, 2] - m[0, 0] - m[1, 1]).squareRoot() * 2
            q = ((m[1, 0] - m[0, 1]) / s, (m[0, 2] + m[2, 0]) / s, (m[1, 2] + m[2, 1]) / s, s / 4)
        }
        return Quaternion(w: Q2_30(q.w), x: Q2_30(q.x), y: Q2_30(q.y), z: Q2_30(q.z))
    }
}
