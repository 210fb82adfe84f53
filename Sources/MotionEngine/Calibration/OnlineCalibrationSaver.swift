/// Keeps what the online magnetometer calibration learns on a live board: once it knows the
/// offset (Core Motion's "medium" accuracy or better, 1σ below 3 µT on its worst axis) and
/// applies it, the offset goes to the board's calibration file, so that the next start begins
/// calibrated instead of turning the device about for a while first. Medium, not only high:
/// the next start takes a stored offset as known to 5 µT whatever the file says (an offset
/// moves between uses), so 3 µT is as good a start; and a device never turned about one of its
/// axes (a phone held flat or upright while walking) does not learn that axis to 1 µT (6 of
/// phone_attitude's 15 trials), yet its offset, stored, brings that walk's next start from
/// 28° of heading error to 6° (tools/benchmarks/warm_start.py).
///
/// When it writes:
/// - the first time an estimate qualifies, then at most every `intervalNanoseconds` (an SD
///   card does not like a write per second, and a constant does not need one), and when the
///   stream stops (`finish`);
/// - only an estimate the filter itself applies (`MagnetometerCalibration.isApplied`: below
///   130 µT the filter treats the estimate as a possible nearby magnet and does not use it;
///   stored, it would be applied from the next start on);
/// - never over a better one: the file's `magnetometer-offset-uncertainty`, read again just
///   before writing (`motionctl calibrate` may have written meanwhile), must be larger. A file
///   with an offset but no uncertainty counts as known to 1 µT (what `motionctl calibrate
///   magnetometer` aims for). Unless the offset has moved (`hasMoved`): then the new one is
///   written however well the old one was known;
/// - atomically (`BoardCalibration.save`: temporary file, then rename), keeping the file's
///   other keys.
///
/// The gyroscope's bias goes to the same file once the filter has learned it (`gyroscopeBias`):
/// a chip's zero-rate offset (±20 °/s for an MPU-6050, 5.5 °/s on phone_attitude's iPhone 5)
/// moves between runs only with temperature, so the next start begins near it instead of
/// tilting and turning for the first half minute while learning it from zero (phones keep
/// theirs the same way: tools/benchmarks/warm_start.py, all 12 warm trials 13.1° → 10.8°).
/// Written once per stream, with the next write (and at `finish`), whatever the file holds: an
/// earlier bias is an earlier temperature's.
///
/// A failed write is kept in `failure` and ends the saving for this stream (the stream itself
/// goes on: the calibration is a convenience, not the data).
public struct OnlineCalibrationSaver: Sendable {
    public let path: String
    /// The board file's name, for the file's header.
    public let board: String
    /// The shortest time between two writes while the stream runs, ns (default 3 minutes).
    public let intervalNanoseconds: Int64
    public private(set) var failure: EngineError?
    /// How many times the file was written.
    public private(set) var saves = 0
    /// When an estimate last qualified (written or found no better than the file's), ns.
    private var lastAttemptNanoseconds: Int64?
    private var nextLookNanoseconds = Int64.min
    /// The best uncertainty written or found so far, µT (to skip re-reading the file for
    /// estimates that could not replace it).
    private var best: Double?
    /// Seconds the filter was seen resting (looked at once a second), and whether this stream's
    /// gyroscope bias has been written.
    private var restSeconds = 0
    private var wroteBias = false

    /// The gyroscope bias is known after this many seconds at rest (the rest estimate's time
    /// constant is 2 s: `AttitudeFilterSettings.restBiasTimeConstant`, 1.5 s to detect rest) …
    static let knownAfterRestSeconds = 8
    /// … or once the motion bias loop's time constant has grown to this, s (from 12 s, a second
    /// every two of motion: 72 s of motion, several of the loop's time constants).
    static let knownMotionBiasTimeConstant = 48.0

    /// A learned hard-iron offset in raw-sample terms (µT), its uncertainty (1σ, µT) and the
    /// strength of the field it leaves (µT, nil when the field is not the Earth's now).
    typealias OffsetEstimate = (offset: [Double], uncertainty: Double, strength: Double?)

    /// A stored offset without an uncertainty is taken as known to this, µT.
    public static let assumedStoredUncertainty = 1.0

    public init(path: String, board: String, intervalNanoseconds: Int64 = 180_000_000_000) {
        self.path = path
        self.board = board
        self.intervalNanoseconds = intervalNanoseconds
    }

    /// Looks at an estimator after a sample at `nanoseconds`; writes when it is time and the
    /// estimate qualifies. One comparison per sample: the estimate is looked at once a second.
    public mutating func observe(_ estimator: DeviceMotionEstimator, at nanoseconds: Int64) {
        guard nanoseconds >= nextLookNanoseconds else { return }
        nextLookNanoseconds = nanoseconds + 1_000_000_000
        if estimator.filter.isResting { restSeconds += 1 }
        if let last = lastAttemptNanoseconds, nanoseconds - last < intervalNanoseconds { return }
        // Checked again only after an interval, also when nothing was written (an estimate that
        // did not beat the file's).
        if saveQualifying(estimator) { lastAttemptNanoseconds = nanoseconds }
    }

