public import FixedPoint

/// The attitude filter in Q32.32, as the device runs it. A concrete type so that the generic
/// `AttitudeFilter` is specialised here, inside this module, for `Q32_32`: callers in other
/// modules then call straight-line integer code instead of generic code that dispatches every
/// multiplication through a witness table (measured: 13× slower).
public struct FixedPointAttitudeFilter: Sendable {
    public typealias Vector = FusionVector<Q32_32>
    public typealias Rotation = FusionQuaternion<Q32_32>

    public private(set) var filter: AttitudeFilter<Q32_32>

    public init(settings: AttitudeFilterSettings = .init(), magnetometerOffset: Vector = .zero, gyroscopeBias: Vector = .zero) {
        filter = AttitudeFilter(settings: settings, magnetometerOffset: magnetometerOffset, gyroscopeBias: gyroscopeBias)
    }

    public mutating func update(gyroscope: Vector, accelerometer: Vector, dt: Q32_32) {
        filter.update(gyroscope: gyroscope, accelerometer: accelerometer, dt: dt)
    }

    /// The gyroscope alone, while the accelerometer is silent (`AttitudeFilter.update(gyroscope:dt:)`).
    public mutating func update(gyroscope: Vector, dt: Q32_32) {
        filter.update(gyroscope: gyroscope, dt: dt)
    }

    public mutating func update(magnetometer: Vector, dt: Q32_32) {
        filter.update(magnetometer: magnetometer, dt: dt)
    }

    /// Forgets how well the magnetometer's offset is known (`MagnetometerCalibration.doubt`).
    public mutating func doubtMagnetometerOffset(uncertainty: Q32_32) {
        filter.doubtMagnetometerOffset(uncertainty: uncertainty)
    }

    /// The strength of the field the heading is referred to, µT (0 before the first
    /// magnetometer sample).
    public var magneticReferenceNorm: Q32_32 { filter.magneticReferenceNorm }

    // The outputs read per sample are always inlined (plain field reads and a few multiplications
    // in the caller): as calls, the caller first copied the whole filter (1.3 KB) for them.
    @inlinable @inline(__always) public var attitude6D: Rotation { filter.attitude6D }
    @inlinable @inline(__always) public var attitude9D: Rotation { filter.attitude9D }
    @inlinable @inline(__always) public var bias: Vector { filter.bias }
    public var headingOffset: Q32_32 { filter.headingOffset }
    public var hasHeading: Bool { filter.hasHeading }
    public var isResting: Bool { filter.isResting }
    /// The motion bias loop's time constant now, s (grows with the motion seen).
    public var motionBiasTimeConstant: Q32_32 { filter.motionBiasTimeConstant }
    public var isMagneticallyDisturbed: Bool { filter.isMagneticallyDisturbed }
    @inlinable @inline(__always) public var magnetometerAccuracy: Int8 { filter.calibration.accuracy }
    public var magnetometerOffset: Vector { filter.calibration.offset }
    /// 1σ of the offset estimate's worst axis, µT.
    public var magnetometerOffsetUncertainty: Double { filter.calibration.offsetUncertainty }
    @inlinable @inline(__always) public func calibrated(_ raw: Vector) -> Vector { filter.calibration.calibrated(raw) }
}
