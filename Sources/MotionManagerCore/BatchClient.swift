package import MotionAlgorithms
package import MotionEngine
import Synchronization
import Locking

/// One batched stream of one `CMBatchedSensorManager` (or `ocm_batched_sensor_manager`), as the
/// engine sees it: its queue of batches and what was lost, counted, never silently.
///
/// `Element` is `SensorReading` (the accelerometer, m/s² specific force, Q16.16) or
/// `DeviceMotion`; timestamps are CLOCK_MONOTONIC nanoseconds. Samples are lost in two places:
/// - before the engine: the chip's FIFO overflowed (the engine read too late) or samples are
///   missing between two reads; counted from the gap between FIFO-derived timestamps
///   (`fifoDroppedSamples`), and the driver's overflow episodes (`fifoOverflows`);
/// - after the engine: the client's queue was full (it reads slower than the stream), so a whole
///   batch was dropped instead of making the engine wait (`queueDroppedSamples`).
package final class BatchClient<Element: Sendable>: Sendable {
    package let id: Int
    package let queue: BatchQueue<Element>
    /// Samples per second and per batch (a batch spans one second).
    package let frequencyHertz: Int

    private let delivered = Atomic<Int>(0)
    private let queueDropped = Atomic<Int>(0)
    private let fifoDropped = Atomic<Int>(0)
    private let overflows = Atomic<Int>(0)
    private let live = Atomic<Bool>(true)
    /// For a pull client (Core Motion's `startAccelerometerUpdates()` without a handler): batches
    /// replace the latest one instead of queueing, so nothing is dropped for not reading.
    private let pull: Bool
    private let latest = Lock<[Element]?>(nil)
    /// Where batches go instead of the queue (motiond's client outboxes, which bound and count
    /// on their own), called on the engine thread.
    private let sink: (@Sendable (BatchClient<Element>, [Element]) -> Void)?

    /// - Parameter pull: keep only the latest batch (`latestBatch`) instead of a queue.
    package init(frequencyHertz: Int, queueCapacity: Int, pull: Bool = false) {
        id = batchClientIDs.wrappingAdd(1, ordering: .relaxed).newValue
        self.frequencyHertz = frequencyHertz
        queue = BatchQueue(capacity: queueCapacity)
        self.pull = pull
        sink = nil
    }

    /// A client whose batches go to `sink` on the engine thread (it must not wait), not to a
    /// queue: how motiond hands each batch (with the client, for its FIFO loss counts) to a
    /// connection's bounded outbox.
    package init(frequencyHertz: Int, sink: @escaping @Sendable (BatchClient<Element>, [Element]) -> Void) {
        id = batchClientIDs.wrappingAdd(1, ordering: .relaxed).newValue
        self.frequencyHertz = frequencyHertz
        queue = BatchQueue(capacity: 1)
        pull = false
        self.sink = sink
    }

    /// A pull client's latest batch (nil before the first, and for a queueing client).
    package var latestBatch: [Element]? { latest.withLock { $0 } }

    /// Samples handed to the queue (the client gets them unless it stops first).
    package var deliveredSamples: Int { delivered.load(ordering: .relaxed) }
    /// Samples of batches dropped because the queue was full.
    package var queueDroppedSamples: Int { queueDropped.load(ordering: .relaxed) }
    /// Samples missing between FIFO reads (by their timestamps).
    package var fifoDroppedSamples: Int { fifoDropped.load(ordering: .relaxed) }
    /// FIFO overflows the driver saw while the client ran.
    package var fifoOverflows: Int { overflows.load(ordering: .relaxed) }
    /// Every sample lost, wherever.
    package var droppedSamples: Int { queueDroppedSamples + fifoDroppedSamples }

    package var isLive: Bool { live.load(ordering: .acquiring) }

    /// Stops deliveries at once and ends the queue (the client reads what is queued, then the end).
    package func cancel(_ error: MotionManagerError? = nil) {
        live.store(false, ordering: .releasing)
        queue.end(error)
    }

    /// Hands a full batch to the queue, or counts it dropped.
    package func deliver(_ batch: [Element]) {
        guard isLive else { return }
        if let sink {
            sink(self, batch)
            delivered.wrappingAdd(batch.count, ordering: .relaxed)
        } else if pull {
            latest.withLock { $0 = batch }
            delivered.wrappingAdd(batch.count, ordering: .relaxed)
        } else if queue.push(batch) {
            delivered.wrappingAdd(batch.count, ordering: .relaxed)
        } else {
            queueDropped.wrappingAdd(batch.count, ordering: .relaxed)
        }
    }

    func countFIFODrop(samples: Int) { fifoDropped.wrappingAdd(samples, ordering: .relaxed) }
    func countOverflows(_ count: Int) { overflows.wrappingAdd(count, ordering: .relaxed) }

    /// Samples of whole batches the source dropped before they reached the queue (motiond's
    /// outbox for a client that did not read in time, or the batches of a daemon restart):
    /// counted with the queue's own, as the consumer fell behind either way.
    func countSourceDrop(samples: Int) { queueDropped.wrappingAdd(samples, ordering: .relaxed) }

    /// The FIFO loss totals of the client's life, as its source (motiond) reports them.
    func setFIFOTotals(missingSamples: Int, overflows: Int) {
        fifoDropped.store(missingSamples, ordering: .relaxed)
        self.overflows.store(overflows, ordering: .relaxed)
    }
}

private let batchClientIDs = Atomic<Int>(0)

/// A batched client of either kind, as a command carries it to the engine.
package enum BatchedClient: Sendable {
    case accelerometer(BatchClient<SensorReading>)
    case deviceMotion(BatchClient<DeviceMotion>)

    var id: Int {
        switch self {
        case .accelerometer(let client): client.id
        case .deviceMotion(let client): client.id
        }
    }

    func cancel(_ error: MotionManagerError?) {
        switch self {
        case .accelerometer(let client): client.cancel(error)
        case .deviceMotion(let client): client.cancel(error)
        }
    }
}
