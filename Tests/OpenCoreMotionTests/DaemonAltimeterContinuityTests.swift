import MotionEngine
@testable import MotionManagerCore
import Testing

/// Relative altitude from motiond carries on across daemon restarts (the daemon's new stage
/// starts at 0 m): the last value before the break plus the change of absolute altitude over it.
@Suite struct DaemonAltimeterContinuityTests {
    static func update(_ relative: Double, _ absolute: Double) -> AltitudeValues {
        AltitudeValues(timestampNanoseconds: 0, relativeAltitude: relative, pressureKilopascals: 100, absoluteAltitude: absolute,
                       accuracy: 83, precision: 0.1)
    }

    @Test func relativeAltitudeContinuesAcrossRestarts() {
        var continuity = RelativeAltitudeContinuity()
        // Before any break: unchanged.
        #expect(continuity.continued(Self.update(0, 100)).relativeAltitude == 0)
        #expect(continuity.continued(Self.update(0.5, 100.5)).relativeAltitude == 0.5)
        // Restarted while 1.5 m were climbed: 0.5 + 1.5 = 2, then on from there.
        continuity.resume()
        #expect(continuity.continued(Self.update(0, 102)).relativeAltitude == 2)
        #expect(continuity.continued(Self.update(0.25, 102.25)).relativeAltitude == 2.25)
        // Again, 1.25 m down meanwhile: 2.25 − 1.25 = 1; the other fields pass through.
        continuity.resume()
        let after = continuity.continued(Self.update(0, 101))
        #expect(after.relativeAltitude == 1 && after.absoluteAltitude == 101 && after.accuracy == 83)
        // A resume before any update has nothing to continue from.
        var fresh = RelativeAltitudeContinuity()
        fresh.resume()
        #expect(fresh.continued(Self.update(0, 50)).relativeAltitude == 0)
    }
}
