import Glibc

/// Paces a replay by the recording's own timestamps: sample time t is released at
/// start + (t − t₀) / speed on CLOCK_MONOTONIC, so a simulated board delivers samples when a real
/// one would. Speed 0 means "as fast as possible" (no waiting).
public struct PacedClock: Sendable {
    public let speed: Double
    private var originNanoseconds: Int64?
    private var wallOriginNanoseconds: Int64 = 0

    public init(speed: Double) {
        self.speed = speed
    }

    /// Sleeps until the sample stamped `timestampNanoseconds` is due.
    public mutating func wait(until timestampNanoseconds: Int64) {
        guard speed > 0 else { return }
        guard let origin = originNanoseconds else {
            originNanoseconds = timestampNanoseconds
            wallOriginNanoseconds = Self.monotonicNanoseconds()
            return
        }
        let due = wallOriginNanoseconds + Int64(Double(timestampNanoseconds - origin) / speed)
        var remaining = due - Self.monotonicNanoseconds()
        // Sleep only for waits above 1 ms: shorter ones are batched with the next sample, which
        // keeps a 1 kHz stream from costing a syscall per sample.
        while remaining > 1_000_000 {
            var request = timespec(tv_sec: Int(remaining / 1_000_000_000), tv_nsec: Int(remaining % 1_000_000_000))
            nanosleep(&request, nil)
            remaining = due - Self.monotonicNanoseconds()
        }
    }

    /// CLOCK_MONOTONIC in nanoseconds.
    public static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
