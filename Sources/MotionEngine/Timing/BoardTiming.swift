public import MotionAlgorithms

/// One sensor stream of a board, as a client received it, against the timing contract.
public struct StreamTiming: Sendable {
    public let channel: SensorChannel
    /// The chip that gives it, as the runtime left it: how it was read, where its timestamps
    /// come from, what it counted (overflows, drops, duplicates).
    public let chip: ChipStatus
    public let contract: TimingContract
    public let measurement: TimingMeasurement

    /// What the runtime reported lost and repeated of this stream.
    public var reported: SampleLoss { chip.loss(channel) }

    /// The contract's clauses this stream breaks (empty: it holds).
    public var violations: [String] { violations(latency: true) }

    /// The clauses this stream breaks; `latency: false` leaves out the wall-clock ones (first
    /// sample, delivery latency), which a loaded machine may break (`TimingContract`).
    public func violations(latency: Bool) -> [String] {
        var broken = contract.violations(of: measurement, reported: reported, latency: latency)
        if chip.timestampSource == .read {
            broken.append("timestamps taken at the read, not from the sample (an IIO device read through sysfs: "
                          + "`capture = buffer` takes the kernel's timestamps)")
        }
        return broken
    }
}

/// Runs a board in real time from a cold start and measures every stream it delivers against
/// `TimingContract`, as a client would: "start" is just before the chips are brought up, and
/// each reading's delivery time is CLOCK_MONOTONIC when the runtime hands it over, its
/// timestamp the runtime's board time moved onto CLOCK_MONOTONIC.
public enum BoardTiming {
    /// Measures `description` for `seconds`. `interrupt`, if given, runs once at board time
    /// `interruptAtNanoseconds` between two steps (tests inject faults there). `speed` other
    /// than 1 paces a simulated board faster (0: no pacing): latencies then mean nothing, but
    /// timestamps, losses and repeats are the same.
    public static func measure(_ description: BoardDescription, root: String, seconds: Double, speed: Double = 1,
                               interruptAtNanoseconds: Int64 = .max,
                               interrupt: ((BoardRuntime) -> Void)? = nil) throws(EngineError) -> [StreamTiming] {
        let start = PacedClock.monotonicNanoseconds()
        let runtime = try BoardRuntime(description, root: root, speed: speed)
        let origin = runtime.monotonicOriginNanoseconds
        let chipOfChannel = channelOwners(description)
        var measurements: [TimingMeasurement?] = Array(repeating: nil, count: SensorChannel.allCases.count)
        for (channel, chip) in chipOfChannel.enumerated() {
            guard let chip else { continue }
            let period = runtime.status[chip].samplePeriodNanoseconds(of: SensorChannel.allCases[channel])
            measurements[channel] = TimingMeasurement(samplePeriodNanoseconds: period, startNanoseconds: start)
        }
        let deliver = { (reading: SensorReading) in
            let delivered = PacedClock.monotonicNanoseconds()
            measurements[Int(reading.value.channel.rawValue)]?.record(timestampNanoseconds: origin + reading.timestampNanoseconds,
                                                                     deliveredNanoseconds: delivered)
        }
        let end = Int64(seconds * 1e9)
        if let interrupt, interruptAtNanoseconds < end {
            try runtime.run(untilNanoseconds: interruptAtNanoseconds, deliver: deliver)
            interrupt(runtime)
        }
        try runtime.run(untilNanoseconds: end, deliver: deliver)
        let status = runtime.status
        return SensorChannel.allCases.compactMap { channel in
            guard let chip = chipOfChannel[Int(channel.rawValue)], let measurement = measurements[Int(channel.rawValue)] else { return nil }
            // A kernel IIO device may give part of its family's sensors (its scan elements say
            // which): a silent one is not a stream. An emulated chip gives all of them.
            if measurement.sampleCount == 0, description.chips[chip].bus != .emulated { return nil }
            return StreamTiming(channel: channel, chip: status[chip],
                                contract: TimingContract(samplePeriodNanoseconds: status[chip].samplePeriodNanoseconds(of: channel)),
                                measurement: measurement)
        }
    }

    /// For each sensor channel (by raw value), the index of the chip that gives it (the first,
    /// if two do).
    static func channelOwners(_ description: BoardDescription) -> [Int?] {
        var owners: [Int?] = Array(repeating: nil, count: SensorChannel.allCases.count)
        for (index, chip) in description.chips.enumerated() {
            for channel in chip.channels where owners[Int(channel.rawValue)] == nil {
                owners[Int(channel.rawValue)] = index
            }
        }
        return owners
    }

    /// `description` with every inertial chip (accelerometer, gyroscope) asking for `hertz`:
    /// its driver takes the nearest rate it supports.
    public static func withInertialRate(_ description: BoardDescription, hertz: Int) -> BoardDescription {
        var changed = description
        for index in changed.chips.indices where !changed.chips[index].channels.isDisjoint(with: [.accelerometer, .gyroscope]) {
            changed.chips[index].rateHertz = hertz
        }
        return changed
    }
}
