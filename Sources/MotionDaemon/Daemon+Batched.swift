import MotionAlgorithms
import MotionDaemonProtocol
import MotionEngine
import MotionManagerCore
import Synchronization

/// The batched streams (protocol version 3): `CMBatchedSensorManager` through the daemon.
///
/// A batched subscription is the engine's own batched client (`BatchedClient`, as an in-process
/// `CMBatchedSensorManager` adds): the first one switches the board's FIFO IMU to its highest
/// rate and the last one switches it back, while every other stream, the pedometer, activity and
/// the 50 Hz recorder keep getting one FIFO frame of every N, what they got at the board
/// file's rate (`BatchedStage`). Each second-long batch is converted to wire records on the
/// engine thread and offered to the client's outbox, which holds a few batches and drops
/// (counting) whole batches past them.
extension Daemon {
    /// The board's FIFO IMU at its highest rate; nil: no batched streams here.
    var batchedFIFO: HighRateFIFO? { HighRateFIFO(board: board.description) }

    /// The welcome's batch rates, Hz (0 without a FIFO IMU).
    var batchRates: (accelerometer: UInt16, deviceMotion: UInt16) {
        guard let fifo = batchedFIFO else { return (0, 0) }
        return (UInt16(clamping: fifo.rateHertz), UInt16(clamping: fifo.deviceMotionRateHertz))
    }

    /// Starts batched `stream` for `session` (a running one goes on as it is); what is wrong, or nil.
    func subscribeBatched(_ session: ClientSession, stream: WireStream) -> Problem? {
        guard session.version >= 3 else {
            return Problem(code: .badRequest, message: "The batched streams are protocol version 3; this client said \(session.version)",
                           advice: "Use a client library of OpenCoreMotion \(OpenCoreMotionVersion.string).")
        }
        guard let fifo = batchedFIFO else {
            return Problem(code: .notAvailable, message: "The board \"\(board.description.name)\" has no IMU read through a hardware FIFO, which batched "
                           + "sensors need: its chips are \(BoardSensors.chipList(board.description))",
                           advice: "Run motiond with a board that has an MPU-6050 family chip or a BMI160 (--board).")
        }
        if session.subscriptions[stream] != nil { return nil }
        let feed = BatchFeed(outbox: session.outbox, clock: clock)
        let client: BatchedClient = if stream == .batchedAccelerometer {
            .accelerometer(BatchClient<SensorReading>(frequencyHertz: fifo.rateHertz) { client, readings in
                let base = feed.clock.wallNanoseconds(readings.first?.timestampNanoseconds ?? 0)
                feed.send(.accelerometer(readings.compactMap { reading in
                    feed.clock.vector(.accelerometer(reading)).map { feed.relative($0, at: reading.timestampNanoseconds, base: base) }
                }), base: base, rate: fifo.rateHertz, client: client)
            })
        } else {
            .deviceMotion(BatchClient<DeviceMotion>(frequencyHertz: fifo.deviceMotionRateHertz) { client, motions in
                let base = feed.clock.wallNanoseconds(motions.first?.timestampNanoseconds ?? 0)
                feed.send(.deviceMotion(motions.compactMap { motion in
                    feed.clock.deviceMotion(.deviceMotion(motion, .xArbitraryZVertical)).map { feed.relative($0, at: motion.timestampNanoseconds, base: base) }
                }), base: base, rate: fifo.deviceMotionRateHertz, client: client)
            })
        }
        do throws(MotionManagerError) {
            try board.add(client)
        } catch {
            return Problem(code: .notAvailable, message: "The board could not run \(stream.name): \(error)", advice: "See motiond's log.")
        }
        session.subscriptions[stream] = .batched(client)
        return nil
    }
}

/// One batched subscription's way to its client: numbers each batch and offers it, with the
/// FIFO's loss totals, to the outbox (engine thread; the outbox never waits).
private final class BatchFeed: Sendable {
    let outbox: ClientOutbox
    let clock: DaemonClock
    private let sequence = Atomic<UInt32>(0)

    init(outbox: ClientOutbox, clock: DaemonClock) {
        (self.outbox, self.clock) = (outbox, clock)
    }

    /// `sample` with its time as seconds after `base` (wall ns), from its engine time (ns).
    func relative<Sample: BatchRecord>(_ sample: Sample, at engineTime: Int64, base: Int64) -> Sample {
        var relative = sample
        relative.time = Double(clock.wallNanoseconds(engineTime) - base) / 1e9
        return relative
    }

    func send<Element>(_ samples: SensorBatch.Samples, base: Int64, rate: Int, client: BatchClient<Element>) {
        let number = sequence.wrappingAdd(1, ordering: .relaxed).oldValue
        outbox.offer(SensorBatch(sequence: number, rateHertz: UInt16(clamping: rate), fifoMissingSamples: UInt64(client.fifoDroppedSamples),
                                 fifoOverflows: UInt64(client.fifoOverflows), baseTimeNanoseconds: base, samples: samples))
    }
}

/// A wire record with a time (s).
protocol BatchRecord {
    var time: Double { get set }
}

extension VectorSample: BatchRecord {}
extension DeviceMotionSample: BatchRecord {}
