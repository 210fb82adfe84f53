import Foundation
@testable import MotionMQTT
import Testing

/// The binary payload byte by byte (PAYLOADS.md) and the JSON form.
struct PayloadTests {
    static let motion = MotionMessage(
        stream: .deviceMotion, sequence: 0x0102_0304, timestampUnixNanoseconds: 0x1122_3344_5566_7788,
        fields: .deviceMotion(DeviceMotionFields(w: 1, x: 0, y: 0, z: 0, rotationRate: (0.5, -0.25, 2), gravity: (0, 0, -1),
                                                 userAcceleration: (0.125, 0, 0), magneticField: (20, -5, -40), heading: 90,
                                                 magneticAccuracy: -1, referenceFrame: 4)))

    @Test func theHeaderIsLittleEndianVersionStreamSequenceTimestamp() {
        let bytes = BinaryPayload.encode(Self.motion)
        #expect(bytes.count == 84)
        #expect(Array(bytes[0..<14]) == [1, 1, 0x04, 0x03, 0x02, 0x01, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11])
        // w = 1.0f = 0x3F800000, little-endian.
        #expect(Array(bytes[14..<18]) == [0x00, 0x00, 0x80, 0x3F])
        // rotation rate x = 0.5f = 0x3F000000 at offset 30.
        #expect(Array(bytes[30..<34]) == [0x00, 0x00, 0x00, 0x3F])
        // heading 90.0f = 0x42B40000 at 78, then accuracy −1 and the frame.
        #expect(Array(bytes[78..<84]) == [0x00, 0x00, 0xB4, 0x42, 0xFF, 4])
    }

    @Test func everyStreamRoundTrips() throws {
        let messages: [MotionMessage] = [
            Self.motion,
            MotionMessage(stream: .pedometer, sequence: 7, timestampUnixNanoseconds: 5_000,
                          fields: .pedometer(PedometerFields(startUnixNanoseconds: 1_000, endUnixNanoseconds: 5_000, numberOfSteps: 18,
                                                             distanceMeters: 12.5, floorsAscended: 2, floorsDescended: nil, currentPace: 0.75,
                                                             currentCadence: nil, averageActivePace: 0.8))),
            MotionMessage(stream: .pedometerEvent, sequence: 1, timestampUnixNanoseconds: 9, fields: .pedometerEvent(isResume: true, timeUnixNanoseconds: 8)),
            MotionMessage(stream: .activity, sequence: 2, timestampUnixNanoseconds: 10,
                          fields: .activity(ActivityFields(flags: 0b10, confidence: 2, startUnixNanoseconds: -3))),
            MotionMessage(stream: .altitude, sequence: 3, timestampUnixNanoseconds: 11, fields: .altitude(relativeAltitudeMeters: -1.5, pressureKilopascals: 101.325)),
            MotionMessage(stream: .gyroscope, sequence: .max, timestampUnixNanoseconds: .max, fields: .vector(x: 1, y: -2, z: 3)),
        ]
        for message in messages {
            let bytes = BinaryPayload.encode(message)
            #expect(bytes.count == BinaryPayload.size(of: message.stream), "\(message.stream)")
            #expect(try BinaryPayload.decode(bytes) == message)
        }
    }

    @Test func badPayloadsSayWhatIsWrong() {
        var bytes = BinaryPayload.encode(Self.motion)
        #expect(throws: PayloadError.self) { try BinaryPayload.decode(Array(bytes.prefix(10))) }
        #expect(throws: PayloadError.self) { try BinaryPayload.decode(Array(bytes.dropLast())) }
        bytes[0] = 2
        do {
            _ = try BinaryPayload.decode(bytes)
            Issue.record("version 2 was accepted")
        } catch {
            #expect(error.description.contains("version 2"))
        }
        bytes[0] = 1
        bytes[1] = 99
        #expect(throws: PayloadError.self) { try BinaryPayload.decode(bytes) }
    }

    @Test func jsonHasCoreMotionNamesAndNullForMissingValues() throws {
        let text = JSONPayload.encode(MotionMessage(
            stream: .pedometer, sequence: 4, timestampUnixNanoseconds: 1_795_000_000_123_456_789,
            fields: .pedometer(PedometerFields(startUnixNanoseconds: 1, endUnixNanoseconds: 2, numberOfSteps: 3, distanceMeters: 2.5,
                                               floorsAscended: nil, floorsDescended: nil, currentPace: nil, currentCadence: 1.75,
                                               averageActivePace: .nan))))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["stream"] as? String == "pedometer")
        #expect((object["t"] as? NSNumber)?.int64Value == 1_795_000_000_123_456_789)
        #expect(object["numberOfSteps"] as? Int == 3)
        #expect(object["currentCadence"] as? Double == 1.75)
        #expect(object["floorsAscended"] is NSNull)
        #expect(object["averageActivePace"] is NSNull)

        let motion = try #require(try JSONSerialization.jsonObject(with: Data(JSONPayload.encode(Self.motion).utf8)) as? [String: Any])
        #expect((motion["rotationRate"] as? [String: Double])?["y"] == -0.25)
        #expect(motion["magneticAccuracy"] as? Int == -1)
    }

    @Test func aSubscriberTellsBinaryFromJSONAndChecksTheTopic() {
        let binary = MotionSubscriber.decode(topic: "lab/cart-7/device-motion", prefix: "lab", payload: BinaryPayload.encode(Self.motion), retained: false)
        guard case .motion(let board, let message) = binary else { Issue.record("\(binary)"); return }
        #expect(board == "cart-7" && message == Self.motion)
        let json = MotionSubscriber.decode(topic: "lab/cart-7/device-motion", prefix: "lab", payload: Array(JSONPayload.encode(Self.motion).utf8), retained: false)
        guard case .json(_, .deviceMotion, _) = json else { Issue.record("\(json)"); return }
        let mismatch = MotionSubscriber.decode(topic: "lab/cart-7/pedometer", prefix: "lab", payload: BinaryPayload.encode(Self.motion), retained: false)
        guard case .unreadable = mismatch else { Issue.record("a device-motion payload on the pedometer topic was accepted"); return }
    }
}
