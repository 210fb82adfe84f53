@testable import MotionEngine
import Testing

/// A bout held through a vehicle call loses no step when it is credited, however long it is.
@Suite struct HeldBoutTests {
    /// Steps (ns) every `interval` ns from `start`, with a little jitter so that the times are not
    /// recoverable by a rule that only knows the rhythm.
    static func walk(count: Int, start: Int64 = 5_000_000_000, interval: Int64 = 550_000_000) -> [Int64] {
        (0..<count).map { start + Int64($0) * interval + Int64(($0 * 37) % 11) * 3_000_000 }
    }

    static func released(_ steps: [Int64]) -> (credited: [Int64], first: Int64?) {
        var bout = HeldBout()
        bout.start()
        for step in steps { bout.append(step) }
        var credited: [Int64] = []
        let first = bout.release { credited.append($0) }
        #expect(!bout.isHolding)
        return (credited, first)
    }

    @Test func aShortBoutIsCreditedAtItsStepsTimes() {
        let steps = Self.walk(count: 20)
        let (credited, first) = Self.released(steps)
        #expect(credited == steps)
        #expect(first == steps[0])
    }

    @Test func aBoutLongerThanTheRingLosesNoStep() {
        for count in [32, 33, 50, 200] {
            let steps = Self.walk(count: count)
            let (credited, first) = Self.released(steps)
            #expect(credited.count == count, "\(credited.count) of \(count) held steps credited")
            #expect(first == steps[0])
            #expect(credited.first == steps[0])
            // The newest 32 at their own times; the older ones in order, each within the
            // walk's interval of its true time (the bout's rhythm).
            #expect(Array(credited.suffix(32)) == Array(steps.suffix(32)), "\(count) steps")
            #expect(zip(credited, credited.dropFirst()).allSatisfy { $0 < $1 }, "\(count) steps: not in time order")
            #expect(zip(credited, steps).allSatisfy { abs($0 - $1) < 550_000_000 }, "\(count) steps")
        }
    }

    @Test func aDroppedBoutCreditsNothingAndTheNextStartsEmpty() {
        var bout = HeldBout()
        bout.start()
        for step in Self.walk(count: 40) { bout.append(step) }
        bout.drop()
        #expect(!bout.isHolding && bout.count == 0)
        bout.start()
        bout.append(1_000)
        var credited: [Int64] = []
        #expect(bout.release { credited.append($0) } == 1_000)
        #expect(credited == [1_000])
    }
}
