/// The timing a client of a live board may count on (issue 11), anchored on Android's
/// Compatibility Definition Document, section 7.3 "Sensors" (Android 9 wording):
///
/// - [C-1-3] "MUST report the first sensor sample within 400 milliseconds + 2 * sample_time of
///   the sensor being activated": `firstSampleBound`.
/// - [C-1-2] "MUST report sensor data with a maximum latency of 100 milliseconds + 2 *
///   sample_time … when the application processor is active. This delay does not include any
///   filtering delays": `deliveryBound`, latency being delivery time − the sample's timestamp,
///   both on CLOCK_MONOTONIC.
/// - [C-1-4] continuous sensors "MUST continuously provide periodic data samples that SHOULD have
///   a jitter below 3%, where jitter is defined as the standard deviation of the difference of
///   the reported timestamp values between consecutive events": `jitterBound`, as a fraction of
///   the nominal period (`TimingMeasurement.jitter`).
///
/// Two clauses of our own complete it: timestamps strictly increase and come from the sample
/// (a data-ready edge, a FIFO frame, the kernel's IIO timestamp, the chip's sample schedule),
/// not from when the runtime happened to read it; and every sample lost (a FIFO overflow, a
/// missed data-ready edge) or delivered twice is counted and reported, never silent.
public struct TimingContract: Sendable, Equatable {
    /// The stream's nominal sample period, nanoseconds.
    public var samplePeriodNanoseconds: Int64

    public init(samplePeriodNanoseconds: Int64) {
        self.samplePeriodNanoseconds = max(1, samplePeriodNanoseconds)
    }

    /// Start → first sample delivered: 400 ms + 2 periods, nanoseconds.
    public var firstSampleBound: Int64 { 400_000_000 + 2 * samplePeriodNanoseconds }
    /// Sample timestamp → delivery: 100 ms + 2 periods, nanoseconds.
    public var deliveryBound: Int64 { 100_000_000 + 2 * samplePeriodNanoseconds }
    /// Standard deviation of consecutive timestamp differences over the period: 3 %.
    public static let jitterBound = 0.03

    /// What `measurement` breaks of the contract, one sentence per clause (empty: it holds).
    /// Drops and duplicates break it only when the runtime did not report them: `reported`
    /// are the runtime's own counts for the stream. `latency: false` leaves out the two
    /// wall-clock clauses (first sample, delivery), which depend on how busy the machine is:
    /// what is left is judged on the samples' timestamps and holds whatever the load.
    public func violations(of measurement: TimingMeasurement, reported: SampleLoss) -> [String] {
        violations(of: measurement, reported: reported, latency: true)
    }

    /// `violations(of:reported:)`, without the wall-clock clauses if `latency` is false.
    public func violations(of measurement: TimingMeasurement, reported: SampleLoss, latency: Bool) -> [String] {
        var broken: [String] = []
        let period = Double(samplePeriodNanoseconds) / 1e6
        if let first = measurement.firstSampleLatencyNanoseconds {
            if latency, first > firstSampleBound {
                broken.append("first sample after \(milliseconds(first)) ms, over 400 ms + 2 × \(period) ms")
            }
        } else {
            broken.append("no sample arrived")
        }
        if latency, let worst = measurement.maximumDeliveryLatencyNanoseconds, worst > deliveryBound {
            broken.append("a sample delivered \(milliseconds(worst)) ms after its timestamp, over 100 ms + 2 × \(period) ms")
        }
        if measurement.nonIncreasingTimestamps > 0 {
            broken.append("\(measurement.nonIncreasingTimestamps) timestamps not after the previous one")
        }
        if let jitter = measurement.jitter, jitter >= Self.jitterBound {
            broken.append("jitter \(percent(jitter)) % of the period, not under 3 %")
        }
        if measurement.loss.dropped > reported.dropped {
            broken.append("\(measurement.loss.dropped) samples missing from the stream but \(reported.dropped) reported dropped")
        }
        if measurement.loss.duplicated > reported.duplicated {
            broken.append("\(measurement.loss.duplicated) samples repeated but \(reported.duplicated) reported duplicated")
        }
        return broken
    }

    private func milliseconds(_ nanoseconds: Int64) -> String { String(Double(nanoseconds / 1000) / 1000) }
    private func percent(_ fraction: Double) -> String { String(Double(Int((fraction * 10_000).rounded())) / 100) }
}

