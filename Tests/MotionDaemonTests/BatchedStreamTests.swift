import Foundation
import MotionDaemon
import MotionDaemonProtocol
import Synchronization
import Locking
import Testing
import TestSupport

/// The batched streams (protocol version 3) on the real motiond with the simulated GY-521 (an
/// MPU-6050 read through its FIFO, 1 kHz at full rate): full-rate batches beside other clients,
/// the recorder's history unbroken across the IMU's switch to the FIFO rate and back, and a
/// client that stops reading told what it lost while another loses nothing.
@Suite(.serialized, .blocking) struct BatchedStreamTests {
    @Test func fullRateBatchesBesideA100HzClientAndTheRecorderStaysContinuous() throws {
        let daemon = try DaemonProcess("batched-rate", board: "sim-gy-521.board")
        defer { daemon.remove() }
        let start = wallSeconds
        try daemon.start()
        // The 100 Hz device-motion client is on before, during and after the batched stream.
        let motion = ThreadOwned(try daemon.connect("100 Hz device motion"))
        try motion.value.subscribe(.deviceMotion, interval: 0.01)
        let motionTimes = Collected<Double>()
        let stopReading = Flag()
        let motionReader = Thread {
            while !stopReading.isSet, let message = try? motion.value.receive() {
                if case .samples(.deviceMotion(let samples)) = message { for sample in samples { motionTimes.append(sample.time) } }
            }
        }
        motionReader.start()
        // The recorder has committed samples before the switch (it commits once a second), so
        // its history can be checked across it whatever the load (a minute: a hang only).
        let history = try daemon.connect("history")
        #expect(eventually(seconds: 60) { ((try? history.accelerometer(from: start, to: wallSeconds)) ?? []).count > 0 },
                "the recorder committed nothing in a minute")

        let batched = try daemon.connect("batched")
        try batched.subscribe(.batchedAccelerometer, interval: 0)
        try batched.subscribe(.batchedDeviceMotion, interval: 0)
        let switchedAt = wallSeconds
        var accelerometer: [SensorBatch] = [], deviceMotion: [SensorBatch] = [], drops: [BatchDrops] = []
        while accelerometer.count < 10 {
            switch try batched.receive() {
            case .batch(let batch) where batch.stream == .batchedAccelerometer: accelerometer.append(batch)
            case .batch(let batch): deviceMotion.append(batch)
            case .droppedBatches(let notice): drops.append(notice)
            default: break
            }
        }
        _ = try batched.ask { .unsubscribe(request: $0, stream: .batchedAccelerometer) }
        _ = try batched.ask { .unsubscribe(request: $0, stream: .batchedDeviceMotion) }
        let switchedBackAt = wallSeconds
        usleep(3_000_000)
        let end = wallSeconds
        stopReading.set()

        // Every accelerometer batch: a second at 1 kHz, numbered in order, each sample 1 ms after
        // the one before (the FIFO's period, across batches too), nothing missing or overflowed.
        print("batched: \(accelerometer.count) accelerometer batches (\(accelerometer.map(\.count))), \(deviceMotion.count) device-motion batches, \(drops.count) drop notices")
        #expect(drops.isEmpty, "\(drops)")
        #expect(accelerometer.map(\.sequence) == Array(0..<UInt32(accelerometer.count)))
        #expect(accelerometer.allSatisfy { $0.count == 1000 && $0.rateHertz == 1000 && $0.fifoMissingSamples == 0 && $0.fifoOverflows == 0 })
        // Times exact to the ns: each batch's base plus seconds after it.
        let times = accelerometer.flatMap { batch -> [Int64] in
            guard case .accelerometer(let samples) = batch.samples else { return [] }
            return samples.map { batch.baseTimeNanoseconds + Int64(($0.time * 1e9).rounded()) }
        }
        let steps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(steps.allSatisfy { $0 == 1_000_000 }, "periods from \(steps.min() ?? 0) to \(steps.max() ?? 0) ns")
        // Wall-clock times: a clock domain check, not a latency one (how late a batch arrives
        // is `motionctl bench-batched`'s "max latency ms" figure).
        #expect(abs(Double(times.last ?? 0) / 1e9 - switchedBackAt) < 60, "wall-clock times")
        #expect(deviceMotion.count >= 9 && deviceMotion.allSatisfy { $0.count == 200 && $0.rateHertz == 200 && $0.fifoMissingSamples == 0 })

