/// What the activity classifier says at one moment, with Core Motion's semantics
/// (`CMMotionActivity`): any combination of flags, or none.
///
/// - `stationary`: the device is not moving; may be set together with `automotive` (a car
///   waiting at a light).
/// - `unknown`: only right after start, before there is enough data to decide.
/// - No flag at all: enough data, but no call (a device being handled, dancing).
public struct MotionActivityFlags: OptionSet, Sendable, BitwiseCopyable, Hashable {
    public var rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let stationary = MotionActivityFlags(rawValue: 1 << 0)
    public static let walking = MotionActivityFlags(rawValue: 1 << 1)
    public static let running = MotionActivityFlags(rawValue: 1 << 2)
    public static let automotive = MotionActivityFlags(rawValue: 1 << 3)
    public static let cycling = MotionActivityFlags(rawValue: 1 << 4)
    public static let unknown = MotionActivityFlags(rawValue: 1 << 5)

    /// Walking or running: the user is on foot and stepping.
    public static let onFoot: MotionActivityFlags = [.walking, .running]
    /// In or on a vehicle.
    public static let vehicle: MotionActivityFlags = [.automotive, .cycling]
}

/// How much evidence stands behind an estimate (`CMMotionActivityConfidence`): it climbs
/// low → medium → high while the same activity goes on.
///
/// Deliberately not `Comparable`: one more public `<` overload made the type checker give up
/// on literal-heavy expressions elsewhere in the package; `stronger(_:)` is the one comparison
/// needed.
public enum MotionActivityConfidence: UInt8, Sendable, BitwiseCopyable {
    case low = 0, medium = 1, high = 2

    /// The higher of the two confidences.
    public func stronger(_ other: Self) -> Self { other.rawValue > rawValue ? other : self }
}

/// One classification: the flags, their confidence and when the activity started.
public struct MotionActivityEstimate: Sendable, BitwiseCopyable, Equatable {
    public var flags: MotionActivityFlags
    public var confidence: MotionActivityConfidence
    /// When this activity started (ns on the readings' clock): for walking and running the
    /// bout's first step when the caller gives it, else the start of the evidence that decided.
    public var startNanoseconds: Int64

    @inlinable
    public init(flags: MotionActivityFlags, confidence: MotionActivityConfidence, startNanoseconds: Int64) {
        self.flags = flags
        self.confidence = confidence
        self.startNanoseconds = startNanoseconds
    }
}
