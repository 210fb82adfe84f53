import FixedPoint

/// The gyroscope's bias about the vertical, learned from the heading's magnetic corrections.
///
/// The accelerometer reveals the bias about the two horizontal axes only (the attitude filter's
/// motion bias estimate); the one about the vertical turns the 6D heading steadily: 5 °/s on the
/// iPhone 5 in phone_attitude, held upright or flat so that the biased axis stays near the
/// vertical for minutes. The heading's proportional correction (time constant τ) then lags by
/// rate × τ: 45° at τ = 9 s. An integral term removes that lag: the corrections' persistent
/// part, mapped onto the device's vertical of the moment, is a bias b (device axes) that turns
/// the heading at −(v · b) (v the vertical in device axes), which the filter then predicts.
/// With gain k = 1/(4τ²) the loop s² + s/τ + k is critically damped (a 5 °/s drift is learned in
/// about 2τ, without overshoot); τ is the heading loop's time constant of the moment, short at
/// the start (`AttitudeFilterSettings.magnetometerStartTimeConstant`).
///
/// Only the part of the rate v · b beyond `magneticBiasDeadBand` is used: the corrections also
/// carry the magnetic field's local distortions as the device moves around a room (1–3° of
/// heading), which the integral would turn into a false rate of a few tenths of a °/s; smaller
/// residual biases are the motion bias estimate's and the proportional correction's business.
/// The band is on that rate about the vertical, the one thing the distortions fake, not on
/// each device axis: per axis, a device whose vertical lies between its axes (a phone at the
/// ear, in a pocket) lost up to √3 × 0.5 °/s of its rate (0.5 °/s on each axis the vertical
/// touches, weighted by the vertical's share), and the heading lagged that rate × τ until the
/// integral had grown past it (phone_attitude's iPhone 5 at the ear, vertical ≈ (0.64, 0.66,
/// −0.36): 0.83 °/s withheld instead of 0.5; heading RMSE after 10 s 12.8° → 12.1°).
public struct MagneticBiasTracking<Scalar: FusionScalar>: Sendable {
    public typealias Vector = FusionVector<Scalar>

    /// The learned bias, rad/s, device axes (each axis within the filter's bias limit).
    public private(set) var bias = Vector.zero
    private let deadBand, limit: Scalar

    public init(settings: AttitudeFilterSettings) {
        deadBand = Scalar(settings.magneticBiasDeadBand)
        limit = Scalar(settings.biasLimit)
    }

    /// The heading offset's change over `dt` seconds the learned bias predicts, rad: −(v · b) dt
    /// with the rate v · b (rad/s) beyond the dead band (`vertical`: the reference frame's z in
    /// device axes, unit).
    @inline(__always)  // on the filter's inout self (see AttitudeFilter's `clamped`)
    public func headingChange(vertical: Vector, dt: Scalar) -> Scalar {
        -beyondDeadBand(vertical.dot(bias)) * dt
    }

    /// One accepted magnetic correction: the heading was `headingError` rad short of the field's,
    /// with the heading loop's time constant τ now (`inverseTime` = 1/τ, s⁻¹).
    public mutating func learn(headingError: Scalar, vertical: Vector, inverseTime: Scalar, dt: Scalar) {
        let halfRate = inverseTime.timesPowerOfTwo(-1)  // 1/(2τ): k = 1/(4τ²), s⁻²
        let step = headingError * halfRate * halfRate * dt
        bias = Vector(x: clamped(bias.x - vertical.x * step), y: clamped(bias.y - vertical.y * step), z: clamped(bias.z - vertical.z * step))
    }

    @inline(__always)
    private func beyondDeadBand(_ value: Scalar) -> Scalar {
        value > deadBand ? value - deadBand : -value > deadBand ? value + deadBand : .zero
    }

    @inline(__always)
    private func clamped(_ value: Scalar) -> Scalar { max(-limit, min(limit, value)) }
}
