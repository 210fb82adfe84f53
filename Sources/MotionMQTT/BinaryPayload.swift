/// The compact payload (PAYLOADS.md, byte by byte): a 14-byte header — format version, stream
/// code, sequence number, timestamp — then the stream's fields, all little-endian, floats as
/// IEEE 754 binary32. A device-motion message is 84 bytes (its JSON is about 420).
package enum BinaryPayload {
    /// The first byte of every binary payload. A JSON payload starts with `{` (0x7B) instead, so
    /// a subscriber tells the two apart without configuration.
    package static let version: UInt8 = 1
    package static let headerSize = 14

    /// The size of each stream's payload, header included.
    package static func size(of stream: MQTTStream) -> Int {
        headerSize + {
            switch stream {
            case .deviceMotion: 70
            case .pedometer: 44
            case .pedometerEvent: 9
            case .activity: 10
            case .altitude: 8
            case .accelerometer, .gyroscope, .magnetometer: 12
            }
        }()
    }

    package static func encode(_ message: MotionMessage) -> [UInt8] {
        var out = PayloadWriter(capacity: size(of: message.stream))
        out.byte(version)
        out.byte(message.stream.rawValue)
        out.uint32(message.sequence)
        out.int64(message.timestampUnixNanoseconds)
        switch message.fields {
        case .deviceMotion(let m):
            for value in [m.w, m.x, m.y, m.z] { out.float(value) }
            for v in [m.rotationRate, m.gravity, m.userAcceleration, m.magneticField] { out.floats(v) }
            out.float(m.heading)
            out.byte(UInt8(bitPattern: m.magneticAccuracy))
            out.byte(m.referenceFrame)
        case .pedometer(let p):
            out.int64(p.startUnixNanoseconds)
            out.int64(p.endUnixNanoseconds)
            out.uint32(p.numberOfSteps)
            out.float(p.distanceMeters)
            out.uint32(UInt32(bitPattern: p.floorsAscended ?? -1))
            out.uint32(UInt32(bitPattern: p.floorsDescended ?? -1))
            for value in [p.currentPace, p.currentCadence, p.averageActivePace] { out.float(value ?? .nan) }
        case .pedometerEvent(let isResume, let time):
            out.byte(isResume ? 1 : 0)
            out.int64(time)
        case .activity(let a):
            out.byte(a.flags)
            out.byte(a.confidence)
            out.int64(a.startUnixNanoseconds)
        case .altitude(let relative, let pressure):
            out.float(relative)
            out.float(pressure)
        case .vector(let x, let y, let z):
            out.floats((x, y, z))
        }
        return out.bytes
    }

    /// The message in `bytes`, or what is wrong with them (for a person: the subscriber prints it
    /// with the topic).
    package static func decode(_ bytes: [UInt8]) throws(PayloadError) -> MotionMessage {
        guard bytes.count >= headerSize else {
            throw PayloadError("\(bytes.count) bytes is shorter than the \(headerSize)-byte header")
        }
        var input = PayloadReader(bytes)
        let format = input.byte()
        guard format == version else {
            throw PayloadError("payload format version \(format), this build reads version \(version): update the subscriber")
        }
        let code = input.byte()
        guard let stream = MQTTStream(rawValue: code) else { throw PayloadError("unknown stream code \(code)") }
        guard bytes.count == size(of: stream) else {
            throw PayloadError("a \(stream.topicName) payload is \(size(of: stream)) bytes, this one is \(bytes.count)")
        }
        let sequence = input.uint32()
        let timestamp = input.int64()
        let fields: MotionMessage.Fields
        switch stream {
        case .deviceMotion:
            let (w, x, y, z) = (input.float(), input.float(), input.float(), input.float())
            let (rotation, gravity, user, magnetic) = (input.floats(), input.floats(), input.floats(), input.floats())
            fields = .deviceMotion(DeviceMotionFields(w: w, x: x, y: y, z: z, rotationRate: rotation, gravity: gravity,
                                                      userAcceleration: user, magneticField: magnetic, heading: input.float(),
                                                      magneticAccuracy: Int8(bitPattern: input.byte()), referenceFrame: input.byte()))
        case .pedometer:
            let (start, end, steps, distance) = (input.int64(), input.int64(), input.uint32(), input.float())
            let (ascended, descended) = (Int32(bitPattern: input.uint32()), Int32(bitPattern: input.uint32()))
            let (pace, cadence, average) = (input.float(), input.float(), input.float())
            fields = .pedometer(PedometerFields(startUnixNanoseconds: start, endUnixNanoseconds: end, numberOfSteps: steps, distanceMeters: distance,
                                                floorsAscended: ascended < 0 ? nil : ascended, floorsDescended: descended < 0 ? nil : descended,
                                                currentPace: pace.isNaN ? nil : pace, currentCadence: cadence.isNaN ? nil : cadence,
                                                averageActivePace: average.isNaN ? nil : average))
        case .pedometerEvent:
            let kind = input.byte()
            guard kind <= 1 else { throw PayloadError("pedometer event kind \(kind) is neither 0 (pause) nor 1 (resume)") }
            fields = .pedometerEvent(isResume: kind == 1, timeUnixNanoseconds: input.int64())
        case .activity:
            fields = .activity(ActivityFields(flags: input.byte(), confidence: input.byte(), startUnixNanoseconds: input.int64()))
        case .altitude:
            fields = .altitude(relativeAltitudeMeters: input.float(), pressureKilopascals: input.float())
        case .accelerometer, .gyroscope, .magnetometer:
            let v = input.floats()
            fields = .vector(x: v.x, y: v.y, z: v.z)
        }
        return MotionMessage(stream: stream, sequence: sequence, timestampUnixNanoseconds: timestamp, fields: fields)
    }
}

/// Why a payload could not be read.
package struct PayloadError: Error, Sendable, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}

/// Appends little-endian values.
struct PayloadWriter {
    private(set) var bytes: [UInt8]

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func uint32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func int64(_ value: Int64) {
        let bits = UInt64(bitPattern: value)
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    }

    mutating func float(_ value: Float) { uint32(value.bitPattern) }

    mutating func floats(_ v: (x: Float, y: Float, z: Float)) {
        float(v.x)
        float(v.y)
        float(v.z)
    }
}

/// Reads little-endian values; the caller has checked the length.
struct PayloadReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func byte() -> UInt8 {
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint32() -> UInt32 {
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[offset + index]) << UInt32(8 * index) }
        offset += 4
        return value
    }

    mutating func int64() -> Int64 {
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[offset + index]) << UInt64(8 * index) }
        offset += 8
        return Int64(bitPattern: value)
    }

    mutating func float() -> Float { Float(bitPattern: uint32()) }

    mutating func floats() -> (x: Float, y: Float, z: Float) { (float(), float(), float()) }
}
