package import MotionDaemonProtocol
package import Synchronization
import Locking

/// What waits to be sent to one client: samples of each of its streams, bounded, and replies
/// (answers to requests), never dropped. Producers (the engine thread's sinks, the history
/// thread) add to it from their threads; the poll loop takes frames out as the client's socket
/// has room.
///
/// The bound is what keeps a slow client from costing anyone else anything: once a stream has
/// `samplesPerStream` samples waiting, a new one is dropped and counted, and the client hears
/// how many (a `dropped` frame before that stream's next batch). The producer never waits.
package final class ClientOutbox: Sendable {
    /// Samples a stream may have waiting: 2.5 s at 100 Hz. With the session's write buffer and
    /// the socket's (`ClientSession`), a client that stops reading is dropped for after a few
    /// seconds, and the daemon holds well under 1 MB for it whatever it subscribed to.
    package static let samplesPerStream = 256
    /// Batches a batched stream may have waiting (about a second each): as many as the
    /// in-process `CMBatchedSensorManager` queue holds. Past them a new batch is dropped whole
    /// and counted in batches and samples (a `droppedBatches` notice before the next batch).
    package static let batchesPerStream = 4

    /// One batched stream's waiting batches and what was dropped of it.
    private struct PendingBatches {
        var batches: [SensorBatch] = []
        var batchesSinceNotice: UInt64 = 0, samplesSinceNotice: UInt64 = 0
        var batchesTotal: UInt64 = 0, samplesTotal: UInt64 = 0
    }

    private struct Pending {
        var vectors: [VectorSample] = []
        var motions: [DeviceMotionSample] = []
        var pedometer: [PedometerSample] = []
        var events: [PedometerEventSample] = []
        var activity: [ActivitySample] = []
        var altitude: [AltitudeSample] = []
        var count = 0
        var droppedSinceNotice: UInt64 = 0
        var droppedTotal: UInt64 = 0

        /// What waits of `stream` as one `samples` message (nil for the batched streams, which
        /// go out as `batch` messages).
        func batch(of stream: WireStream) -> SampleBatch? {
            switch stream {
            case .accelerometer, .gyroscope, .magnetometer: .vectors(stream, vectors)
            case .deviceMotion: .deviceMotion(motions)
            case .pedometer: .pedometer(pedometer)
            case .pedometerEvents: .pedometerEvents(events)
            case .activity: .activity(activity)
            case .relativeAltitude, .absoluteAltitude: .altitude(stream, altitude)
            case .batchedAccelerometer, .batchedDeviceMotion: nil
            }
        }
    }

    private struct State {
        var streams = [Pending](repeating: Pending(), count: WireStream.allCases.count)
        /// By stream byte (only the batched streams' entries are used).
        var batched = [PendingBatches](repeating: PendingBatches(), count: WireStream.allCases.count)
        var replies: [Frame] = []
        var replyBytes = 0
        var open = true
    }

    private let state = Lock(State())
    private let wakeup: Wakeup
    /// A query is being answered (one at a time per client).
    package let queryRunning = Atomic<Bool>(false)

    package init(wakeup: Wakeup) {
        self.wakeup = wakeup
    }

    package func offer(_ sample: VectorSample, stream: WireStream) { offer(stream) { $0.vectors.append(sample) } }
    package func offer(_ sample: DeviceMotionSample) { offer(.deviceMotion) { $0.motions.append(sample) } }
    package func offer(_ sample: PedometerSample) { offer(.pedometer) { $0.pedometer.append(sample) } }
    package func offer(_ sample: PedometerEventSample) { offer(.pedometerEvents) { $0.events.append(sample) } }
    package func offer(_ sample: ActivitySample) { offer(.activity) { $0.activity.append(sample) } }
    package func offer(_ sample: AltitudeSample, stream: WireStream) { offer(stream) { $0.altitude.append(sample) } }

    /// Queues a batch of a batched stream, or drops it whole (counted) when `batchesPerStream`
    /// of that stream wait already.
    package func offer(_ batch: SensorBatch) {
        let added = state.withLock { state -> Bool in
            guard state.open else { return false }
            let index = Int(batch.stream.rawValue)
            guard state.batched[index].batches.count < Self.batchesPerStream else {
                state.batched[index].batchesSinceNotice += 1
                state.batched[index].samplesSinceNotice += UInt64(batch.count)
                state.batched[index].batchesTotal += 1
                state.batched[index].samplesTotal += UInt64(batch.count)
                return false
            }
            state.batched[index].batches.append(batch)
            return true
        }
        if added { wakeup.signal() }
    }

    private func offer(_ stream: WireStream, _ add: (inout Pending) -> Void) {
        let added = state.withLock { state -> Bool in
            guard state.open else { return false }
            let index = Int(stream.rawValue)
            guard state.streams[index].count < Self.samplesPerStream else {
                state.streams[index].droppedSinceNotice += 1
                state.streams[index].droppedTotal += 1
                return false
            }
            add(&state.streams[index])
            state.streams[index].count += 1
            return true
        }
        if added { wakeup.signal() }
    }

    /// Queues an answer (never dropped).
    package func reply(_ message: DaemonMessage) {
        let frame = message.frame
        let queued = state.withLock { state -> Bool in
            guard state.open else { return false }
            state.replies.append(frame)
            state.replyBytes += frame.body.count + 5
            return true
        }
        if queued { wakeup.signal() }
    }

    /// Bytes of replies waiting (the history thread holds back a long answer's next part while
    /// this is large).
    package var replyBacklog: Int { state.withLock { $0.replyBytes } }

    /// Updates dropped for this client since it connected, all streams.
    package var droppedTotal: UInt64 {
        state.withLock { state in
            state.streams.reduce(0) { $0 + $1.droppedTotal } + state.batched.reduce(0) { $0 + $1.samplesTotal }
        }
    }

    /// Forgets what waits of `stream` (it was unsubscribed) and its drop counts.
    package func clear(_ stream: WireStream) {
        state.withLock { state in
            state.streams[Int(stream.rawValue)] = Pending()
            state.batched[Int(stream.rawValue)] = PendingBatches()
        }
    }

    /// No more offers or replies are taken (the client is gone).
    package func close() {
        state.withLock { state in
            state.open = false
            state.streams = [Pending](repeating: Pending(), count: WireStream.allCases.count)
            state.batched = [PendingBatches](repeating: PendingBatches(), count: WireStream.allCases.count)
            state.replies = []
            state.replyBytes = 0
        }
    }

    /// Everything waiting, as frame bytes: replies first, then per stream a `dropped` (or
    /// `droppedBatches`) notice if any were dropped since the last one, then its samples.
    package func takeBytes() -> [UInt8] {
        let (replies, streams, batched) = state.withLock { state -> ([Frame], [Pending], [PendingBatches]) in
            defer {
                state.replies = []
                state.replyBytes = 0
                for index in state.streams.indices {
                    let total = state.streams[index].droppedTotal
                    state.streams[index] = Pending()
                    state.streams[index].droppedTotal = total
                    state.batched[index].batches = []
                    (state.batched[index].batchesSinceNotice, state.batched[index].samplesSinceNotice) = (0, 0)
                }
            }
            return (state.replies, state.streams, state.batched)
        }
        var bytes: [UInt8] = []
        for frame in replies { bytes += frame.bytes }
        for (index, pending) in streams.enumerated() {
            let stream = WireStream(rawValue: UInt8(index))!
            if pending.droppedSinceNotice > 0 {
                bytes += DaemonMessage.dropped(stream: stream, count: pending.droppedSinceNotice, total: pending.droppedTotal).frame.bytes
            }
            if pending.count > 0, let batch = pending.batch(of: stream) { bytes += DaemonMessage.samples(batch).frame.bytes }
        }
        for (index, pending) in batched.enumerated() {
            if pending.batchesSinceNotice > 0, let stream = WireStream(rawValue: UInt8(index)) {
                bytes += DaemonMessage.droppedBatches(BatchDrops(stream: stream, batches: pending.batchesSinceNotice, samples: pending.samplesSinceNotice,
                                                                 totalBatches: pending.batchesTotal, totalSamples: pending.samplesTotal)).frame.bytes
            }
            for batch in pending.batches { bytes += DaemonMessage.batch(batch).frame.bytes }
        }
        return bytes
    }
}
