import MotionAlgorithms

/// Watches one chip's readings for the two ways a chip fails without any bus error:
/// - its outputs **freeze**: the same value over and over. A real sensor's noise spans several
///   counts, so one channel repeating exactly `stuckRepeats` times is a hung ADC or sensing
///   element, not stillness (temperature is exempt: it may sit still for long);
/// - it falls **silent**: no reading for `silentPeriods` sample periods (and at least
///   `minimumSilenceNanoseconds`), its data-ready never set again.
/// Each episode is counted once and reported once; it ends when the chip behaves again.
/// Fixed storage per chip: nothing is allocated per reading.
struct StallDetector {
    static let stuckRepeats = 50
    static let silentPeriods: Int64 = 20
    static let minimumSilenceNanoseconds: Int64 = 500_000_000

    enum Finding: Equatable {
        case stuck(SensorChannel)
        case silent(nanoseconds: Int64)
    }

    /// Per channel (acceleration, angular velocity, magnetic field, pressure): the latest value
    /// and how many times in a row it came again. Inline storage: no heap.
    private var lastValues = InlineArray<4, SensorValue?>(repeating: nil)
    private var repeats = InlineArray<4, Int>(repeating: 0)
    private var lastReadingNanoseconds: Int64?
    private(set) var isStuck = false
    private(set) var isSilent = false

    /// Looks at one reading; returns a finding when a freeze starts.
    mutating func observe(_ reading: SensorReading) -> Finding? {
        lastReadingNanoseconds = reading.timestampNanoseconds
        isSilent = false
        let channel = reading.value.channel
        guard channel != .thermometer else { return nil }
        let index = Int(channel.rawValue)
        let count = lastValues[index] == reading.value ? repeats[index] + 1 : 0
        lastValues[index] = reading.value
        repeats[index] = count
        if count == 0, isStuck { isStuck = (0..<4).contains { repeats[$0] >= Self.stuckRepeats } }
        guard count == Self.stuckRepeats, !isStuck else { return nil }
        isStuck = true
        return .stuck(channel)
    }

    /// After a read at `nowNanoseconds`: returns a finding when a silence starts.
    mutating func check(nowNanoseconds: Int64, samplePeriodNanoseconds: Int64, startNanoseconds: Int64) -> Finding? {
        let since = lastReadingNanoseconds ?? startNanoseconds
        let silence = nowNanoseconds - since
        guard !isSilent, silence >= max(Self.silentPeriods * samplePeriodNanoseconds, Self.minimumSilenceNanoseconds) else { return nil }
        isSilent = true
        return .silent(nanoseconds: silence)
    }
}
