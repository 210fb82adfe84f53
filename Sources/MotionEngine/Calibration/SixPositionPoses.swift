/// The six static poses of an accelerometer calibration (each axis up, then down), found in a
/// stream of accelerometer samples: the gravity direction says which pose the board is in, and
/// a pose counts once the board has stayed still in it for `holdNanoseconds`. The samples of
/// that still stretch are kept for the fit (`AccelerometerFit`).
///
/// Stillness is judged in blocks of `blockNanoseconds`: a block is still when every axis's
/// spread is below `stillSpread` and its mean moved less than `stillDrift` from the previous
/// block's (a slow turn has a small spread but a drifting mean).
public struct SixPositionPoses: Sendable {
    /// A pose: which device axis points up (the accelerometer reads +1 g on it) or down.
    public enum Pose: Int, CaseIterable, Sendable, CustomStringConvertible {
        case xUp, xDown, yUp, yDown, zUp, zDown

        /// The axis (0 x, 1 y, 2 z) and the sign of gravity's reading on it.
        public var axis: Int { rawValue / 2 }
        public var sign: Double { rawValue % 2 == 0 ? 1 : -1 }
        public var description: String { ["x", "y", "z"][axis] + (rawValue % 2 == 0 ? " up" : " down") }
    }

    /// How long a pose must be held still, ns.
    public let holdNanoseconds: Int64
    public static let blockNanoseconds: Int64 = 250_000_000
    /// m/s², RMS per axis within a block: three times the noisiest supported chip's (MPU-6050,
    /// 0.026 m/s² over its 44 Hz bandwidth), well below a hand's tremor (≈ 0.3 m/s²).
    public static let stillSpread = 0.08
    /// m/s², per axis between consecutive blocks' means.
    public static let stillDrift = 0.05
    /// How far the reading may be from the pose's axis: within about 18° (cos 18° ≈ 0.95); a
    /// board tilted more is between poses. Tilts within it do not bias the fit, which uses only
    /// the magnitude of gravity.
    public static let axisCosine = 0.95
    /// Samples kept per pose (more add nothing but time to the fit).
    public static let samplesPerPose = 400

    /// The samples (m/s², device axes) of each captured pose, by `Pose.rawValue`; empty until captured.
    public private(set) var samples: [[(Double, Double, Double)]] = Array(repeating: [], count: 6)
    /// The pose the board is in now (nil: moving or between poses) and for how long it has been
    /// still in it, ns.
    public private(set) var current: Pose?
    public private(set) var stillNanoseconds: Int64 = 0

    private var block: [(Double, Double, Double)] = []
    private var blockStart: Int64?
    private var previousMean: (Double, Double, Double)?
    /// The still blocks of the current pose, oldest first.
    private var run: [(Double, Double, Double)] = []

    public init(holdSeconds: Double = 2) {
        holdNanoseconds = Int64(holdSeconds * 1e9)
    }

    public var captured: [Pose] { Pose.allCases.filter { !samples[$0.rawValue].isEmpty } }
    public var missing: [Pose] { Pose.allCases.filter { samples[$0.rawValue].isEmpty } }
    public var isComplete: Bool { missing.isEmpty }

    /// Takes one accelerometer sample (m/s², device axes) taken at `nanoseconds`.
    public mutating func add(_ acceleration: (Double, Double, Double), at nanoseconds: Int64) {
        if let start = blockStart, nanoseconds - start >= Self.blockNanoseconds {
            closeBlock()
            blockStart = nil
        }
        if blockStart == nil { blockStart = nanoseconds }
        block.append(acceleration)
    }

    private mutating func closeBlock() {
        defer { block.removeAll(keepingCapacity: true) }
        let count = Double(block.count)
        guard count >= 2 else { return }
        var mean = (0.0, 0.0, 0.0), squares = (0.0, 0.0, 0.0)
        for a in block {
            mean = (mean.0 + a.0, mean.1 + a.1, mean.2 + a.2)
            squares = (squares.0 + a.0 * a.0, squares.1 + a.1 * a.1, squares.2 + a.2 * a.2)
        }
        mean = (mean.0 / count, mean.1 / count, mean.2 / count)
        let spread = max(squares.0 / count - mean.0 * mean.0, squares.1 / count - mean.1 * mean.1,
                         squares.2 / count - mean.2 * mean.2).squareRoot()
        let drift = previousMean.map { max(abs(mean.0 - $0.0), abs(mean.1 - $0.1), abs(mean.2 - $0.2)) } ?? .infinity
        previousMean = mean
        let pose = Self.pose(of: mean)
        guard spread < Self.stillSpread, let pose else {
            current = pose
            stillNanoseconds = 0
            run.removeAll(keepingCapacity: true)
            return
        }
        if pose != current || drift >= Self.stillDrift {
            // A new still stretch starts here (the first block after a move is its start: a
            // block's mean is compared with the one before, which was still moving).
            current = pose
            stillNanoseconds = 0
            run.removeAll(keepingCapacity: true)
        }
        run.append(contentsOf: block)
        // A board left lying keeps only what a capture needs.
        if run.count > 2 * Self.samplesPerPose { run.removeFirst(run.count - Self.samplesPerPose) }
        stillNanoseconds += Self.blockNanoseconds
        if stillNanoseconds >= holdNanoseconds, samples[pose.rawValue].isEmpty {
            samples[pose.rawValue] = Array(run.suffix(Self.samplesPerPose))
        }
    }

    /// The pose whose axis the reading lies along, or nil when it lies between axes or is far
    /// from 1 g (a reading of 0.5–1.5 g: a broken or saturated sensor is not a pose).
    static func pose(of a: (Double, Double, Double)) -> Pose? {
        let components = [a.0, a.1, a.2]
        let norm = (a.0 * a.0 + a.1 * a.1 + a.2 * a.2).squareRoot()
        guard norm > 0.5 * standardGravity, norm < 1.5 * standardGravity else { return nil }
        let axis = components.indices.max { abs(components[$0]) < abs(components[$1]) }!
        guard abs(components[axis]) >= axisCosine * norm else { return nil }
        return Pose(rawValue: axis * 2 + (components[axis] > 0 ? 0 : 1))
    }

    /// m/s² (CGPM 1901): what the fit scales gravity's magnitude to.
    public static let standardGravity = 9.80665
}
