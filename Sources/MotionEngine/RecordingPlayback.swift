public import MotionAlgorithms
public import Recordings

/// Runs a recording through the pipeline, sample by sample, exactly as live samples would go:
/// each recorded SI value is converted to the pipeline's fixed-point formats, checked for time
/// order, and handed to the stages (for now the per-sensor stream statistics; fusion, steps and
/// activity join as they land).
///
/// Used by `motionctl replay` (as fast as possible) and the simulated boards
/// (paced by the recording's timestamps).
public final class RecordingPlayback {
    public let path: String
    public let metadata: RecordingMetadata
    /// Everything seen so far, per sensor.
    public private(set) var summary = StreamSummary()
    private let reader: RecordingReader

    public init(path: String, skipUnknownSensors: Bool = false) throws(EngineError) {
        self.path = path
        do {
            reader = try RecordingReader(path: path, options: .init(skipUnknownSensors: skipUnknownSensors))
        } catch {
            throw .recording(error)
        }
        metadata = reader.metadata
    }

    /// Rows of unknown sensor kinds that were skipped (only with `skipUnknownSensors`).
    public var skippedUnknownSensorRows: Int { reader.skippedUnknownSensorRows }

    /// Reads, converts and processes the next sample; nil at the end of the recording.
    public func step() throws(EngineError) -> SensorReading? {
        try stepRecorded()?.reading
    }

    /// Like `step()`, also returning the sample as recorded (SI units, exact timestamp), for
    /// tools that write it out again (`motionctl record`).
    public func stepRecorded() throws(EngineError) -> (recorded: RecordedSample, reading: SensorReading)? {
        let recorded: RecordedSample?
        do {
            recorded = try reader.next()
        } catch {
            throw .recording(error)
        }
        guard let recorded else { return nil }
        let reading = SensorReading(recorded)
        try summary.record(reading)
        if SensorReading.isSaturated(recorded) { summary.countSaturated(reading.value.channel) }
        return (recorded, reading)
    }

    /// Processes the whole recording; returns the number of samples.
    @discardableResult
    public func run(progress: (SensorReading) -> Void = { _ in }) throws(EngineError) -> Int64 {
        var count: Int64 = 0
        while let reading = try step() {
            count += 1
            progress(reading)
        }
        return count
    }
}
