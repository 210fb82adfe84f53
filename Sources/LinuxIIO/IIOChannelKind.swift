/// The IIO channel types OpenCoreMotion reads, with the factor from IIO's unit to ours
/// (Documentation/ABI/testing/sysfs-bus-iio: accel m/s², anglvel rad/s, magn Gauss, pressure
/// kPa, temp milli-degrees Celsius).
public enum IIOChannelKind: String, Sendable, CaseIterable {
    case acceleration = "accel"
    case angularVelocity = "anglvel"
    case magneticField = "magn"
    case pressure = "pressure"
    case temperature = "temp"

    /// Multiply IIO's value by this to get OpenCoreMotion's unit (m/s², rad/s, µT, Pa, °C).
    public var toSIFactor: Double {
        switch self {
        case .acceleration, .angularVelocity: 1
        case .magneticField: 100       // 1 G = 100 µT
        case .pressure: 1000           // 1 kPa = 1000 Pa
        case .temperature: 0.001       // m°C → °C
        }
    }

    public var isVector: Bool { self == .acceleration || self == .angularVelocity || self == .magneticField }

    /// The kind and axis of a channel id such as "accel_x", "pressure", "temp", "magn_z";
    /// nil for channels we do not use (timestamp, illuminance, …).
    public static func parse(channelID id: String) -> (kind: IIOChannelKind, axis: Int?)? {
        let parts = id.split(separator: "_")
        guard let first = parts.first, let kind = IIOChannelKind(rawValue: String(first)) else { return nil }
        guard kind.isVector else { return parts.count == 1 ? (kind, nil) : nil }
        guard parts.count == 2, let axis = ["x", "y", "z"].firstIndex(of: String(parts[1])) else { return nil }
        return (kind, axis)
    }
}

/// A mounting matrix as the kernel publishes it, "a, b, c; d, e, f; g, h, i": three rows,
/// applied as device = M · sensor (Documentation/devicetree/bindings/iio/mount-matrix.yaml).
public struct MountMatrix: Sendable, Equatable {
    public var rows: [[Double]]

    public static let identity = MountMatrix(rows: [[1, 0, 0], [0, 1, 0], [0, 0, 1]])

    public init(rows: [[Double]]) { self.rows = rows }

    /// Parses the sysfs text; nil when it is not three rows of three numbers.
    public init?(text: String) {
        let rows = text.split(separator: ";").map { row in row.split(separator: ",").map { Double($0.trimmingWhitespace()) } }
        guard rows.count == 3, rows.allSatisfy({ $0.count == 3 && $0.allSatisfy { $0 != nil } }) else { return nil }
        self.rows = rows.map { $0.map { $0! } }
    }

    public func apply(_ vector: (Double, Double, Double)) -> (Double, Double, Double) {
        let v = [vector.0, vector.1, vector.2]
        func row(_ index: Int) -> Double { zip(rows[index], v).reduce(0) { $0 + $1.0 * $1.1 } }
        return (row(0), row(1), row(2))
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        var slice = self[...]
        while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
        while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
        return String(slice)
    }
}