/// Samples lost or delivered twice in one stream.
public struct SampleLoss: Sendable, Equatable {
    /// Samples that should have come (one per period) and did not: FIFO overflows, missed edges.
    public var dropped = 0
    /// Samples that came again (a timestamp not after the previous one's).
    public var duplicated = 0

    public init(dropped: Int = 0, duplicated: Int = 0) {
        self.dropped = dropped
        self.duplicated = duplicated
    }
}

/// What a client saw of one stream: when it started it, and each sample's timestamp with when
/// it was handed over (both CLOCK_MONOTONIC, ns). Keeps every latency and interval (16 bytes a
/// sample) for percentiles: a measuring tool, not a per-sample path of the engine.
public struct TimingMeasurement: Sendable {
    public let samplePeriodNanoseconds: Int64
    public let startNanoseconds: Int64
    private(set) var latencies: [Int64] = []
    /// Consecutive timestamp differences within 1.5 periods (intervals spanning a loss are
    /// counted in `loss`, not in the jitter, as CTS's jitter check also leaves them out).
    private(set) var intervals: [Int64] = []
    public private(set) var firstSampleLatencyNanoseconds: Int64?
    public private(set) var nonIncreasingTimestamps = 0
    public private(set) var loss = SampleLoss()
    public private(set) var sampleCount = 0
    private var lastTimestamp: Int64?

    public init(samplePeriodNanoseconds: Int64, startNanoseconds: Int64) {
        self.samplePeriodNanoseconds = max(1, samplePeriodNanoseconds)
        self.startNanoseconds = startNanoseconds
    }

    /// One sample: its timestamp and the time it reached the client.
    public mutating func record(timestampNanoseconds timestamp: Int64, deliveredNanoseconds delivered: Int64) {
        sampleCount += 1
        if firstSampleLatencyNanoseconds == nil { firstSampleLatencyNanoseconds = delivered - startNanoseconds }
        latencies.append(delivered - timestamp)
        defer { lastTimestamp = max(lastTimestamp ?? timestamp, timestamp) }
        guard let last = lastTimestamp else { return }
        let interval = timestamp - last
        if interval <= 0 {
            nonIncreasingTimestamps += 1
            loss.duplicated += 1
            return
        }
        // More than 1.5 periods: the samples whose slots the interval spans are missing.
        if 2 * interval > 3 * samplePeriodNanoseconds {
            loss.dropped += Int((interval + samplePeriodNanoseconds / 2) / samplePeriodNanoseconds) - 1
        } else {
            intervals.append(interval)
        }
    }

    /// CDD 7.3's jitter: the standard deviation of consecutive timestamp differences, over the
    /// nominal period (0.01 = 1 %); nil until two intervals are known.
    public var jitter: Double? {
        guard intervals.count >= 2 else { return nil }
        let mean = Double(intervals.reduce(0, +)) / Double(intervals.count)
        let variance = intervals.reduce(0.0) { $0 + (Double($1) - mean) * (Double($1) - mean) } / Double(intervals.count - 1)
        return variance.squareRoot() / Double(samplePeriodNanoseconds)
    }

    /// The 99th percentile of |Δt − period| / period: the worst jitter but one in a hundred.
    public var jitterP99: Double? {
        guard !intervals.isEmpty else { return nil }
        let deviations = intervals.map { abs($0 - samplePeriodNanoseconds) }
        return Double(Self.percentile(deviations, 0.99)) / Double(samplePeriodNanoseconds)
    }

    /// The mean interval between samples, nanoseconds (the rate actually delivered).
    public var meanIntervalNanoseconds: Int64? {
        intervals.isEmpty ? nil : intervals.reduce(0, +) / Int64(intervals.count)
    }

    /// Delivery latency at fraction `p` (0.5: median), nanoseconds.
    public func deliveryLatency(percentile p: Double) -> Int64? {
        latencies.isEmpty ? nil : Self.percentile(latencies, p)
    }

    public var maximumDeliveryLatencyNanoseconds: Int64? { latencies.max() }
    public var minimumDeliveryLatencyNanoseconds: Int64? { latencies.min() }

    /// Nearest-rank percentile.
    static func percentile(_ values: [Int64], _ p: Double) -> Int64 {
        let sorted = values.sorted()
        let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}