        // The 100 Hz client: no gap across the switch to the FIFO rate and back, at its rate.
        let motionGaps = zip(motionTimes.all.dropFirst(), motionTimes.all).map { $0 - $1 }
        let rate = Double(motionTimes.count - 1) / ((motionTimes.all.last ?? 0) - (motionTimes.all.first ?? 0))
        print("100 Hz client: \(motionTimes.count) updates at \(String(format: "%.1f", rate)) Hz, longest gap \(String(format: "%.4f", motionGaps.max() ?? 0)) s; switched at \(String(format: "%.1f", switchedAt - start)) s and back at \(String(format: "%.1f", switchedBackAt - start)) s")
        #expect(abs(rate - 100) < 3, "\(rate) Hz")
        #expect((motionGaps.max() ?? 1) < 0.025, "longest gap \(motionGaps.max() ?? 1) s")

        // The sensor recorder's 50 Hz history: one continuity run, no gap, across both switches.
        var recorded = try history.accelerometer(from: start, to: end)
        for _ in 0..<240 where (recorded.last?.time ?? 0) < end - 1.5 {  // committed once a second (60 s: a real hang only)
            usleep(250_000)
            recorded = try history.accelerometer(from: start, to: end)
        }
        let recordedGaps = zip(recorded.dropFirst(), recorded).map { $0.time - $1.time }
        print("recorder: \(recorded.count) samples, runs \(Set(recorded.map(\.run)).count), longest gap \(String(format: "%.4f", recordedGaps.max() ?? 0)) s")
        #expect(Set(recorded.map(\.run)).count == 1)
        #expect((recordedGaps.max() ?? 1) < 0.03, "longest gap \(recordedGaps.max() ?? 1) s")
        #expect((recorded.first?.time ?? .infinity) < switchedAt && (recorded.last?.time ?? 0) > switchedBackAt + 1)
    }

    /// One client subscribes and then reads nothing for 14 s: once the socket's buffers and its
    /// outbox's 4 batches are full, the daemon drops whole batches for it, and when it reads
    /// again a `droppedBatches` notice tells it how many (and their samples), matching the jumps
    /// in the batch numbers it gets. Another batched client meanwhile loses nothing. Reading is
    /// judged by batch numbers, not by how many arrived in so many seconds (a loaded machine
    /// delays them); every wait is a minute, against a hang.
    @Test func aClientThatStopsReadingIsToldOfDroppedBatchesWhileAnotherLosesNothing() throws {
        let daemon = try DaemonProcess("batched-slow", board: "sim-gy-521.board")
        defer { daemon.remove() }
        try daemon.start()
        let slow = try daemon.connect("stops reading")
        try slow.subscribe(.batchedAccelerometer, interval: 0)
        let fast = ThreadOwned(try daemon.connect("reads everything"))
        try fast.value.subscribe(.batchedAccelerometer, interval: 0)
        let fastBatches = Collected<SensorBatch>(), fastDrops = Collected<BatchDrops>()
        let stopReading = Flag()
        let fastReader = Thread {
            while !stopReading.isSet, let message = try? fast.value.receive() {
                if case .batch(let batch) = message { fastBatches.append(batch) }
                if case .droppedBatches(let notice) = message { fastDrops.append(notice) }
            }
        }
        fastReader.start()
        try Self.checkAVersion2ClientSeesNoBatchedStream(daemon)
        usleep(14_000_000)
        // It reads what waits (what its socket holds, the notice, then the 4 batches its outbox
        // kept: older than the dropped ones), then the jump in the batch numbers over the
        // dropped batches and one batch more.
        var batches: [SensorBatch] = [], notices: [BatchDrops] = []
        var batchesSinceJump: Int?
        let safety = wallSeconds + 60
        while notices.isEmpty || (batchesSinceJump ?? 0) < 2 {
            guard wallSeconds < safety else { throw DaemonTestError("no notice and no jump over the dropped batches in a minute: \(notices)") }
            switch try slow.receive() {
            case .batch(let batch):
                if let previous = batches.last, batch.sequence > previous.sequence + 1 { batchesSinceJump = 0 }
                batches.append(batch)
                batchesSinceJump = batchesSinceJump.map { $0 + 1 }
            case .droppedBatches(let notice): notices.append(notice)
            default: break
            }
        }
        // The other client has had every batch up to the last one the slow client got.
        let last = batches.last?.sequence ?? 0
        #expect(eventually(seconds: 60) { fastBatches.all.contains { $0.sequence >= last } }, "the client that kept reading stopped short of \(last)")
        stopReading.set()
        let skipped = zip(batches.dropFirst(), batches).map { Int($0.sequence) - Int($1.sequence) - 1 }
        let dropped = notices.reduce(0) { $0 + Int($1.batches) }
        print("stalled client: \(batches.count) batches (numbers \(batches.map(\.sequence))), notices \(notices.map { "\($0.batches) batches / \($0.samples) samples" })")
        #expect(dropped >= 2, "batches dropped for the client that stopped reading: \(notices)")
        #expect(skipped.allSatisfy { $0 >= 0 } && skipped.reduce(0, +) == dropped, "number jumps \(skipped) vs \(dropped) dropped")
        #expect(notices.allSatisfy { $0.samples == $0.batches * 1000 && $0.stream == .batchedAccelerometer })
        #expect(notices.last.map { $0.totalBatches == UInt64(dropped) && $0.totalSamples == UInt64(dropped * 1000) } == true)
        let other = fastBatches.all
        print("client that kept reading: \(other.count) batches, \(fastDrops.count) notices")
        #expect(other.count > Int(last) && fastDrops.count == 0)
        #expect(other.map(\.sequence) == Array(0..<UInt32(other.count)))
    }

    /// Version 3's additions never reach an older client: a version 2 client's status lists the
    /// batched clients without their streams (a stream byte above 8 would be an error to it),
    /// and its subscribe to a batched stream is refused, saying why.
    static func checkAVersion2ClientSeesNoBatchedStream(_ daemon: DaemonProcess) throws {
        let asked = ClientMessage.hello(version: 2, name: "version 2").frame.bytes + ClientMessage.status(request: 1).frame.bytes
            + ClientMessage.subscribe(request: 2, stream: .batchedAccelerometer, interval: 0, from: 0, frame: 0).frame.bytes
        var reader = FrameReader()
        reader.append(try GarbageTests.exchange(asked, socket: daemon.socket, hangUp: true))
        var answers: [DaemonMessage] = []
        while let frame = try reader.nextFrame() { answers.append(try DaemonMessage(frame)) }
        guard answers.count == 3, case .welcome(let welcome) = answers[0], case .status(_, let status) = answers[1],
              case .error(2, let code, let message, _) = answers[2] else { throw DaemonTestError("answered \(answers)") }
        #expect(welcome.version == 2 && code == .badRequest && message.contains("version 3"), "\(message)")
        let batched = try #require(status.clients.first { $0.name == "stops reading" })
        #expect(batched.streams.isEmpty, "\(batched.streams)")
    }
}

/// A connection handed to the one thread that uses it from then on.
///
/// `@unchecked Sendable`, and why it is safe: the test that makes it touches `value` only
/// before it starts the thread that reads it, never at the same time.
final class ThreadOwned<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A flag one thread sets and another polls.
final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

/// A thread-safe list the reader threads append to.
final class Collected<Item: Sendable>: Sendable {
    private let items = Lock<[Item]>([])
    func append(_ item: Item) { items.withLock { $0.append(item) } }
    var all: [Item] { items.withLock { $0 } }
    var count: Int { items.withLock { $0.count } }
}
