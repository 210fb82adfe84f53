/// How each list element and record is laid out (PROTOCOL.md, "Records"), shared by the
/// messages of both directions.
extension WireWriter {
    mutating func vectorSample(_ sample: VectorSample) {
        for value in [sample.time, sample.x, sample.y, sample.z] { f64(value) }
    }

    mutating func deviceMotionSample(_ sample: DeviceMotionSample) {
        for value in [sample.time, sample.w, sample.x, sample.y, sample.z] { f64(value) }
        for vector in [sample.rotationRate, sample.gravity, sample.userAcceleration, sample.magneticField] {
            for axis in 0..<3 { f64(axis < vector.count ? vector[axis] : 0) }
        }
        u8(UInt8(bitPattern: sample.magneticAccuracy))
        f64(sample.heading)
        u8(sample.frame)
    }

    mutating func pedometerSample(_ sample: PedometerSample) {
        f64(sample.start)
        f64(sample.end)
        u32(UInt32(clamping: sample.steps))
        f64(sample.distance)
        optionalCount(sample.floorsAscended)
        optionalCount(sample.floorsDescended)
        optionalF64(sample.currentPace)
        optionalF64(sample.currentCadence)
        optionalF64(sample.averageActivePace)
    }

    mutating func pedometerEventSample(_ sample: PedometerEventSample) {
        f64(sample.time)
        f64(sample.delivered)
        u8(sample.isResume ? 1 : 0)
    }

    mutating func activitySample(_ sample: ActivitySample) {
        f64(sample.start)
        f64(sample.time)
        u8(sample.flags)
        u8(sample.confidence)
    }

    mutating func altitudeSample(_ sample: AltitudeSample) {
        for value in [sample.time, sample.relativeAltitude, sample.pressure, sample.absoluteAltitude, sample.accuracy, sample.precision] {
            f64(value)
        }
    }

    mutating func recordedSample(_ sample: RecordedSample) {
        for value in [sample.time, sample.x, sample.y, sample.z] { f64(value) }
        i64(sample.run)
    }

    mutating func daemonStatus(_ status: DaemonStatus) {
        string(status.daemonVersion)
        string(status.boardName)
        string(status.boardPath)
        u8(status.boardRunning ? 1 : 0)
        f64(status.uptime)
        string(status.historyPath)
        count(status.storage.count)
        for use in status.storage {
            string(use.kind)
            u64(use.bytes)
            u32(use.files)
        }
        u64(status.bytesWrittenSinceStart)
        count(status.clients.count)
        for client in status.clients {
            string(client.name)
            u32(UInt32(bitPattern: client.pid))
            u32(client.uid)
            u8(client.authorization.rawValue)
            count(client.streams.count)
            for entry in client.streams {
                u8(entry.stream.rawValue)
                f64(entry.interval)
            }
            u64(client.dropped)
        }
    }
}

extension WireReader {
    /// Bytes per element, for `count`'s plausibility check.
    static let vectorSampleSize = 32, deviceMotionSampleSize = 146, pedometerSampleSize = 60
    static let pedometerEventSampleSize = 17, activitySampleSize = 18, recordedSampleSize = 40, altitudeSampleSize = 48

    mutating func vectorSample() throws(ProtocolError) -> VectorSample {
        VectorSample(time: try f64("time"), x: try f64("x"), y: try f64("y"), z: try f64("z"))
    }

    mutating func deviceMotionSample() throws(ProtocolError) -> DeviceMotionSample {
        let time = try f64("time"), w = try f64("w"), x = try f64("x"), y = try f64("y"), z = try f64("z")
        var vectors: [[Double]] = []
        for name in ["rotationRate", "gravity", "userAcceleration", "magneticField"] {
            vectors.append([try f64(name), try f64(name), try f64(name)])
        }
        let accuracy = Int8(bitPattern: try u8("magneticAccuracy"))
        let heading = try f64("heading")
        let frame = try u8("frame")
        return DeviceMotionSample(time: time, w: w, x: x, y: y, z: z, rotationRate: vectors[0], gravity: vectors[1],
                                  userAcceleration: vectors[2], magneticField: vectors[3], magneticAccuracy: accuracy,
                                  heading: heading, frame: frame)
    }

    mutating func pedometerSample() throws(ProtocolError) -> PedometerSample {
        PedometerSample(start: try f64("start"), end: try f64("end"), steps: Int(try u32("steps")), distance: try f64("distance"),
                        floorsAscended: try optionalCount("floorsAscended"), floorsDescended: try optionalCount("floorsDescended"),
                        currentPace: try optionalF64("currentPace"), currentCadence: try optionalF64("currentCadence"),
                        averageActivePace: try optionalF64("averageActivePace"))
    }

    mutating func pedometerEventSample() throws(ProtocolError) -> PedometerEventSample {
        let time = try f64("time"), delivered = try f64("delivered")
        let isResume = try enumeration("event kind") { $0 <= 1 ? $0 == 1 : nil }
        return PedometerEventSample(time: time, delivered: delivered, isResume: isResume)
    }

    mutating func activitySample() throws(ProtocolError) -> ActivitySample {
        ActivitySample(start: try f64("start"), time: try f64("time"), flags: try u8("flags"), confidence: try u8("confidence"))
    }

    mutating func altitudeSample() throws(ProtocolError) -> AltitudeSample {
        AltitudeSample(time: try f64("time"), relativeAltitude: try f64("relativeAltitude"), pressure: try f64("pressure"),
                       absoluteAltitude: try f64("absoluteAltitude"), accuracy: try f64("accuracy"), precision: try f64("precision"))
    }

    mutating func recordedSample() throws(ProtocolError) -> RecordedSample {
        RecordedSample(time: try f64("time"), x: try f64("x"), y: try f64("y"), z: try f64("z"), run: try i64("run"))
    }

    mutating func daemonStatus() throws(ProtocolError) -> DaemonStatus {
        let version = try string("daemonVersion"), boardName = try string("boardName"), boardPath = try string("boardPath")
        let running = try u8("boardRunning") != 0
        let uptime = try f64("uptime")
        let historyPath = try string("historyPath")
        var storage: [StorageUse] = []
        for _ in 0..<(try count("storage", minimumElementSize: 14)) {
            storage.append(StorageUse(kind: try string("kind"), bytes: try u64("bytes"), files: try u32("files")))
        }
        let written = try u64("bytesWrittenSinceStart")
        var clients: [ClientStatus] = []
        for _ in 0..<(try count("clients", minimumElementSize: 23)) {
            let name = try string("client name")
            let pid = Int32(bitPattern: try u32("pid")), uid = try u32("uid")
            let authorization = try enumeration("authorization") { WireAuthorization(rawValue: $0) }
            var streams: [(stream: WireStream, interval: Double)] = []
            for _ in 0..<(try count("streams", minimumElementSize: 9)) {
                streams.append((try enumeration("stream") { WireStream(rawValue: $0) }, try f64("interval")))
            }
            clients.append(ClientStatus(name: name, pid: pid, uid: uid, authorization: authorization, streams: streams, dropped: try u64("dropped")))
        }
        return DaemonStatus(daemonVersion: version, boardName: boardName, boardPath: boardPath, boardRunning: running, uptime: uptime,
                            historyPath: historyPath, storage: storage, bytesWrittenSinceStart: written, clients: clients)
    }
}
