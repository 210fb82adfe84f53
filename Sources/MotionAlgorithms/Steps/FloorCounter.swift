public import FixedPoint

/// Floors climbed and descended from a barometer's altitude, Core Motion's way: about 3 m per
/// floor, counted only while the user is stepping, so lifts and escalators count nothing, and
/// only while the height changes at a climbing pace, so weather drift (≈ 1 hPa per hour, 8 m
/// per hour) never adds up to a floor. It takes the relative altitude of a
/// `BarometricAltimeter` (pressure → height, low-passed with 1 s). Q32.32, no allocation.
public struct FloorCounter: Sendable {
    public private(set) var floorsAscended = 0
    public private(set) var floorsDescended = 0

    private var started = false
    private var altitude = Q32_32.zero
    private var climbRate = Q32_32.zero
    /// The height the next floor is counted from, m.
    private var anchor = Q32_32.zero
    private var idleTime = Q32_32.zero

    private let floorHeight = Q32_32(3.0)
    private let minimumClimbRate = Q32_32(0.05)  // m/s: stairs 0.2…0.5, weather 0.002
    private let idleLimit = Q32_32(10.0)         // s without stepping or climbing: re-anchor
    private let oneThird = Q32_32(1.0 / 3)

    public init() {}

    /// The altitude now (m, low-passed, any fixed origin), `dt` s after the previous one;
    /// `stepping` says whether the user is taking steps now (without an accelerometer, pass
    /// true: then lifts cannot be told apart).
    public mutating func update(altitude height: Q32_32, dt: Q32_32, stepping: Bool) {
        guard started else {
            started = true
            (altitude, anchor) = (height, height)
            return
        }
        if dt > .zero {
            // The climb rate, m/s, low-passed with 3 s.
            let inverseRootDt = dt.reciprocalSquareRoot
            let rate = (height - altitude) * inverseRootDt * inverseRootDt
            climbRate = climbRate + (rate - climbRate) * (dt * oneThird > .one ? .one : dt * oneThird)
        }
        altitude = height
        let climbing = climbRate > minimumClimbRate || -climbRate > minimumClimbRate
        idleTime = stepping && climbing ? .zero : idleTime + dt
        if idleTime >= idleLimit || !stepping {
            // Idle, or not on foot: what changes now (weather, a lift) is not climbing.
            if !stepping { idleTime = idleLimit }
            anchor = height
            return
        }
        while height - anchor >= floorHeight {
            floorsAscended += 1
            anchor = anchor + floorHeight
        }
        while anchor - height >= floorHeight {
            floorsDescended += 1
            anchor = anchor - floorHeight
        }
    }
}
