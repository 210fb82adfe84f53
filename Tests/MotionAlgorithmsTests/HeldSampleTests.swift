import FixedPoint
import MotionAlgorithms
import Testing

/// The latest sample of one sensor is held for another's samples after it, and no longer once
/// the first has been silent for a second.
@Suite struct HeldSampleTests {
    static let rate = FusionVector(x: Q32_32(integer: 1), y: Q32_32(integer: -2), z: Q32_32(integer: 3))

    @Test func nothingIsHeldBeforeTheFirstSample() {
        #expect(HeldSample<FusionVector<Q32_32>>().value(at: 0) == nil)
        #expect(HeldSample<FusionVector<Q32_32>>().value(at: .max) == nil)
    }

    @Test func aSampleIsHeldForASecondAndNoLonger() throws {
        var held = HeldSample<FusionVector<Q32_32>>()
        held.hold(Self.rate, at: 5_000_000_000)
        // The accelerometer's next samples, at its rate or slower than the gyroscope.
        let soon = try #require(held.value(at: 5_010_000_000))
        #expect(soon.x == Self.rate.x && soon.y == Self.rate.y && soon.z == Self.rate.z)
        #expect(held.value(at: 6_000_000_000) != nil)
        // The gyroscope stopped: no rotation rate, as on a board without one.
        #expect(held.value(at: 6_000_000_001) == nil)
        // A new sample holds again, and an accelerometer sample just before it still sees it.
        held.hold(Self.rate, at: 20_000_000_000)
        #expect(held.value(at: 19_990_000_000) != nil)
        #expect(held.value(at: 20_500_000_000) != nil)
    }
}
