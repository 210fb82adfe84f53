/// What the daemon sends a client (PROTOCOL.md, "Daemon → client").
public enum DaemonMessage: Sendable, Equatable {
    /// The answer to hello: the daemon's protocol and software versions, its board, and what
    /// this client may do. `clockOffset` is CLOCK_REALTIME − CLOCK_MONOTONIC (s) as the daemon
    /// fixed it at start: wire times minus it are the engine's CLOCK_MONOTONIC times.
    case welcome(Welcome)
    /// A subscribe or unsubscribe was applied.
    case ok(request: UInt32)
    /// Samples of one stream, oldest first.
    case samples(SampleBatch)
    /// Updates of `stream` that this client did not read in time and were dropped: `count`
    /// since the last notice, `total` since it subscribed. Sent before the next batch.
    case dropped(stream: WireStream, count: UInt64, total: UInt64)
    case pedometerData(request: UInt32, PedometerSample)
    case activityRecords(request: UInt32, [ActivitySample])
    /// A part of an accelerometer query's answer; `isLast` on the final one (possibly empty).
    case accelerometerData(request: UInt32, isLast: Bool, [RecordedSample])
    /// Recording is on until `until` (CLOCK_REALTIME s).
    case recording(request: UInt32, until: Double)
    case status(request: UInt32, DaemonStatus)
    /// A typed error: `request` 0 when it is about the connection (then the daemon closes it).
    case error(request: UInt32, code: WireErrorCode, message: String, advice: String)
    /// A second of a batched stream (version 3).
    case batch(SensorBatch)
    /// Whole batches of a batched stream dropped because this client did not read in time
    /// (version 3); sent before the stream's next batch.
    case droppedBatches(BatchDrops)

    public struct Welcome: Sendable, Equatable {
        public var version: UInt16
        public var daemonVersion: String
        public var boardName: String
        public var sensors: WireSensors
        public var authorization: WireAuthorization
        /// Whether history queries are allowed (the policy can restrict them).
        public var historyAllowed: Bool
        /// CLOCK_REALTIME − CLOCK_MONOTONIC, s.
        public var clockOffset: Double
        /// The batched streams' rates, Hz: the board's FIFO IMU at its highest rate, and device
        /// motion at about 200 Hz (0: no IMU read through a FIFO). Sent from version 3 on.
        public var accelerometerBatchHertz: UInt16
        public var deviceMotionBatchHertz: UInt16

        public init(version: UInt16 = Framing.version, daemonVersion: String, boardName: String, sensors: WireSensors,
                    authorization: WireAuthorization, historyAllowed: Bool, clockOffset: Double,
                    accelerometerBatchHertz: UInt16 = 0, deviceMotionBatchHertz: UInt16 = 0) {
            (self.version, self.daemonVersion, self.boardName, self.sensors) = (version, daemonVersion, boardName, sensors)
            (self.authorization, self.historyAllowed, self.clockOffset) = (authorization, historyAllowed, clockOffset)
            (self.accelerometerBatchHertz, self.deviceMotionBatchHertz) = (accelerometerBatchHertz, deviceMotionBatchHertz)
        }
    }

    public enum MessageType: UInt8 {
        case welcome = 0x81, ok, samples, dropped, pedometerData, activityRecords, accelerometerData, recording, status
        case batch = 0x8A, droppedBatches
        case error = 0x8F
    }

    public var frame: Frame {
        var writer = WireWriter()
        let type: MessageType
        switch self {
        case .welcome(let welcome):
            type = .welcome
            for byte in Framing.magic { writer.u8(byte) }
            writer.u16(welcome.version)
            writer.string(welcome.daemonVersion)
            writer.string(welcome.boardName)
            writer.u8(welcome.sensors.rawValue)
            writer.u8(welcome.authorization.rawValue)
            writer.u8(welcome.historyAllowed ? 1 : 0)
            writer.f64(welcome.clockOffset)
            if welcome.version >= 3 {
                writer.u16(welcome.accelerometerBatchHertz)
                writer.u16(welcome.deviceMotionBatchHertz)
            }
        case .ok(let request):
            type = .ok
            writer.u32(request)
        case .samples(let batch):
            type = .samples
            writer = WireWriter(reservingCapacity: 8 + batch.count * 40)
            writer.u8(batch.stream.rawValue)
            writer.count(batch.count)
            switch batch {
            case .vectors(_, let samples): for sample in samples { writer.vectorSample(sample) }
            case .deviceMotion(let samples): for sample in samples { writer.deviceMotionSample(sample) }
            case .pedometer(let samples): for sample in samples { writer.pedometerSample(sample) }
            case .pedometerEvents(let samples): for sample in samples { writer.pedometerEventSample(sample) }
            case .activity(let samples): for sample in samples { writer.activitySample(sample) }
            case .altitude(_, let samples): for sample in samples { writer.altitudeSample(sample) }
            }
        case .batch(let batch):
            type = .batch
            writer = WireWriter(reservingCapacity: 32 + batch.count * (batch.stream == .batchedAccelerometer ? 32 : 146))
            writer.sensorBatch(batch)
        case .droppedBatches(let drops):
            type = .droppedBatches
            writer.batchDrops(drops)
        case .dropped(let stream, let count, let total):
            type = .dropped
            writer.u8(stream.rawValue)
            writer.u64(count)
            writer.u64(total)
        case .pedometerData(let request, let sample):
            type = .pedometerData
            writer.u32(request)
            writer.pedometerSample(sample)
        case .activityRecords(let request, let records):
            type = .activityRecords
            writer.u32(request)
            writer.count(records.count)
            for record in records { writer.activitySample(record) }
        case .accelerometerData(let request, let isLast, let samples):
            type = .accelerometerData
            writer = WireWriter(reservingCapacity: 10 + samples.count * 40)
            writer.u32(request)
            writer.u8(isLast ? 1 : 0)
            writer.count(samples.count)
            for sample in samples { writer.recordedSample(sample) }
        case .recording(let request, let until):
            type = .recording
            writer.u32(request)
            writer.f64(until)
        case .status(let request, let status):
            type = .status
            writer.u32(request)
            writer.daemonStatus(status)
        case .error(let request, let code, let message, let advice):
            type = .error
            writer.u32(request)
            writer.u8(code.rawValue)
            writer.string(message)
            writer.string(advice)
        }
        return Frame(type: type.rawValue, body: writer.bytes)
    }

