import MotionAlgorithms
import MotionDaemonClient
import MotionDaemonProtocol
import MotionEngine
import Locking

/// A batched stream on motiond (protocol version 3): the daemon's batches, back in the engine's
/// types, go into the core's own `BatchClient`, so that its queue, handler thread and counts
/// behave as in-process. Nothing is lost silently:
/// - batches the daemon dropped for this client (`droppedBatches`) count as queue drops (the
///   consumer fell behind);
/// - the daemon's FIFO loss totals come with every batch;
/// - a daemon restart loses the samples of the break: counted, from the timestamps on either
///   side, as samples missing from the FIFO stream, and the new daemon's totals are added on.
enum DaemonBatches {
    /// One batched stream's wire side: its stream byte and the conversion of a batch.
    struct Stream<Element: Sendable>: Sendable {
        let wire: WireStream
        /// An element's time, engine ns.
        let timestamp: @Sendable (Element) -> Int64
        /// The batch's samples, their times counted from `base` (engine ns).
        let elements: @Sendable (SensorBatch.Samples, _ base: Int64) -> [Element]
    }

    /// Engine ns `seconds` after `base` (a batch's times are seconds after its base: exact to the ns).
    private static func time(_ seconds: Double, after base: Int64) -> Int64 { base + Int64((seconds * 1e9).rounded()) }

    static let accelerometer = Stream<SensorReading>(wire: .batchedAccelerometer, timestamp: \.timestampNanoseconds) { samples, base in
        guard case .accelerometer(let vectors) = samples else { return [] }
        return vectors.compactMap { vector in
            guard case .accelerometer(var reading) = DaemonSamples.motionSample(vector, stream: .accelerometer) else { return nil }
            reading.timestampNanoseconds = time(vector.time, after: base)
            return reading
        }
    }

    static let deviceMotion = Stream<DeviceMotion>(wire: .batchedDeviceMotion, timestamp: \.timestampNanoseconds) { samples, base in
        guard case .deviceMotion(let motions) = samples else { return [] }
        return motions.compactMap { sample in
            guard case .deviceMotion(var motion, _) = DaemonSamples.motionSample(sample) else { return nil }
            motion.timestampNanoseconds = time(sample.time, after: base)
            return motion
        }
    }

    /// Subscribes `client` to `stream` on `daemon`; its queue ends with the error if the daemon
    /// ends the stream.
    static func subscribe<Element>(_ client: BatchClient<Element>, _ stream: Stream<Element>, on daemon: DaemonClient) throws(MotionManagerError) {
        let loss = Lock(Loss())
        do {
            try daemon.subscribe(stream.wire) { delivery in
                switch delivery {
                case .batch(let batch):
                    // The daemon's own offset (CLOCK_REALTIME − CLOCK_MONOTONIC, fixed when it
                    // started) takes its times back to the engine's clock exactly: one constant
                    // for the whole batch, so the FIFO's periods arrive unchanged.
                    let offset = Int64((daemon.welcome.clockOffset * 1e9).rounded())
                    let elements = stream.elements(batch.samples, batch.baseTimeNanoseconds - offset)
                    let totals = loss.withLock { $0.take(batch, first: elements.first.map(stream.timestamp), last: elements.last.map(stream.timestamp)) }
                    client.setFIFOTotals(missingSamples: totals.missing, overflows: totals.overflows)
                    client.deliver(elements)
                case .droppedBatches(let drops):
                    client.countSourceDrop(samples: Int(clamping: drops.samples))
                case .resumed:
                    loss.withLock { $0.resume() }
                case .ended(let error):
                    client.cancel(DaemonBackend.error(error, doing: "\(stream.wire.name) batches from motiond"))
                case .samples, .dropped, .interrupted:
                    break
                }
            }
        } catch {
            throw DaemonBackend.error(error, doing: "Starting \(stream.wire.name) batches from motiond")
        }
    }

    /// The FIFO loss of the client's whole life across daemon restarts: each daemon's totals
    /// start at 0 with its subscription, so those of the daemons before are kept as a base, and
    /// the samples a restart lost are added to it.
    private struct Loss {
        private var base = (missing: 0, overflows: 0)
        private var current = (missing: 0, overflows: 0)
        private var lastTimestamp: Int64?
        private var resumed = false

        mutating func resume() {
            base = (base.missing + current.missing, base.overflows + current.overflows)
            current = (0, 0)
            resumed = true
        }

        /// Takes a batch (first and last sample times, engine ns): the life totals after it.
        mutating func take(_ batch: SensorBatch, first: Int64?, last: Int64?) -> (missing: Int, overflows: Int) {
            if resumed, let before = lastTimestamp, let first, batch.rateHertz > 0 {
                let period = 1_000_000_000 / Int64(batch.rateHertz)
                if first - before > period * 3 / 2 { base.missing += Int((first - before + period / 2) / period) - 1 }
            }
            resumed = false
            if let last { lastTimestamp = last }
            current = (Int(clamping: batch.fifoMissingSamples), Int(clamping: batch.fifoOverflows))
            return (base.missing + current.missing, base.overflows + current.overflows)
        }
    }
}
