/// Step length from cadence and height, the linear frequency model of pedestrian dead
/// reckoning (step length = h · (a·f + b), f the step frequency; the form used by Renaudin,
/// Susi & Lachapelle 2012 and many after), times a per-user scale from
/// `motionctl calibrate stride`.
///
/// Defaults: a = 0.2 s, b = 0.055, so a 1.8 steps/s walk gives 0.415 × height (the classic
/// height rule: 0.71 m for 1.70 m), a slow 1.4 steps/s stroll 0.335 × h and a 2.8 steps/s run
/// 0.615 × h (1.05 m). Cadence is clamped to 1…3.5 steps/s so a mis-timed step cannot give a
/// silly length.
public struct StrideModel: Sendable, Equatable {
    /// The user's height, m.
    public var heightMeters: Double
    /// The user's own correction (1 = the model as published), from a walk of known length.
    public var scale: Double
    public var frequencySlope = 0.2
    public var frequencyIntercept = 0.055

    public init(heightMeters: Double = 1.70, scale: Double = 1) {
        self.heightMeters = heightMeters
        self.scale = scale
    }

    /// Length of one step taken at `cadence` steps/s, m.
    public func stepLength(cadence: Double) -> Double {
        let f = min(max(cadence, 1), 3.5)
        return scale * heightMeters * (frequencySlope * f + frequencyIntercept)
    }
}
