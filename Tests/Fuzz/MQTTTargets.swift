// What a remote board publishes arrives from the network: anyone who can publish to the
// broker under the prefix chooses the topic and the payload.
@testable internal import MotionMQTT

enum MQTTTargets {
    /// BinaryPayload.decode; what decodes re-encodes stably (decode(encode(m)) encodes the same).
    static func binaryPayload(_ bytes: UnsafeRawBufferPointer) {
        guard let message = try? BinaryPayload.decode(Array(bytes)) else { return }
        let encoded = BinaryPayload.encode(message)
        guard let again = try? BinaryPayload.decode(encoded) else {
            return fuzzCheck(false, "a decoded payload does not decode after re-encoding: \(message)")
        }
        fuzzCheck(BinaryPayload.encode(again) == encoded, "payload re-encoding is not stable: \(message) vs \(again)")
        _ = JSONPayload.encode(message)
    }

    /// The subscriber's decoding of a whole message: the input is "topic NUL payload" (no NUL:
    /// all topic), the prefix "ocm", retained when the input's length is odd.
    static func message(_ bytes: UnsafeRawBufferPointer) {
        let split = bytes.firstIndex(of: 0) ?? bytes.count
        let topic = String(decoding: bytes[..<split], as: UTF8.self)
        let payload = split < bytes.count ? Array(bytes[(split + 1)...]) : []
        _ = MotionSubscriber.decode(topic: topic, prefix: "ocm", payload: payload, retained: bytes.count % 2 == 1)
    }
}