    /// The stream of `estimator` stops: writes its estimates if they qualify, whenever the last write was.
    public mutating func finish(_ estimator: DeviceMotionEstimator) {
        saveQualifying(estimator)
    }

    /// Saves what qualifies of the estimator's offset and bias; whether anything did (and so
    /// the file was looked at).
    @discardableResult
    private mutating func saveQualifying(_ estimator: DeviceMotionEstimator) -> Bool {
        let offset = offsetCandidate(estimator), bias = biasCandidate(estimator)
        guard failure == nil, offset != nil || bias != nil else { return false }
        save(offset, bias)
        return true
    }

    /// The magnetometer's offset if it qualifies and could beat what was written or found.
    private func offsetCandidate(_ estimator: DeviceMotionEstimator) -> OffsetEstimate? {
        guard let candidate = Self.candidate(estimator), candidate.uncertainty < (best ?? .infinity) else { return nil }
        return candidate
    }

    /// The gyroscope bias (rad/s, device axes) once the filter has learned it (see the type),
    /// if not yet written by this stream.
    private func biasCandidate(_ estimator: DeviceMotionEstimator) -> [Double]? {
        let filter = estimator.filter
        guard !wroteBias, restSeconds >= Self.knownAfterRestSeconds
                || filter.motionBiasTimeConstant.doubleValue >= Self.knownMotionBiasTimeConstant else { return nil }
        return [filter.bias.x.doubleValue, filter.bias.y.doubleValue, filter.bias.z.doubleValue]
    }

    /// The estimator's offset in raw-sample terms (µT) and its uncertainty (1σ, µT), when the
    /// filter knows it to medium accuracy or better and applies it.
    static func candidate(_ estimator: DeviceMotionEstimator) -> OffsetEstimate? {
        let calibration = estimator.filter.filter.calibration
        guard estimator.frame.usesMagnetometer, calibration.accuracy >= 1, calibration.isApplied else { return nil }
        let learned = [calibration.offset.x.doubleValue, calibration.offset.y.doubleValue, calibration.offset.z.doubleValue]
        // The field it leaves, for the next start's check (`DeviceMotionEstimator`): the heading's
        // reference strength, while the field is the Earth's.
        let filter = estimator.filter
        let strength = filter.hasHeading && !filter.isMagneticallyDisturbed ? filter.magneticReferenceNorm.doubleValue : nil
        return (estimator.softIron?.rawOffset(learned: learned) ?? learned, calibration.offsetUncertainty, strength.flatMap { BoardCalibration.magneticFieldStrengths.contains($0) ? $0 : nil })
    }

    /// Whether the estimate is of a different offset than the stored one, not a worse estimate
    /// of the same: farther from it than three standard deviations of the difference (two
    /// estimates of one constant differ by less 99.7 % of the time) and than the 5 µT a stored
    /// offset is taken as known to at the next start (`DeviceMotionEstimator`). Then the device's
    /// offset has moved (a magnetic case, a new mount, a phone's offset between uses: tens of
    /// µT), and the stored one, however well it was known, would start every later run wrong.
    static func hasMoved(_ candidate: OffsetEstimate, from stored: BoardCalibration) -> Bool {
        guard let offset = stored.magnetometerOffset, offset.count == 3, candidate.offset.count == 3 else { return true }
        let storedUncertainty = stored.magnetometerOffsetUncertainty ?? assumedStoredUncertainty
        let distance = zip(candidate.offset, offset).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot()
        let bound = max(5, 3 * (candidate.uncertainty * candidate.uncertainty + storedUncertainty * storedUncertainty).squareRoot())
        return distance > bound
    }

    private mutating func save(_ offset: OffsetEstimate?, _ bias: [Double]?) {
        do throws(EngineError) {
            var stored = try BoardCalibration.load(path: path) ?? BoardCalibration()
            var changed = false
            if let offset {
                let storedUncertainty = stored.magnetometerOffset == nil ? Double.infinity
                    : stored.magnetometerOffsetUncertainty ?? Self.assumedStoredUncertainty
                if offset.uncertainty < storedUncertainty || Self.hasMoved(offset, from: stored) {
                    stored.magnetometerOffset = offset.offset
                    stored.magnetometerOffsetUncertainty = offset.uncertainty
                    stored.magneticFieldStrength = offset.strength
                    best = offset.uncertainty
                    changed = true
                } else {
                    best = storedUncertainty
                }
            }
            if let bias {
                stored.gyroscopeBias = bias
                changed = true
            }
            guard changed else { return }
            try stored.save(path: path, board: board)
            if bias != nil { wroteBias = true }
            saves += 1
        } catch {
            failure = error
        }
    }
}
