public import FixedPoint

/// A correction's time constant that starts short and grows by a second every `period` seconds
/// of use until it settles, as a Kalman filter's gain falls while its uncertainty does: an
/// unknown gyroscope bias is learned within seconds, and the settled estimate is not pulled
/// around by every disturbance afterwards. (The attitude filter's motion bias and heading loops.)
public struct GrowingTimeConstant<Scalar: FusionScalar>: Sendable {
    /// The time constant now, s, and its reciprocal, s⁻¹.
    public private(set) var time, inverse: Scalar
    /// The value where it stops growing, s.
    private let settled: Scalar
    /// Use since it last grew, s.
    private var clock = Scalar.zero

    /// Starts at `start` (at most `settled`), s.
    public init(start: Q32_32, settled: Q32_32) {
        let first = min(start, settled)
        time = Scalar(first)
        inverse = Scalar(first.reciprocal)
        self.settled = Scalar(settled)
    }

    /// `dt` seconds more of use; the time constant grows by one every `period` seconds.
    public mutating func advance(by dt: Scalar, every period: Scalar) {
        guard time < settled else { return }
        clock = clock + dt
        guard clock >= period else { return }
        clock = clock - period
        time = time + .one
        // 1/x as (1/√x)²: the library's reciprocal is its square root's.
        let root = time.reciprocalSquareRoot
        inverse = root * root
    }
}
