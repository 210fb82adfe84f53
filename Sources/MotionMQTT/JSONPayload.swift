/// The JSON payload, for people and for tools that do not want to read PAYLOADS.md: one object
/// per message with the binary payload's fields under Core Motion's names, in the same units
/// (`t` and the `…Ns` fields: ns since 1970; angles and rates in radians; accelerations in g;
/// distance in m; pace in s/m; cadence in steps/s; pressure in kPa). nil fields are `null`.
/// `motionctl subscribe` prints binary payloads in this form too.
package enum JSONPayload {
    package static func encode(_ message: MotionMessage) -> String {
        var object = JSONObject()
        object.string("stream", message.stream.topicName)
        object.integer("seq", Int64(message.sequence))
        object.integer("t", message.timestampUnixNanoseconds)
        switch message.fields {
        case .deviceMotion(let m):
            object.raw("attitude", "{\"w\":\(number(m.w)),\"x\":\(number(m.x)),\"y\":\(number(m.y)),\"z\":\(number(m.z))}")
            object.vector("rotationRate", m.rotationRate)
            object.vector("gravity", m.gravity)
            object.vector("userAcceleration", m.userAcceleration)
            object.vector("magneticField", m.magneticField)
            object.raw("heading", number(m.heading))
            object.integer("magneticAccuracy", Int64(m.magneticAccuracy))
            object.integer("referenceFrame", Int64(m.referenceFrame))
        case .pedometer(let p):
            object.integer("startNs", p.startUnixNanoseconds)
            object.integer("endNs", p.endUnixNanoseconds)
            object.integer("numberOfSteps", Int64(p.numberOfSteps))
            object.raw("distance", number(p.distanceMeters))
            object.raw("floorsAscended", p.floorsAscended.map { "\($0)" } ?? "null")
            object.raw("floorsDescended", p.floorsDescended.map { "\($0)" } ?? "null")
            object.raw("currentPace", number(p.currentPace))
            object.raw("currentCadence", number(p.currentCadence))
            object.raw("averageActivePace", number(p.averageActivePace))
        case .pedometerEvent(let isResume, let time):
            object.string("type", isResume ? "resume" : "pause")
            object.integer("timeNs", time)
        case .activity(let a):
            let names = ["stationary", "walking", "running", "automotive", "cycling", "unknown"]
            let set = names.indices.filter { a.flags & (1 << $0) != 0 }.map { "\"\(names[$0])\"" }
            object.raw("activity", "[" + set.joined(separator: ",") + "]")
            object.string("confidence", ["low", "medium", "high"][Int(min(a.confidence, 2))])
            object.integer("startNs", a.startUnixNanoseconds)
        case .altitude(let relative, let pressure):
            object.raw("relativeAltitude", number(relative))
            object.raw("pressure", number(pressure))
        case .vector(let x, let y, let z):
            object.raw("x", number(x))
            object.raw("y", number(y))
            object.raw("z", number(z))
        }
        return object.text
    }

    /// A JSON number, or `null` for nil, NaN and infinities (JSON has none).
    static func number(_ value: Float?) -> String {
        guard let value, value.isFinite else { return "null" }
        return "\(value)"
    }
}

/// Builds one JSON object from keys this module chooses (plain ASCII: never escaped).
struct JSONObject {
    private var members: [String] = []

    var text: String { "{" + members.joined(separator: ",") + "}" }

    mutating func raw(_ key: String, _ json: String) { members.append("\"\(key)\":\(json)") }

    mutating func integer(_ key: String, _ value: Int64) { raw(key, "\(value)") }

    mutating func string(_ key: String, _ value: String) { raw(key, JSONObject.quoted(value)) }

    mutating func vector(_ key: String, _ v: (x: Float, y: Float, z: Float)) {
        raw(key, "{\"x\":\(JSONPayload.number(v.x)),\"y\":\(JSONPayload.number(v.y)),\"z\":\(JSONPayload.number(v.z))}")
    }

    /// `value` as a JSON string: quotes, backslashes and control characters escaped.
    static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
