/// The retained `<prefix>/<board-id>/board` message (JSON, QoS 1): which board this is, how its
/// payloads are encoded and what each stream is published with, so a subscriber arriving at any
/// time can decode and judge what it receives:
///
///     {"id":"cart-7","board":"/…/boards/sim-walker.board","format":"binary","payloadVersion":1,
///      "streams":[{"name":"device-motion","rate":50,"qos":0,"retain":false}, …]}
///
/// Only enabled streams are listed (a stream the board turns out not to have is still listed:
/// its topic stays silent).
struct BoardDescriptionMessage {
    let json: String

    init(boardID: String, boardPath: String, configuration: MQTTConfiguration) {
        var object = JSONObject()
        object.string("id", boardID)
        object.string("board", boardPath)
        object.string("format", configuration.format.rawValue)
        object.integer("payloadVersion", Int64(BinaryPayload.version))
        let streams = MQTTStream.allCases.filter { configuration.settings($0).enabled }.map { stream in
            let settings = configuration.settings(stream)
            var entry = JSONObject()
            entry.string("name", stream.topicName)
            if stream.isSampled { entry.raw("rate", "\(settings.rateHertz)") }
            entry.integer("qos", Int64(settings.qos))
            entry.raw("retain", settings.retain ? "true" : "false")
            return entry.text
        }
        object.raw("streams", "[" + streams.joined(separator: ",") + "]")
        json = object.text
    }
}
