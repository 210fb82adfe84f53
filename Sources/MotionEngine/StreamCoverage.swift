public import MotionAlgorithms

extension StreamSummary {
    /// A sensor whose samples began well after, or ended well before, the others': a chip that
    /// stopped mid-recording (or was late to start) while the rest went on. Its gaps count only
    /// silences *between* two of its samples, so a stream that simply ends shows none; every
    /// output that needs it stops there without a word (device motion ends with the gyroscope).
    public struct ShortStream: Sendable, Equatable {
        public let channel: SensorChannel
        /// Its first and last sample, and the first and last of any sensor, ns.
        public let firstNanoseconds, lastNanoseconds: Int64
        public let runFirstNanoseconds, runLastNanoseconds: Int64

        /// ns from the run's first sample to this sensor's first (0: not late).
        public var lateNanoseconds: Int64 { firstNanoseconds - runFirstNanoseconds }
        /// ns from this sensor's last sample to the run's last (0: not early).
        public var earlyNanoseconds: Int64 { runLastNanoseconds - lastNanoseconds }
    }

    /// The sensors that began or ended more than a silence before the others (as a live board's
    /// `StallDetector` counts one: 20 of the sensor's sample periods, and at least 0.5 s), in
    /// `SensorChannel` order. The thermometer is left out: boards read a chip's temperature now
    /// and then, and a recording may hold one such row.
    public var shortStreams: [ShortStream] {
        let active = activeChannels
        guard let runFirst = active.map({ self[$0].stream.firstTimestampNanoseconds }).min(),
              let runLast = active.map({ self[$0].stream.lastTimestampNanoseconds }).max() else { return [] }
        return active.compactMap { channel in
            guard channel != .thermometer else { return nil }
            let stream = self[channel].stream
            let silence = max(StallDetector.silentPeriods * stream.smoothedPeriodNanoseconds, StallDetector.minimumSilenceNanoseconds)
            let short = ShortStream(channel: channel, firstNanoseconds: stream.firstTimestampNanoseconds,
                                    lastNanoseconds: stream.lastTimestampNanoseconds,
                                    runFirstNanoseconds: runFirst, runLastNanoseconds: runLast)
            return short.lateNanoseconds > silence || short.earlyNanoseconds > silence ? short : nil
        }
    }
}
