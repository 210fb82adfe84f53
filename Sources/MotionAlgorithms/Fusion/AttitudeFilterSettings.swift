public import FixedPoint

/// The attitude filter's settings, in human units (Q32.32: exact, and converted to the filter's
/// coefficients in integer arithmetic, so that a Cortex-M0 needs no floating point), with
/// their defaults. The time constants are
/// those of VQF (Laidig & Seel, "VQF: Highly accurate IMU orientation estimation with bias
/// estimation and magnetic disturbance rejection", Information Fusion 91, 2023), whose structure
/// this filter follows; the values are physical choices, not fitted to any recording.
public struct AttitudeFilterSettings: Sendable, Equatable {
    /// Time constant of the accelerometer's low-pass filter in the almost-inertial frame, s:
    /// how long a linear acceleration must last before it tilts the estimate.
    public var accelerometerTimeConstant = Q32_32(integer: 3)
    /// Time constant of the heading correction by the magnetometer, s.
    public var magnetometerTimeConstant = Q32_32(integer: 9)
    /// … from this one at start, growing by a second every four seconds the field corrects the
    /// heading (or the device rests) until it reaches `magnetometerTimeConstant` (after 28 s), s.
    /// The loop also learns the gyroscope's bias about the vertical (`MagneticBiasTracking`),
    /// which only the magnetometer sees in motion: 5 °/s on phone_attitude's iPhone 5, up to
    /// 20 °/s for an MPU-6050. With 9 s from the start, such a drift is learned in about a minute
    /// and turns the heading 30–50° meanwhile. Estimating a heading and a constant rate from t
    /// seconds of equally weighted measurements (least squares) gives a loop whose time constant
    /// is t/4, hence the growth; the start is 2 s, not less, because a loop that fast learns a
    /// disturbed field's few seconds as a bias (phone_attitude's disturbed Nexus 5: 0.7 °/s from
    /// its first 10 s, then 70° of drift under a minute of rejected field, at 1 s). The same
    /// time constant sets the proportional correction, and the loop stays critically damped.
    public var magnetometerStartTimeConstant = Q32_32(integer: 2)
    /// Rest: the gyroscope within this of its 0.5 s average, rad/s (2 °/s: round(2π/180 × 2³²)) …
    public var restGyroscopeThreshold = Q32_32(rawValue: 149_922_641)
    /// … and the accelerometer within this of its average, m/s² …
    public var restAccelerometerThreshold = Q32_32(numerator: 1, denominator: 2)
    /// … for at least this long, s.
    public var restMinimumDuration = Q32_32(numerator: 3, denominator: 2)
    /// Time constant of the averages rest detection compares with, s.
    public var restFilterTimeConstant = Q32_32(numerator: 1, denominator: 2)
    /// Time constant with which the gyroscope bias follows the gyroscope's average at rest, s.
    public var restBiasTimeConstant = Q32_32(integer: 2)
    /// Time constant with which the inclination corrections pull the bias estimate in motion, s.
    public var motionBiasTimeConstant = Q32_32(integer: 100)
    /// … from this one at start, growing by a second every two seconds of motion until it
    /// reaches `motionBiasTimeConstant` (as a Kalman filter's gain falls with its uncertainty), s.
    /// A gyroscope just switched on has an unknown zero-rate offset (±20 °/s for an MPU-6050,
    /// 5.5 °/s on the iPhone 5 in phone_attitude), and every °/s of it tilts the estimate by
    /// about 3° (the accelerometer's 3 s) until it is learned: at 100 s from the start that is
    /// minutes. 12 s is four times the accelerometer's time constant, where the loop the two
    /// form is critically damped (ζ = ½√(12/3) = 1): the faster start does not ring. A stored
    /// bias (an earlier run's, `OnlineCalibrationSaver`) starts here too: it starts the estimate
    /// nearer, but a zero-rate offset moves with temperature between runs.
    public var motionBiasStartTimeConstant = Q32_32(integer: 12)
    /// The bias estimate is clamped to this, rad/s (10 °/s: MEMS gyroscopes' zero-rate offset
    /// tolerance runs from ±3 °/s (BMI160) to ±20 °/s (MPU-6050), and phones' reach 5 °/s), so
    /// that no motion mistaken for rest can run it away. round(10π/180 × 2³²).
    public var biasLimit = Q32_32(rawValue: 749_613_206)
    /// A magnetometer sample whose field strength differs from the reference by more than this
    /// fraction, or whose dip angle by more than `magneticDipThreshold`, is a disturbance: it
    /// does not correct the heading.
    public var magneticNormThreshold = Q32_32(numerator: 1, denominator: 10)
    /// rad (10°: round(10π/180 × 2³²)).
    public var magneticDipThreshold = Q32_32(rawValue: 749_613_206)
    /// A field that stays disturbed but steady this long becomes the new reference, s (the
    /// device was moved to a place whose field differs).
    public var magneticNewReferenceTime = Q32_32(integer: 20)
    /// The heading correction converges as a running mean (gain 1/n) until its gain falls to
    /// the time constant's: the first samples set the heading fast.
    public var fastMagneticConvergence = true

    /// The magnetometer is used at most this often, s (50 Hz: ample for a heading corrected
    /// with a 9 s time constant; faster magnetometers' extra samples are skipped).
    public var magnetometerInterval = Q32_32(numerator: 1, denominator: 50)
    /// The gyroscope bias learned from the heading's corrections (`MagneticBiasTracking`) is used
    /// only beyond this, rad/s of its rate about the vertical (0.5 °/s: round(0.5π/180 × 2³²)):
    /// below, the corrections' rate is as much the room's field distortions as a bias.
    public var magneticBiasDeadBand = Q32_32(rawValue: 37_480_660)
    /// The slow part of the filter runs at most this often, s (25 Hz): the rest averages (time
    /// constant 0.5 s: a step of 0.08 of it) and the bias at rest (2 s), the gyroscope bias
    /// estimate in motion (time constant 12…100 s) and the lagged axes it needs (a 3 s low-pass
    /// filter), and the renormalisation of the integrated gyroscope quaternion (whose steps are
    /// unit to θ⁴/192, so only rounding moves its norm: < 10⁻⁹ between two). At 286 Hz this runs
    /// one sample in eleven, at a phone's 100 Hz one in four. At 50 Hz it was a sixth of the time
    /// per sample at 100 Hz (one in two), for 0.007° less inclination error on phone_attitude's
    /// phones (6.522° against 6.529°) and nothing on BROAD or RepoIMU: at 25 Hz 6D fusion at
    /// 100 Hz takes under half of VQF's time (docs/accuracy.md).
    public var slowInterval = Q32_32(numerator: 1, denominator: 25)
    /// Whether the magnetometer's hard-iron offset is estimated online (`MagnetometerCalibration`).
    public var magnetometerCalibration = true
    /// 1σ of the offset before any sample, µT: 300 for an unknown device (a phone's offsets
    /// reach hundreds of µT), a few µT when a stored calibration is given.
    public var magnetometerOffsetUncertainty = Q32_32(integer: 300)

    public init() {}
}
