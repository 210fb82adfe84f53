/// Core Motion's base of every sample: `timestamp`, in seconds.
///
/// The timestamp is the sample's time on CLOCK_MONOTONIC (seconds since boot, not counting
/// suspend: the clock of Core Motion's `timestamp` and `ProcessInfo.systemUptime`), as the
/// board runtime stamped it: the data-ready edge's kernel timestamp on a board with a wired
/// line, the read time otherwise. Samples of one stream come in increasing time.
///
/// `@unchecked Sendable`, and why it is safe: the class is `public` but not `open`, so its only
/// subclasses are this module's (`CMAccelerometerData` and its `CMRecordedAccelerometerData`, `CMGyroData`, `CMMagnetometerData`,
/// `CMDeviceMotion`, `CMMotionActivity`, `CMAltitudeData`, `CMAbsoluteAltitudeData`); this class and every one of them is immutable after `init` (`let`
/// properties of Sendable types only; `CMDeviceMotion.attitude` is a `CMAttitude`, itself
/// Sendable through its Mutex). The only reason for `unchecked` is that a non-final class cannot
/// declare checked Sendable conformance.
public class CMLogItem: @unchecked Sendable, CustomStringConvertible {
    /// Seconds on CLOCK_MONOTONIC (see the type's documentation).
    public let timestamp: CMTimeInterval

    init(timestampNanoseconds: Int64) {
        timestamp = Double(timestampNanoseconds) / 1e9
    }

    /// The timestamp in nanoseconds, as the engine and the C API give it.
    public var timestampNanoseconds: Int64 { Int64((timestamp * 1e9).rounded()) }

    public var description: String { "\(type(of: self)) @ \(timestamp) s" }
}

/// One accelerometer sample: `acceleration` in g with Core Motion's sign
/// (−specific force / 9.80665 m/s²: (0, 0, −1) lying face up at rest). Not final: Core Motion's
/// `CMRecordedAccelerometerData` is its subclass.
public class CMAccelerometerData: CMLogItem, @unchecked Sendable {
    public let acceleration: CMAcceleration

    public init(timestampNanoseconds: Int64, acceleration: CMAcceleration) {
        self.acceleration = acceleration
        super.init(timestampNanoseconds: timestampNanoseconds)
    }

    public override var description: String {
        "x \(acceleration.x) y \(acceleration.y) z \(acceleration.z) g @ \(timestamp) s"
    }
}

/// One gyroscope sample: `rotationRate` in rad/s as measured (bias included; device motion's
/// `rotationRate` has it removed).
public final class CMGyroData: CMLogItem, @unchecked Sendable {
    public let rotationRate: CMRotationRate

    public init(timestampNanoseconds: Int64, rotationRate: CMRotationRate) {
        self.rotationRate = rotationRate
        super.init(timestampNanoseconds: timestampNanoseconds)
    }

    public override var description: String {
        "x \(rotationRate.x) y \(rotationRate.y) z \(rotationRate.z) rad/s @ \(timestamp) s"
    }
}

/// One magnetometer sample: `magneticField` in µT as measured (hard and soft iron included).
public final class CMMagnetometerData: CMLogItem, @unchecked Sendable {
    public let magneticField: CMMagneticField

    public init(timestampNanoseconds: Int64, magneticField: CMMagneticField) {
        self.magneticField = magneticField
        super.init(timestampNanoseconds: timestampNanoseconds)
    }

    public override var description: String {
        "x \(magneticField.x) y \(magneticField.y) z \(magneticField.z) µT @ \(timestamp) s"
    }
}
