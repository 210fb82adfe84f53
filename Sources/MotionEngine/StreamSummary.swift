public import MotionAlgorithms
public import Recordings

/// What the pipeline has seen of each sensor: the stream's timing (``SampleStreamMonitor``) and
/// its values (``ChannelStatistics``), over the whole run and over the current reporting
/// interval (reset by `startInterval()`, used for the demo's once-a-second line).
public struct StreamSummary: Sendable {
    public struct Channel: Sendable {
        public var stream = SampleStreamMonitor()
        public var total = ChannelStatistics()
        public var interval = ChannelStatistics()
        /// Samples with a value outside the fixed-point range, which were clamped to it
        /// (see `SensorReading.isSaturated`): never expected from a real sensor.
        public var saturatedSamples: Int64 = 0
    }

    /// Indexed by `SensorChannel.rawValue`.
    public private(set) var channels = [Channel](repeating: Channel(), count: SensorChannel.allCases.count)

    public init() {}

    public subscript(channel: SensorChannel) -> Channel { channels[Int(channel.rawValue)] }

    /// Channels that delivered at least one sample, in `SensorChannel` order.
    public var activeChannels: [SensorChannel] {
        SensorChannel.allCases.filter { self[$0].stream.sampleCount > 0 }
    }

    /// Samples seen on all channels.
    public var totalSamples: Int64 { channels.reduce(0) { $0 + $1.stream.sampleCount } }

    /// Accounts for one reading. A reading older than its channel's previous one stops the
    /// pipeline: fusing it out of order would silently corrupt every later output.
    public mutating func record(_ reading: SensorReading) throws(EngineError) {
        let index = Int(reading.value.channel.rawValue)
        let previous = channels[index].stream.lastTimestampNanoseconds
        if channels[index].stream.record(timestampNanoseconds: reading.timestampNanoseconds) == .backwards {
            throw .timestampWentBackwards(
                sensor: SensorKind(reading.value.channel), previousNanoseconds: previous,
                nanoseconds: reading.timestampNanoseconds)
        }
        channels[index].total.add(reading.value)
        channels[index].interval.add(reading.value)
    }

    mutating func countSaturated(_ channel: SensorChannel) {
        channels[Int(channel.rawValue)].saturatedSamples += 1
    }

    /// Starts a new reporting interval.
    public mutating func startInterval() {
        for index in channels.indices { channels[index].interval = ChannelStatistics() }
    }
}

extension SensorKind {
    /// The recording's name for a pipeline channel (the raw values are equal by definition).
    public init(_ channel: SensorChannel) {
        // The raw values are defined to be equal (see SensorChannel).
        self = SensorKind(rawValue: channel.rawValue)!
    }
}

extension SensorChannel {
    public init(_ kind: SensorKind) {
        self = SensorChannel(rawValue: kind.rawValue)!
    }
}
