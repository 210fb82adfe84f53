import MotionDaemonProtocol
import Testing

/// Every message survives encode → frame bytes → frame reader → decode unchanged, the bytes
/// are the ones PROTOCOL.md documents, and malformed bodies are errors, never half-read values.
@Suite struct MessageCodingTests {
    static func roundTrip(_ frame: Frame) throws -> Frame {
        var reader = FrameReader()
        reader.append(frame.bytes)
        return try #require(try reader.nextFrame())
    }

    static let status = DaemonStatus(
        daemonVersion: "0.9", boardName: "simulated walker", boardPath: "/b/sim-walker.board", boardRunning: true, uptime: 12.5,
        historyPath: "/var/lib/opencoremotion/sim-walker",
        storage: [StorageUse(kind: "accelerometer", bytes: 123_456, files: 2), StorageUse(kind: "pedometer", bytes: 99, files: 1)],
        bytesWrittenSinceStart: 5000,
        clients: [ClientStatus(name: "a", pid: 42, uid: 1000, authorization: .authorized,
                               streams: [(.accelerometer, 0.01), (.activity, 0)], dropped: 3)])

    @Test func everyClientMessageRoundTrips() throws {
        let messages: [ClientMessage] = [
            .hello(version: 1, name: "CMMotionManager pid 1 ✓"),
            .subscribe(request: 1, stream: .deviceMotion, interval: 0.005, from: 1.7e9, frame: 8),
            .unsubscribe(request: 2, stream: .pedometerEvents),
            .queryPedometer(request: 3, from: 1.7e9, to: 1.7e9 + 3600),
            .queryActivity(request: 4, from: -1, to: 2),
            .queryAccelerometer(request: 5, from: 1, to: 2),
            .recordAccelerometer(request: 6, duration: 43_200),
            .status(request: 0xFFFF_FFFF),
            .subscribeAltitude(request: 7, stream: .absoluteAltitude, seaLevelPressure: 101.32, uncertainty: 0.1),
            .subscribe(request: 8, stream: .batchedDeviceMotion, interval: 0, from: 0, frame: 0),
        ]
        for message in messages {
            #expect(try ClientMessage(Self.roundTrip(message.frame)) == message)
        }
    }

    @Test func everyDaemonMessageRoundTrips() throws {
        let motion = DeviceMotionSample(time: 1.5, w: 1, x: 0, y: 0, z: 0, rotationRate: [1, 2, 3], gravity: [0, 0, -1],
                                        userAcceleration: [0.1, 0.2, 0.3], magneticField: [20, 0, -40], magneticAccuracy: -1,
                                        heading: -1, frame: 1)
        let messages: [DaemonMessage] = [
            .welcome(.init(daemonVersion: "0.9", boardName: "simulated walker", sensors: [.accelerometer, .gyroscope, .barometer],
                           authorization: .authorized, historyAllowed: false, clockOffset: 1.7e9)),
            .ok(request: 8),
            .samples(.vectors(.magnetometer, [VectorSample(time: 1.7e9, x: 1, y: -2, z: 3), VectorSample(time: 1.7e9 + 0.01, x: 0, y: 0, z: 0)])),
            .samples(.deviceMotion([motion])),
            .samples(.pedometer([PedometerSample(start: 1, end: 2, steps: 18, distance: 12.5, floorsAscended: 0, floorsDescended: nil,
                                                 currentPace: 0.6, currentCadence: nil, averageActivePace: 0.55)])),
            .samples(.pedometerEvents([PedometerEventSample(time: 3, delivered: 4, isResume: true)])),
            .samples(.activity([ActivitySample(start: 5, time: 6, flags: 2, confidence: 1)])),
            .samples(.vectors(.accelerometer, [])),
            .samples(.altitude(.relativeAltitude, [AltitudeSample(time: 1.7e9, relativeAltitude: -0.5, pressure: 100.1, absoluteAltitude: 102.3,
                                                                  accuracy: 83.4, precision: 0.2)])),
            .samples(.altitude(.absoluteAltitude, [])),
            .dropped(stream: .accelerometer, count: 10, total: 1000),
            .pedometerData(request: 9, PedometerSample(start: 1, end: 2, steps: 0, distance: 0)),
            .activityRecords(request: 10, [ActivitySample(start: 1, time: 2, flags: 1, confidence: 2)]),
            .accelerometerData(request: 11, isLast: true, [RecordedSample(time: 1, x: 0.5, y: -0.25, z: 1, run: 1_700_000_000_000_000_000)]),
            .recording(request: 12, until: 2e9),
            .status(request: 13, Self.status),
            .error(request: 0, code: .unauthorized, message: "no", advice: "join group motion"),
            .welcome(.init(version: 3, daemonVersion: "1.0", boardName: "GY-521", sensors: [.accelerometer, .gyroscope], authorization: .authorized,
                           historyAllowed: true, clockOffset: 1.7e9, accelerometerBatchHertz: 1000, deviceMotionBatchHertz: 200)),
            .welcome(.init(version: 2, daemonVersion: "1.0", boardName: "GY-521", sensors: [.accelerometer], authorization: .denied,
                           historyAllowed: true, clockOffset: 1.7e9)),
            .batch(SensorBatch(sequence: 7, rateHertz: 1600, fifoMissingSamples: 3, fifoOverflows: 1, baseTimeNanoseconds: 1_700_000_000_123_456_789,
                               samples: .accelerometer([VectorSample(time: 0, x: 0, y: 0, z: -1), VectorSample(time: 0.000625, x: 0.5, y: 0, z: -1)]))),
            .batch(SensorBatch(sequence: 0, rateHertz: 200, fifoMissingSamples: 0, fifoOverflows: 0, baseTimeNanoseconds: -1,
                               samples: .deviceMotion([motion, motion]))),
            .droppedBatches(BatchDrops(stream: .batchedDeviceMotion, batches: 2, samples: 400, totalBatches: 5, totalSamples: 1000)),
        ]
        for message in messages {
            #expect(try DaemonMessage(Self.roundTrip(message.frame)) == message)
        }
    }

