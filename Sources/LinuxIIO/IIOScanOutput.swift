/// One sample of a buffered capture made from a scan: which layout elements, and the
/// constants of value = ((raw + offset) × scale × toSIFactor), then the mount matrix for
/// vectors. Tuples rather than arrays so decoding touches no heap.
struct IIOScanOutput {
    var kind: IIOChannelKind
    var isVector: Bool
    var elements: (Int, Int, Int)
    var offsets: (Double, Double, Double)
    var scales: (Double, Double, Double)
    /// Row-major.
    var matrix: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

    /// The same arithmetic, in the same order, as `IIOSensorDevice.read()` and `MountMatrix.apply`.
    func value(in scan: UnsafeRawBufferPointer, _ layout: IIOScanLayout) -> IIOSensorDevice.Value {
        let factor = kind.toSIFactor
        let x = (Double(layout.rawValue(elements.0, in: scan)) + offsets.0) * scales.0 * factor
        guard isVector else { return .scalar(kind, x) }
        let y = (Double(layout.rawValue(elements.1, in: scan)) + offsets.1) * scales.1 * factor
        let z = (Double(layout.rawValue(elements.2, in: scan)) + offsets.2) * scales.2 * factor
        let m = matrix
        return .vector(kind, 0 + m.0 * x + m.1 * y + m.2 * z, 0 + m.3 * x + m.4 * y + m.5 * z, 0 + m.6 * x + m.7 * y + m.8 * z)
    }
}
