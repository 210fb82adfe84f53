/// What a client sends the daemon (PROTOCOL.md, "Client → daemon"). Every request but hello
/// carries a client-chosen `request` number that the daemon's answer repeats.
public enum ClientMessage: Sendable, Equatable {
    /// First frame, exactly once: the magic, the client's protocol version and a name for
    /// `status` (e.g. "CMMotionManager pid 1234").
    case hello(version: UInt16, name: String)
    /// Starts (or changes the interval of) one stream. `interval` s (the raw streams and device
    /// motion; ignored by the others); `from` CLOCK_REALTIME s, the start of a pedometer stream's
    /// cumulative counts (ignored by the others); `frame` the `CMAttitudeReferenceFrame` bit of
    /// a device-motion stream (0: xArbitraryZVertical). Answered by `ok` or `error`.
    case subscribe(request: UInt32, stream: WireStream, interval: Double, from: Double, frame: UInt8)
    /// Stops one stream (answered by `ok`; nothing of it is sent after the `ok`).
    case unsubscribe(request: UInt32, stream: WireStream)
    /// `queryPedometerData(from:to:)`: CLOCK_REALTIME s, [from, to). Answered by `pedometerData`.
    case queryPedometer(request: UInt32, from: Double, to: Double)
    /// `queryActivityStarting(from:to:)`. Answered by `activityRecords`.
    case queryActivity(request: UInt32, from: Double, to: Double)
    /// `CMSensorRecorder.accelerometerData(from:to:)`, at most 12 h a query. Answered by one or
    /// more `accelerometerData` frames, the last one flagged.
    case queryAccelerometer(request: UInt32, from: Double, to: Double)
    /// `recordAccelerometer(forDuration:)`, s, at most 12 h. Answered by `recording`.
    case recordAccelerometer(request: UInt32, duration: Double)
    /// The daemon's status. Answered by `status`.
    case status(request: UInt32)
    /// Starts an altitude stream (version 2): its own altitude stage, relative altitude 0 at its
    /// first update, absolute altitude against `seaLevelPressure` (kPa) known to `uncertainty`
    /// (kPa, one standard deviation). Subscribing again restarts it. Answered by `ok` or `error`.
    case subscribeAltitude(request: UInt32, stream: WireStream, seaLevelPressure: Double, uncertainty: Double)

    public enum MessageType: UInt8 {
        case hello = 0x01, subscribe, unsubscribe, queryPedometer, queryActivity, queryAccelerometer, recordAccelerometer, status
        case subscribeAltitude
    }

    public var request: UInt32 {
        switch self {
        case .hello: 0
        case .subscribe(let request, _, _, _, _), .unsubscribe(let request, _), .queryPedometer(let request, _, _),
             .queryActivity(let request, _, _), .queryAccelerometer(let request, _, _), .recordAccelerometer(let request, _),
             .status(let request), .subscribeAltitude(let request, _, _, _):
            request
        }
    }

    public var frame: Frame {
        var writer = WireWriter()
        let type: MessageType
        switch self {
        case .hello(let version, let name):
            type = .hello
            for byte in Framing.magic { writer.u8(byte) }
            writer.u16(version)
            writer.string(name)
        case .subscribe(let request, let stream, let interval, let from, let frame):
            type = .subscribe
            writer.u32(request)
            writer.u8(stream.rawValue)
            writer.f64(interval)
            writer.f64(from)
            writer.u8(frame)
        case .unsubscribe(let request, let stream):
            type = .unsubscribe
            writer.u32(request)
            writer.u8(stream.rawValue)
        case .queryPedometer(let request, let from, let to), .queryActivity(let request, let from, let to),
             .queryAccelerometer(let request, let from, let to):
            type = switch self {
            case .queryPedometer: .queryPedometer
            case .queryActivity: .queryActivity
            default: .queryAccelerometer
            }
            writer.u32(request)
            writer.f64(from)
            writer.f64(to)
        case .recordAccelerometer(let request, let duration):
            type = .recordAccelerometer
            writer.u32(request)
            writer.f64(duration)
        case .status(let request):
            type = .status
            writer.u32(request)
        case .subscribeAltitude(let request, let stream, let seaLevelPressure, let uncertainty):
            type = .subscribeAltitude
            writer.u32(request)
            writer.u8(stream.rawValue)
            writer.f64(seaLevelPressure)
            writer.f64(uncertainty)
        }
        return Frame(type: type.rawValue, body: writer.bytes)
    }

    /// The message in `frame`; throws what is wrong with it.
    public init(_ frame: Frame) throws(ProtocolError) {
        guard let type = MessageType(rawValue: frame.type) else {
            throw ProtocolError(.unknownMessage, "a client frame of unknown type 0x\(String(frame.type, radix: 16))")
        }
        var reader = WireReader(frame.body, message: "\(type)")
        switch type {
        case .hello:
            try Self.readMagic(&reader)
            self = .hello(version: try reader.u16("version"), name: try reader.string("name"))
        case .subscribe:
            let request = try reader.u32("request")
            let stream = try reader.enumeration("stream") { WireStream(rawValue: $0) }
            self = .subscribe(request: request, stream: stream, interval: try reader.f64("interval"), from: try reader.f64("from"),
                              frame: try reader.u8("frame"))
        case .unsubscribe:
            self = .unsubscribe(request: try reader.u32("request"), stream: try reader.enumeration("stream") { WireStream(rawValue: $0) })
        case .queryPedometer:
            self = .queryPedometer(request: try reader.u32("request"), from: try reader.f64("from"), to: try reader.f64("to"))
        case .queryActivity:
            self = .queryActivity(request: try reader.u32("request"), from: try reader.f64("from"), to: try reader.f64("to"))
        case .queryAccelerometer:
            self = .queryAccelerometer(request: try reader.u32("request"), from: try reader.f64("from"), to: try reader.f64("to"))
        case .recordAccelerometer:
            self = .recordAccelerometer(request: try reader.u32("request"), duration: try reader.f64("duration"))
        case .status:
            self = .status(request: try reader.u32("request"))
        case .subscribeAltitude:
            let request = try reader.u32("request")
            let stream = try reader.enumeration("stream") { WireStream(rawValue: $0) }
            self = .subscribeAltitude(request: request, stream: stream, seaLevelPressure: try reader.f64("seaLevelPressure"),
                                      uncertainty: try reader.f64("uncertainty"))
        }
        try reader.finish()
    }

    static func readMagic(_ reader: inout WireReader) throws(ProtocolError) {
        var magic: [UInt8] = []
        for _ in 0..<4 { magic.append(try reader.u8("magic")) }
        guard magic == Framing.magic else {
            throw ProtocolError(.notThisProtocol, "the first frame does not start with the magic \"OCMD\": the peer is not an OpenCoreMotion client or daemon")
        }
    }
}
