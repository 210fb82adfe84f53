public import FixedPoint

/// Floors climbed and descended from a barometer's altitude, Core Motion's way: about 3 m per
/// floor, counted only while the user is stepping, so lifts and escalators count nothing, and
/// only while the height changes at a climbing pace, so weather drift (≈ 1 hPa per hour, 8 m
/// per hour) never adds up to a floor. It takes the relative altitude of a
/// `BarometricAltimeter` (pressure → height, low-passed with 1 s). Q32.32, no allocation.
///
/// Height gained while not climbing on foot is left out, but the progress already made towards
/// the next floor is kept through a landing, a pause on the stairs or a short break in the step
/// bout (`progressLifetime`): a climb of three floors with two rests still counts three.
/// And since a step bout is confirmed only a few steps after it began, `creditClimb(since:)`
/// gives back what was left out between the bout's first step and its confirmation, as the
/// step counter credits those steps.
public struct FloorCounter: Sendable {
    public private(set) var floorsAscended = 0
    public private(set) var floorsDescended = 0

    private var started = false
    private var altitude = Q32_32.zero
    private var climbRate = Q32_32.zero
    /// The height the next floor is counted from, m.
    private var anchor = Q32_32.zero
    private var idleTime = Q32_32.zero
    /// m, all the height change left out so far (the anchor's moves while not climbing), and
    /// its value every `historyInterval` over the last 8 s with the time it was kept (s on
    /// `clock`), newest at `historyHead - 1`: what `creditClimb(since:)` gives back.
    private var leftOut = Q32_32.zero
    private var history = InlineArray<16, Q32_32>(repeating: .zero)
    private var historyTimes = InlineArray<16, Q32_32>(repeating: .zero)
    private var historyHead = 0
    private var historyCount = 0
    /// s since the first altitude (Q32.32 holds 68 years).
    private var clock = Q32_32.zero

    private let floorHeight = Q32_32(3.0)
    private let minimumClimbRate = Q32_32(0.05)  // m/s: stairs 0.2…0.5, weather 0.002
    private let idleLimit = Q32_32(10.0)         // s without stepping or climbing: not climbing
    /// s idle after which a partly climbed floor is forgotten (a long rest, another staircase).
    private let progressLifetime = Q32_32(60.0)
    /// s the anchor follows the altitude at start: 3 time constants of the altimeter's 1 s
    /// low-pass, so a first reading off by a few pascals (a barometer's first conversion) is
    /// not taken as the ground floor.
    private let warmUp = Q32_32(3.0)
    private let oneThird = Q32_32(1.0 / 3)
    private let climbRateTimeConstant = Q32_32(3.0)  // s, 1 / oneThird
    private let historyInterval = Q32_32(0.5)    // s; 16 of them: 8 s of `leftOut`

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
            // The climb rate, m/s, low-passed with 3 s (`climbRateTimeConstant`).
            let inverseRootDt = dt.reciprocalSquareRoot
            let rate = (height - altitude) * inverseRootDt * inverseRootDt
            climbRate = climbRate + (rate - climbRate) * (dt * oneThird > .one ? .one : dt * oneThird)
        }
        let change = height - altitude
        altitude = height
        let warmingUp = clock < warmUp
        clock = clock + dt
        if warmingUp {
            anchor = height
            return
        }
        let climbing = climbRate > minimumClimbRate || -climbRate > minimumClimbRate
        if stepping, climbing, idleTime >= idleLimit {
            // A climb on foot after a rest: the climb rate (3 s low-pass) saw it start late, so
            // what was left out over its time constant was this climb.
            creditClimb(since: climbRateTimeConstant)
        }
        // Capped at the lifetime: a day of rest must not overflow Q32.32.
        idleTime = stepping && climbing ? .zero : min(idleTime + dt, progressLifetime)
        if !stepping, idleTime < idleLimit { idleTime = idleLimit }
        if idleTime >= idleLimit {
            // Idle, or not on foot: what changes now (weather, a lift) is not climbing. The
            // anchor moves with it, so the progress towards the next floor stays as it was,
            // until the rest has lasted too long to be part of the same climb.
            let moved = anchor
            anchor = idleTime >= progressLifetime ? height : anchor + change
            leftOut = leftOut + (anchor - moved)
        } else {
            while height - anchor >= floorHeight {
                floorsAscended += 1
                anchor = anchor + floorHeight
            }
            while anchor - height >= floorHeight {
                floorsDescended += 1
                anchor = anchor - floorHeight
            }
        }
        record()
    }

    /// Counts the height change left out over the last `seconds` (at most 8 s): a step bout
    /// confirmed now began that long ago, so the climb since its first step was on foot.
    public mutating func creditClimb(since seconds: Q32_32) {
        guard seconds > .zero else { return }
        // The newest kept value from at or before the bout's start (or the oldest kept).
        var then = leftOut
        var back = 1
        while back <= historyCount {
            let index = (historyHead - back) & 15
            then = history[index]
            if clock - historyTimes[index] >= seconds { break }
            back += 1
        }
        anchor = anchor - (leftOut - then)
        leftOut = then
    }

    /// Keeps `leftOut` every `historyInterval`.
    private mutating func record() {
        let newest = historyTimes[(historyHead - 1) & 15]
        guard historyCount == 0 || clock - newest >= historyInterval else { return }
        history[historyHead] = leftOut
        historyTimes[historyHead] = clock
        historyHead = (historyHead + 1) & 15
        historyCount = min(historyCount + 1, 16)
    }
}
