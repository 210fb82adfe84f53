/// The pedometer's running totals, booked step by step: count, distance from the stride model
/// at the current cadence, and active time (the intervals between steps shorter than 2 s;
/// pauses are not active time).
public struct PedometerTotals: Sendable, Equatable {
    public let stride: StrideModel
    public private(set) var numberOfSteps = 0
    /// m.
    public private(set) var distanceMeters = 0.0
    /// ns.
    public private(set) var activeNanoseconds: Int64 = 0
    /// Distance covered during the active time, m (for the average active pace).
    private var activeDistanceMeters = 0.0
    /// The last credited step's time, ns.
    public private(set) var lastStep: Int64?
    /// Smoothed interval between steps, ns: a quarter of the way per step, so cadence follows a
    /// change of pace within about four steps.
    private var stepInterval = 1e9 / 1.8

    public init(stride: StrideModel) {
        self.stride = stride
    }

    /// Steps per second of the latest steps.
    public var cadence: Double { 1e9 / stepInterval }

    /// Average pace while stepping, s/m, nil before any active time.
    public var averageActivePace: Double? {
        activeDistanceMeters > 0 ? Double(activeNanoseconds) / 1e9 / activeDistanceMeters : nil
    }

    /// Books one credited step at `time` (ns) and returns it with its length.
    public mutating func credit(_ time: Int64) -> PedometerOutput {
        numberOfSteps += 1
        let previous = lastStep
        lastStep = time
        guard let previous, time > previous, time - previous < 2_000_000_000 else {
            // A bout's first step: no interval yet, so the cadence of the last bout.
            let length = stride.stepLength(cadence: cadence)
            distanceMeters += length
            return .step(timeNanoseconds: time, lengthMeters: length)
        }
        stepInterval += (Double(time - previous) - stepInterval) / 4
        let length = stride.stepLength(cadence: cadence)
        activeNanoseconds += time - previous
        activeDistanceMeters += length
        distanceMeters += length
        return .step(timeNanoseconds: time, lengthMeters: length)
    }
}