    /// PROTOCOL.md's example, byte for byte.
    @Test func helloAndSubscribeAreTheDocumentedBytes() {
        #expect(ClientMessage.hello(version: 1, name: "ab").frame.bytes
                == [0x0B, 0, 0, 0, 0x01, 0x4F, 0x43, 0x4D, 0x44, 0x01, 0x00, 0x02, 0x00, 0x61, 0x62])
        let subscribe = ClientMessage.subscribe(request: 2, stream: .accelerometer, interval: 0.5, from: 0, frame: 0).frame.bytes
        #expect(subscribe == [0x17, 0, 0, 0, 0x02, 0x02, 0, 0, 0, 0x00,
                              0, 0, 0, 0, 0, 0, 0xE0, 0x3F, 0, 0, 0, 0, 0, 0, 0, 0, 0x00])
    }

    /// PROTOCOL.md's version 2 examples, byte for byte: subscribeAltitude and one altitude record.
    @Test func altitudeMessagesAreTheDocumentedBytes() {
        let subscribe = ClientMessage.subscribeAltitude(request: 3, stream: .relativeAltitude, seaLevelPressure: 101.325, uncertainty: 1).frame.bytes
        #expect(subscribe == [0x16, 0, 0, 0, 0x09, 0x03, 0, 0, 0, 0x07,
                              0xCD, 0xCC, 0xCC, 0xCC, 0xCC, 0x54, 0x59, 0x40, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F])
        let samples = DaemonMessage.samples(.altitude(.absoluteAltitude, [AltitudeSample(time: 2, relativeAltitude: 0, pressure: 100,
                                                                                      absoluteAltitude: -1, accuracy: 0.5, precision: 0.25)])).frame.bytes
        #expect(samples == [0x36, 0, 0, 0, 0x83, 0x08, 0x01, 0, 0, 0]
                + [0, 0, 0, 0, 0, 0, 0x00, 0x40] + [0, 0, 0, 0, 0, 0, 0x00, 0x00] + [0, 0, 0, 0, 0, 0, 0x59, 0x40]
                + [0, 0, 0, 0, 0, 0, 0xF0, 0xBF] + [0, 0, 0, 0, 0, 0, 0xE0, 0x3F] + [0, 0, 0, 0, 0, 0, 0xD0, 0x3F])
        // A version 1 stream byte list ends at 6: a batch of stream 9 is an error, not a guess.
        #expect(throws: ProtocolError.self) { try DaemonMessage(Frame(type: 0x83, body: [0x09, 0, 0, 0, 0])) }
    }

    /// PROTOCOL.md's version 3 examples, byte for byte: subscribing to a batched stream, a batch
    /// of one sample and a drop notice; a welcome to a version 2 client has version 2's bytes.
    @Test func batchedMessagesAreTheDocumentedBytes() throws {
        let subscribe = ClientMessage.subscribe(request: 4, stream: .batchedAccelerometer, interval: 0, from: 0, frame: 0).frame.bytes
        #expect(subscribe == [0x17, 0, 0, 0, 0x02, 0x04, 0, 0, 0, 0x09] + [UInt8](repeating: 0, count: 17))
        let batch = DaemonMessage.batch(SensorBatch(sequence: 5, rateHertz: 1000, fifoMissingSamples: 0, fifoOverflows: 0, baseTimeNanoseconds: 0x1796_0000_0000_0000,
                                                    samples: .accelerometer([VectorSample(time: 2, x: 0, y: 0, z: -1)]))).frame.bytes
        #expect(batch == [0x44, 0, 0, 0, 0x8A, 0x09, 0x05, 0, 0, 0, 0xE8, 0x03] + [UInt8](repeating: 0, count: 16)
                + [0, 0, 0, 0, 0, 0, 0x96, 0x17] + [0x01, 0, 0, 0]
                + [0, 0, 0, 0, 0, 0, 0x00, 0x40] + [UInt8](repeating: 0, count: 16) + [0, 0, 0, 0, 0, 0, 0xF0, 0xBF])
        let drops = DaemonMessage.droppedBatches(BatchDrops(stream: .batchedAccelerometer, batches: 2, samples: 2000, totalBatches: 7,
                                                            totalSamples: 7000)).frame.bytes
        #expect(drops == [0x22, 0, 0, 0, 0x8B, 0x09, 0x02, 0, 0, 0, 0, 0, 0, 0, 0xD0, 0x07, 0, 0, 0, 0, 0, 0,
                          0x07, 0, 0, 0, 0, 0, 0, 0, 0x58, 0x1B, 0, 0, 0, 0, 0, 0])
        // The welcome a version 1 or 2 client gets has no batch rates: its decoder reads it to the end.
        #expect(Framing.welcomeVersion(forClient: 1) == 2 && Framing.welcomeVersion(forClient: 2) == 2 && Framing.welcomeVersion(forClient: 3) == 3)
        let old = DaemonMessage.welcome(.init(version: 2, daemonVersion: "", boardName: "", sensors: [], authorization: .authorized,
                                              historyAllowed: true, clockOffset: 0, accelerometerBatchHertz: 1000, deviceMotionBatchHertz: 200))
        #expect(old.frame.body.count == 4 + 2 + 2 + 2 + 3 + 8)
        // Batched streams never come as samples, and a batch never names another stream.
        #expect(throws: ProtocolError.self) { try DaemonMessage(Frame(type: 0x83, body: [0x09, 0, 0, 0, 0])) }
        var wrongStream = batch
        wrongStream[5] = 0x00
        #expect(throws: ProtocolError.self) { try DaemonMessage(Self.roundTrip(Frame(type: wrongStream[4], body: Array(wrongStream[5...])))) }
    }

    @Test func malformedBodiesAreErrorsThatSayWhat() {
        func error(_ frame: Frame) -> ProtocolError? { #expect(throws: ProtocolError.self) { try ClientMessage(frame) } }
        // Wrong magic: not this protocol.
        #expect(error(Frame(type: 0x01, body: Array("HTTP".utf8) + [1, 0, 0, 0]))?.kind == .notThisProtocol)
        // Truncated: the field is named.
        #expect(error(Frame(type: 0x04, body: [1, 0, 0, 0, 0, 0]))?.message == "queryPedometer: the frame ends inside from")
        // Trailing bytes are not padding.
        var long = ClientMessage.status(request: 1).frame
        long.body.append(0)
        #expect(error(long)?.message.contains("1 bytes left over") == true)
        // Unknown stream, unknown type.
        #expect(error(Frame(type: 0x03, body: [1, 0, 0, 0, 99]))?.message.contains("unknown value 99") == true)
        #expect(error(Frame(type: 0x7E, body: []))?.kind == .unknownMessage)
        // Invalid UTF-8 in a name.
        #expect(error(Frame(type: 0x01, body: Framing.magic + [1, 0, 2, 0, 0xC3, 0x28]))?.message.contains("UTF-8") == true)
        // A count that lies is refused before anything is allocated for it.
        let lying = #expect(throws: ProtocolError.self) {
            try DaemonMessage(Frame(type: 0x83, body: [0, 0xFF, 0xFF, 0xFF, 0x7F]))
        }
        #expect(lying?.message.contains("2147483647 elements") == true)
        // A daemon frame sent by a client (and vice versa) is an unknown message.
        #expect(error(DaemonMessage.ok(request: 1).frame)?.kind == .unknownMessage)
    }
}