    /// The message in `frame`; throws what is wrong with it.
    public init(_ frame: Frame) throws(ProtocolError) {
        guard let type = MessageType(rawValue: frame.type) else {
            throw ProtocolError(.unknownMessage, "a daemon frame of unknown type 0x\(String(frame.type, radix: 16))")
        }
        var reader = WireReader(frame.body, message: "\(type)")
        switch type {
        case .welcome:
            try ClientMessage.readMagic(&reader)
            let version = try reader.u16("version")
            let daemonVersion = try reader.string("daemonVersion"), boardName = try reader.string("boardName")
            let sensors = WireSensors(rawValue: try reader.u8("sensors"))
            let authorization = try reader.enumeration("authorization") { WireAuthorization(rawValue: $0) }
            let history = try reader.u8("historyAllowed") != 0
            let clockOffset = try reader.f64("clockOffset")
            let batchRates = version >= 3 ? (try reader.u16("accelerometerBatchHertz"), try reader.u16("deviceMotionBatchHertz")) : (0, 0)
            self = .welcome(Welcome(version: version, daemonVersion: daemonVersion, boardName: boardName, sensors: sensors,
                                    authorization: authorization, historyAllowed: history, clockOffset: clockOffset,
                                    accelerometerBatchHertz: batchRates.0, deviceMotionBatchHertz: batchRates.1))
        case .ok:
            self = .ok(request: try reader.u32("request"))
        case .samples:
            self = .samples(try Self.readBatch(&reader))
        case .dropped:
            self = .dropped(stream: try reader.enumeration("stream") { WireStream(rawValue: $0) }, count: try reader.u64("count"),
                            total: try reader.u64("total"))
        case .pedometerData:
            self = .pedometerData(request: try reader.u32("request"), try reader.pedometerSample())
        case .activityRecords:
            let request = try reader.u32("request")
            self = .activityRecords(request: request, try reader.list("records", minimumElementSize: WireReader.activitySampleSize) { reader throws(ProtocolError) in
                try reader.activitySample()
            })
        case .accelerometerData:
            let request = try reader.u32("request")
            let isLast = try reader.u8("isLast") != 0
            self = .accelerometerData(request: request, isLast: isLast, try reader.list("samples", minimumElementSize: WireReader.recordedSampleSize) {
                reader throws(ProtocolError) in try reader.recordedSample()
            })
        case .recording:
            self = .recording(request: try reader.u32("request"), until: try reader.f64("until"))
        case .status:
            self = .status(request: try reader.u32("request"), try reader.daemonStatus())
        case .error:
            let request = try reader.u32("request")
            let code = try reader.enumeration("code") { WireErrorCode(rawValue: $0) }
            self = .error(request: request, code: code, message: try reader.string("message"), advice: try reader.string("advice"))
        case .batch:
            self = .batch(try reader.sensorBatch())
        case .droppedBatches:
            self = .droppedBatches(try reader.batchDrops())
        }
        try reader.finish()
    }

    private static func readBatch(_ reader: inout WireReader) throws(ProtocolError) -> SampleBatch {
        let stream = try reader.enumeration("stream") { WireStream(rawValue: $0) }
        switch stream {
        case .accelerometer, .gyroscope, .magnetometer:
            return .vectors(stream, try reader.list("samples", minimumElementSize: WireReader.vectorSampleSize) { reader throws(ProtocolError) in try reader.vectorSample() })
        case .deviceMotion:
            return .deviceMotion(try reader.list("samples", minimumElementSize: WireReader.deviceMotionSampleSize) { reader throws(ProtocolError) in try reader.deviceMotionSample() })
        case .pedometer:
            return .pedometer(try reader.list("samples", minimumElementSize: WireReader.pedometerSampleSize) { reader throws(ProtocolError) in try reader.pedometerSample() })
        case .pedometerEvents:
            return .pedometerEvents(try reader.list("samples", minimumElementSize: WireReader.pedometerEventSampleSize) { reader throws(ProtocolError) in try reader.pedometerEventSample() })
        case .activity:
            return .activity(try reader.list("samples", minimumElementSize: WireReader.activitySampleSize) { reader throws(ProtocolError) in try reader.activitySample() })
        case .relativeAltitude, .absoluteAltitude:
            return .altitude(stream, try reader.list("samples", minimumElementSize: WireReader.altitudeSampleSize) { reader throws(ProtocolError) in try reader.altitudeSample() })
        case .batchedAccelerometer, .batchedDeviceMotion:
            throw ProtocolError(.malformed, "samples: the batched stream \(stream.name) comes in batch messages only")
        }
    }
}
