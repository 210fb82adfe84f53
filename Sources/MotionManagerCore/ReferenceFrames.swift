package import MotionEngine

/// A set of attitude reference frames with Core Motion's `CMAttitudeReferenceFrame` raw values
/// (the C API's `ocm_reference_frame` bits too): what a board offers, or the one frame a
/// device-motion stream is started in.
package struct ReferenceFrames: OptionSet, Sendable, Hashable {
    package let rawValue: UInt

    package init(rawValue: UInt) { self.rawValue = rawValue }

    package static let xArbitraryZVertical = ReferenceFrames(rawValue: 1 << 0)
    package static let xArbitraryCorrectedZVertical = ReferenceFrames(rawValue: 1 << 1)
    package static let xMagneticNorthZVertical = ReferenceFrames(rawValue: 1 << 2)
    package static let xTrueNorthZVertical = ReferenceFrames(rawValue: 1 << 3)

    /// The engine's frame for a set holding exactly one frame; nil otherwise.
    package var engineFrame: AttitudeReferenceFrame? {
        switch self {
        case .xArbitraryZVertical: .xArbitraryZVertical
        case .xArbitraryCorrectedZVertical: .xArbitraryCorrectedZVertical
        case .xMagneticNorthZVertical: .xMagneticNorthZVertical
        case .xTrueNorthZVertical: .xTrueNorthZVertical
        default: nil
        }
    }

    package init(_ frame: AttitudeReferenceFrame) {
        switch frame {
        case .xArbitraryZVertical: self = .xArbitraryZVertical
        case .xArbitraryCorrectedZVertical: self = .xArbitraryCorrectedZVertical
        case .xMagneticNorthZVertical: self = .xMagneticNorthZVertical
        case .xTrueNorthZVertical: self = .xTrueNorthZVertical
        }
    }

    /// The frames' names, for messages: "xMagneticNorthZVertical".
    package var names: String {
        let all: [(ReferenceFrames, String)] = [
            (.xArbitraryZVertical, "xArbitraryZVertical"), (.xArbitraryCorrectedZVertical, "xArbitraryCorrectedZVertical"),
            (.xMagneticNorthZVertical, "xMagneticNorthZVertical"), (.xTrueNorthZVertical, "xTrueNorthZVertical"),
        ]
        let names = all.filter { contains($0.0) }.map(\.1)
        return names.isEmpty ? "no frame (raw value \(rawValue))" : names.joined(separator: ", ")
    }
}
