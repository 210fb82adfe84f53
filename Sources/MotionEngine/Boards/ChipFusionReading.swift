public import Chips
public import FixedPoint

/// What a fusion chip (BNO08x, BNO055) computes by itself, beside the raw sensors the engine's
/// own pipeline runs on: its attitude, and what else it has of steps, activity, stability and
/// calibration. Given by the board runtime (`BoardRuntime.onChipFusion`) for chips whose board
/// file asks for it (`chip-fusion = on`), once per new attitude sample of the chip.
///
/// Every field the chip does not have is nil: a BNO055 has no step counter or classifiers, a
/// BNO08x no CALIB_STAT, a BNO08x in UART-RVC mode nothing but its attitude.
public struct ChipFusionReading: Sendable, Equatable {
    /// The chip's label in the board file.
    public var label: String
    /// When the chip's attitude was sampled, ns of board time (the chip's own stamp: the hub's
    /// timestamps for a BNO08x, the read for a BNO055).
    public var timestampNanoseconds: Int64
    /// Unit quaternion, Q2.30: device axes (the board's `mount` applied) → the chip's own
    /// reference frame. A BNO08x's rotation vector (gyroscope, accelerometer and magnetometer);
    /// in UART-RVC mode its frame's yaw, pitch and roll (0.01° steps, yaw from the hub's reset);
    /// a BNO055's QUA_DATA in NDOF. The frame is the chip's, not one of `AttitudeReferenceFrame`'s:
    /// compare rotations between two times, or align the frames first.
    public var attitude: Quaternion
    /// The chip's status accuracy of that attitude, 0 (unreliable) … 3 (high); nil where the
    /// chip gives none (BNO055: its calibration status says it instead).
    public var attitudeAccuracy: UInt8?
    /// The chip's own estimate of its heading error, rad, Q16.16 (BNO08x rotation vector only).
    public var headingAccuracy: Q16_16?
    /// A BNO08x's game rotation vector (no magnetometer: its heading drifts, undisturbed by
    /// magnets), device axes → its own frame, Q2.30.
    public var gameAttitude: Quaternion?
    /// Steps the chip counted since the engine started it, across its resets (BNO08x).
    public var steps: Int?
    /// The chip's stability classifier (BNO08x: SH-2 1000-3625, "Stability Classifier").
    public var stability: SH2Stability?
    /// The chip's most likely activity and its confidence, % (BNO08x's personal activity classifier).
    public var activity: SH2Activity?
    public var activityConfidence: UInt8?
    /// The chip's CALIB_STAT (BNO055, BST-BNO055-DS000-14 §4.3.54): system, gyroscope,
    /// accelerometer, field, each 0 (uncalibrated) … 3 (fully calibrated).
    public var calibration: BNO055CalibrationStatus?

    public init(label: String, timestampNanoseconds: Int64, attitude: Quaternion) {
        self.label = label
        self.timestampNanoseconds = timestampNanoseconds
        self.attitude = attitude
    }
}

/// One counter a chip's driver keeps beyond what every chip has (a BNO08x's packets lost,
/// reports enabled again), for `motionctl stream --status`.
public struct ChipCounter: Sendable, Equatable {
    public var name: String
    public var count: Int

    public init(_ name: String, _ count: Int) {
        self.name = name
        self.count = count
    }
}
